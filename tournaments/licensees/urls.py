"""The licensee list's page (namespace ``tournaments``, listed by :mod:`tournaments.urls`)."""

from django.urls import path

from tournaments.licensees import views

urlpatterns = [
    path("gestion/licencies/", views.LicenseesView.as_view(), name="licensees"),
]

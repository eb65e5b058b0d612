"""The halls page (namespace ``tournaments``, listed by :mod:`tournaments.urls`)."""

from django.urls import path

from tournaments.halls import views

urlpatterns = [
    path("t/<slug:slug>/gestion/salles/", views.HallsView.as_view(), name="halls"),
]

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tarot_club import views

urlpatterns = [
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("", include("tournaments.urls_public")),
    path("connexion/", auth_views.LoginView.as_view(), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("langue/<str:code>/", views.switch_language, name="switch_language"),
    path("admin/", admin.site.urls),
]

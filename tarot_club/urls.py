from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scoring import urls_staff as scoring_staff_urls
from tarot_club import views
from tournaments import urls as tournaments_urls

# A tournament's staff pages share the namespace "tournaments" whichever app serves them: the
# event, its players and seating (tournaments), the round page and the archive (scoring).
tournament_staff_urls = (
    [*tournaments_urls.urlpatterns, *scoring_staff_urls.urlpatterns],
    tournaments_urls.app_name,
)

urlpatterns = [
    path("table/sw.js", views.table_service_worker, name="table_service_worker"),
    path("", include("scoring.urls")),
    path("", include(tournament_staff_urls)),
    path("", include("scoring.urls_public")),
    path("", include("tournaments.championships.urls")),
    path("", include("scoring.jobs.urls")),
    path("connexion/", auth_views.LoginView.as_view(), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("langue/<str:code>/", views.switch_language, name="switch_language"),
    path("admin/", admin.site.urls),
]

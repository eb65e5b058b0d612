"""The public pages of a tournament and of a club (namespace ``public``): no login, never an
edit control."""

from django.urls import path

import tournaments.converters  # noqa: F401  (registers the <id:...> converter)
from scoring.prizes import views as prizes
from scoring.views import club, public
from tournaments.views import seat_requests

app_name = "public"

urlpatterns = [
    path("t/<slug:slug>/", public.home, name="home"),
    path("t/<slug:slug>/classement/", public.standings, name="standings"),
    path(
        "t/<slug:slug>/classement.<str:fmt>",
        public.standings_export,
        name="standings_export",
    ),
    path("t/<slug:slug>/categories/", prizes.categories, name="categories"),
    path("t/<slug:slug>/palmares.<str:fmt>", prizes.prizes_export, name="prizes_export"),
    path("t/<slug:slug>/position/<id:number>/", public.round_results, name="round"),
    path("t/<slug:slug>/moi/", public.find_me, name="find_me"),
    path("t/<slug:slug>/joueur/<id:registration_id>/", public.player, name="player"),
    path("t/<slug:slug>/ecran/", public.tv, name="tv"),
    path("t/<slug:slug>/inscription/", seat_requests.ask, name="seat_request"),
    path("demande/<str:token>/", seat_requests.status, name="seat_request_status"),
    path("club/<slug:slug>/", club.club_home, name="club"),
    path("club/<slug:slug>/saison/<id:season_id>/", club.season_standings, name="season"),
    path(
        "club/<slug:slug>/saison/<id:season_id>/classement.<str:fmt>",
        club.season_export,
        name="season_export",
    ),
    path("club/<slug:slug>/joueur/<id:player_id>/", club.career, name="career"),
]

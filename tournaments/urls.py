"""The staff pages of the event and its people (namespace ``tournaments``).

The round page and the archive share this namespace but are scoring's (``scoring/urls_staff.py``);
the project's URLconf puts both lists under it.
"""

from django.urls import path

import tournaments.converters  # noqa: F401  (registers the <id:...> converter)
from tournaments.halls import urls as halls_urls
from tournaments.licensees import urls as licensees_urls
from tournaments.views import checkin, clubs, ending, seat_requests, seating, staff

app_name = "tournaments"

urlpatterns = [
    path("gestion/", staff.TournamentListView.as_view(), name="list"),
    path("gestion/nouveau/", staff.TournamentCreateView.as_view(), name="create"),
    path("t/<slug:slug>/gestion/", staff.DashboardView.as_view(), name="dashboard"),
    path("t/<slug:slug>/gestion/reglages/", staff.SettingsView.as_view(), name="settings"),
    path("t/<slug:slug>/gestion/terminer/", ending.FinishView.as_view(), name="finish"),
    path("t/<slug:slug>/gestion/rouvrir/", ending.ReopenView.as_view(), name="reopen"),
    path("t/<slug:slug>/gestion/placer/", seating.SeatRoundView.as_view(), name="seat_round"),
    path("t/<slug:slug>/gestion/joueurs/", staff.PlayersView.as_view(), name="players"),
    path(
        "t/<slug:slug>/gestion/joueurs/tous-presents/",
        checkin.AllPresentView.as_view(),
        name="all_present",
    ),
    path(
        "t/<slug:slug>/gestion/joueurs/tous-presents/annuler/",
        checkin.AllPresentUndoView.as_view(),
        name="all_present_undo",
    ),
    path(
        "t/<slug:slug>/gestion/joueurs/<id:registration_id>/statut/",
        staff.CheckInView.as_view(),
        name="checkin",
    ),
    path(
        "t/<slug:slug>/gestion/joueurs/<id:registration_id>/",
        staff.PlayerCorrectView.as_view(),
        name="player_correct",
    ),
    path(
        "t/<slug:slug>/gestion/joueurs/<id:registration_id>/retirer/",
        staff.PlayerRemoveView.as_view(),
        name="player_remove",
    ),
    path(
        "t/<slug:slug>/gestion/joueurs/<id:registration_id>/fusionner/",
        staff.PlayerMergeView.as_view(),
        name="player_merge",
    ),
    path("t/<slug:slug>/gestion/joueurs/import/", staff.ImportView.as_view(), name="import"),
    path("t/<slug:slug>/gestion/joueurs/codes.pdf", staff.PinSlipsView.as_view(), name="pin_slips"),
    path("t/<slug:slug>/gestion/arbitres/", staff.StaffView.as_view(), name="staff"),
    path(
        "t/<slug:slug>/gestion/demandes/",
        seat_requests.SeatRequestsView.as_view(),
        name="seat_requests",
    ),
    path(
        "t/<slug:slug>/gestion/demandes.csv",
        seat_requests.SeatRequestsExportView.as_view(),
        name="seat_requests_export",
    ),
    path("gestion/clubs/", clubs.ClubListView.as_view(), name="clubs"),
    path("gestion/club/<slug:slug>/", clubs.ClubView.as_view(), name="club"),
    path(
        "gestion/club/<slug:slug>/saison/<id:season_id>/",
        clubs.SeasonView.as_view(),
        name="season",
    ),
    *halls_urls.urlpatterns,
    *licensees_urls.urlpatterns,
]

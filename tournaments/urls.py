from django.urls import path

from tournaments.views import staff

app_name = "tournaments"

urlpatterns = [
    path("gestion/", staff.TournamentListView.as_view(), name="list"),
    path("gestion/nouveau/", staff.TournamentCreateView.as_view(), name="create"),
    path("gestion/importer/", staff.ArchiveImportView.as_view(), name="archive_import"),
    path("t/<slug:slug>/gestion/archive.json", staff.ArchiveExportView.as_view(), name="archive"),
    path("t/<slug:slug>/gestion/", staff.DashboardView.as_view(), name="dashboard"),
    path("t/<slug:slug>/gestion/reglages/", staff.SettingsView.as_view(), name="settings"),
    path("t/<slug:slug>/gestion/placer/", staff.SeatRoundView.as_view(), name="seat_round"),
    path("t/<slug:slug>/gestion/joueurs/", staff.PlayersView.as_view(), name="players"),
    path(
        "t/<slug:slug>/gestion/joueurs/<int:registration_id>/statut/",
        staff.CheckInView.as_view(),
        name="checkin",
    ),
    path("t/<slug:slug>/gestion/joueurs/import/", staff.ImportView.as_view(), name="import"),
    path("t/<slug:slug>/gestion/arbitres/", staff.StaffView.as_view(), name="staff"),
    path("t/<slug:slug>/gestion/position/<int:number>/", staff.RoundView.as_view(), name="round"),
    path(
        "t/<slug:slug>/gestion/position/<int:number>/<str:action>/",
        staff.RoundActionView.as_view(),
        name="round_action",
    ),
    path(
        "t/<slug:slug>/gestion/position/<int:number>/imprimer/<str:kind>.pdf",
        staff.SeatingPlanPdfView.as_view(),
        name="round_pdf",
    ),
]

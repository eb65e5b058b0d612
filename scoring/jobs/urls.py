"""The jobs' pages (namespace ``jobs``) and the buttons that start them."""

from django.urls import path

import tournaments.converters  # noqa: F401  (registers the <id:...> converter)
from scoring.jobs import player_import, reports, seating, views

app_name = "jobs"

urlpatterns = [
    path("gestion/travaux/<id:job_id>/", views.JobView.as_view(), name="job"),
    path("gestion/travaux/<id:job_id>/etat/", views.JobProgressView.as_view(), name="progress"),
    path("gestion/travaux/<id:job_id>/fichier/", views.JobFileView.as_view(), name="file"),
    path("gestion/travaux/<id:job_id>/relancer/", views.JobRestartView.as_view(), name="restart"),
    path(
        "t/<slug:slug>/gestion/preparer/feuilles.<str:fmt>",
        views.SheetsJobStartView.as_view(),
        name="sheets_tournament",
    ),
    path(
        "t/<slug:slug>/gestion/position/<id:number>/preparer/feuilles.<str:fmt>",
        views.SheetsJobStartView.as_view(),
        name="sheets_round",
    ),
    path(
        "gestion/club/<slug:slug>/saison/<id:season_id>/preparer-archive/",
        views.SeasonArchiveJobStartView.as_view(),
        name="season_archive",
    ),
    path("gestion/importer-saison/", views.SeasonImportView.as_view(), name="season_import"),
    path(
        "t/<slug:slug>/gestion/preparer/rapport.<str:fmt>",
        reports.ResultsReportJobStartView.as_view(),
        name="results_report",
    ),
    path(
        "gestion/championnat/<slug:slug>/preparer/rapport.<str:fmt>",
        reports.ChampionshipReportJobStartView.as_view(),
        name="championship_report",
    ),
    path(
        "t/<slug:slug>/gestion/preparer/placement/",
        seating.SeatingJobStartView.as_view(),
        name="seating",
    ),
    path(
        "t/<slug:slug>/gestion/joueurs/import/preparer/",
        player_import.PlayerImportJobStartView.as_view(),
        name="player_import",
    ),
]

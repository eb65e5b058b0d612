"""Scoring's staff pages of a tournament: the round page (with its actions, seating plan and table
cards) and the tournament archive.

They keep the ``tournaments`` namespace of the other staff pages (``tournaments:round`` …): the
project's URLconf (``tarot_club/urls.py``) puts this list under it with ``tournaments/urls.py``.
"""

from django.urls import path

import tournaments.converters  # noqa: F401  (registers the <id:...> converter)
from scoring.prizes import views as prizes
from scoring.views import archive, rounds

urlpatterns = [
    path("gestion/importer/", archive.ArchiveImportView.as_view(), name="archive_import"),
    path("t/<slug:slug>/gestion/archive.json", archive.ArchiveExportView.as_view(), name="archive"),
    path(
        "gestion/club/<slug:slug>/saison/<id:season_id>/archive.json",
        archive.SeasonArchiveExportView.as_view(),
        name="season_archive",
    ),
    path("t/<slug:slug>/gestion/palmares/", prizes.PrizesStaffView.as_view(), name="prizes"),
    path("t/<slug:slug>/gestion/position/<id:number>/", rounds.RoundView.as_view(), name="round"),
    path(
        "t/<slug:slug>/gestion/position/<id:number>/<str:action>/",
        rounds.RoundActionView.as_view(),
        name="round_action",
    ),
    path(
        "t/<slug:slug>/gestion/position/<id:number>/imprimer/<str:kind>.pdf",
        rounds.SeatingPlanPdfView.as_view(),
        name="round_pdf",
    ),
]

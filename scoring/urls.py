"""The calculator, the score-sheet pages (staff and table link), one table's sheet download (a
round's and the tournament's are background jobs, ``scoring.jobs``) and the public verification
of a printed sheet."""

from django.urls import path

import tournaments.converters  # noqa: F401  (registers the <id:...> converter)
from scoring.views import calculator, documents, sheets

urlpatterns = [
    path("", calculator.calculator, name="home"),
    path("calculette/", calculator.calculator, name="calculator"),
    path(
        "t/<slug:slug>/gestion/feuille/<id:table_id>/",
        sheets.RefereeSheetView.as_view(),
        name="sheet",
    ),
    path(
        "t/<slug:slug>/gestion/feuille/<id:table_id>/historique/",
        sheets.SheetHistoryView.as_view(),
        name="sheet_history",
    ),
    path("table/<str:token>/", sheets.TableSheetView.as_view(), name="table_sheet"),
    path("table/<str:token>/donne/", sheets.TableDealView.as_view(), name="table_sheet_deal"),
    path(
        "t/<slug:slug>/gestion/position/<id:number>/table/<id:table_number>/feuille.<str:fmt>",
        documents.SheetDocumentView.as_view(),
        name="sheet_document",
    ),
    path("verifier/", documents.verify, name="verify"),
    path("verifier/<str:code>/", documents.verify_code, name="verify_code"),
]

from django.urls import path

from scoring import document_views, sheet_views, views

urlpatterns = [
    path("", views.calculator, name="home"),
    path("calculette/", views.calculator, name="calculator"),
    path(
        "t/<slug:slug>/gestion/feuille/<int:table_id>/",
        sheet_views.RefereeSheetView.as_view(),
        name="sheet",
    ),
    path(
        "t/<slug:slug>/gestion/feuille/<int:table_id>/historique/",
        sheet_views.SheetHistoryView.as_view(),
        name="sheet_history",
    ),
    path("table/<str:token>/", sheet_views.TableSheetView.as_view(), name="table_sheet"),
    path(
        "t/<slug:slug>/gestion/feuilles.<str:fmt>",
        document_views.SheetDocumentView.as_view(),
        name="sheets_tournament",
    ),
    path(
        "t/<slug:slug>/gestion/position/<int:number>/feuilles.<str:fmt>",
        document_views.SheetDocumentView.as_view(),
        name="sheets_round",
    ),
    path(
        "t/<slug:slug>/gestion/position/<int:number>/table/<int:table_number>/feuille.<str:fmt>",
        document_views.SheetDocumentView.as_view(),
        name="sheet_document",
    ),
    path("verifier/", document_views.verify, name="verify"),
    path("verifier/<str:code>/", document_views.verify_code, name="verify_code"),
]

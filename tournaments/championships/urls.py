from django.urls import path

from tournaments.championships import views

app_name = "championships"

urlpatterns = [
    path("championnat/<slug:slug>/", views.championship_page, name="public"),
    path(
        "gestion/championnat/etape/<int:pk>/cloture/",
        views.stage_close_page,
        name="stage_close",
    ),
]

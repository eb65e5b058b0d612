from django.urls import path

from tournaments.championships import staff_views, views

app_name = "championships"

urlpatterns = [
    path("championnat/<slug:slug>/", views.championship_page, name="public"),
    path(
        "gestion/championnat/etape/<int:pk>/cloture/",
        views.stage_close_page,
        name="stage_close",
    ),
    path(
        "gestion/championnat/etape/<int:pk>/reouverture/",
        views.stage_reopen,
        name="stage_reopen",
    ),
    path("gestion/championnats/", staff_views.championship_list, name="staff_list"),
    path("gestion/championnat/<slug:slug>/", staff_views.championship_staff, name="staff"),
    path(
        "gestion/championnat/etape/<int:pk>/forfait/",
        staff_views.stage_withdraw,
        name="stage_withdraw",
    ),
    path(
        "gestion/championnat/etape/<int:pk>/invitation/",
        staff_views.stage_invite,
        name="stage_invite",
    ),
]

"""Loading the tournament of the URL and checking the user's role on it — for every staff view."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament
from tournaments.permissions import can_organise, can_run


class StaffTournamentMixin:
    """Anonymous → login page; a tournament outside the user's reach → 404 (nothing leaks)."""

    organiser_only = False

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        allowed = can_organise if self.organiser_only else can_run
        if not allowed(request.user, self.tournament):
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["is_organiser"] = can_organise(self.request.user, self.tournament)
        return context

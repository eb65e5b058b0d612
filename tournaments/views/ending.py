"""« Terminer le tournoi » and reopening it, from the tournament page (organisers only). The work
is in :mod:`tournaments.services.ending`; a refusal is shown on the tournament page,
the reason typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.services import ending
from tournaments.views.staff import DashboardView


class FinishView(DashboardView):
    organiser_only = True
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        try:
            ending.tournament_finish(tournament=self.tournament, by=request.user.get_username())
        except ServiceError as error:
            return self.render_to_response(
                self.get_context_data(finish_error=str(error)), status=422
            )
        messages.success(
            request,
            _("The tournament is finished: its standings are final and count in its season."),
        )
        return redirect("tournaments:dashboard", slug=self.tournament.slug)


class ReopenView(DashboardView):
    organiser_only = True
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        reason = request.POST.get("reason", "")
        try:
            ending.tournament_reopen(
                tournament=self.tournament, by=request.user.get_username(), reason=reason
            )
        except ServiceError as error:
            return self.render_to_response(
                self.get_context_data(reopen_error=str(error), reopen_reason=reason), status=422
            )
        messages.warning(
            request,
            _(
                "The tournament is reopened: its standings are provisional again and it does "
                "not count in its season until it is finished again."
            ),
        )
        return redirect("tournaments:dashboard", slug=self.tournament.slug)

"""« Placer la position »: the next round seated in the request, or by a job when
``tournaments.long_work`` says it is long, whichever page the form came from (a dashboard
opened before the field grew, a second tab)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View

from tarot_club.errors import ServiceError
from tournaments import selectors, services
from tournaments.forms import SeatRoundForm
from tournaments.views.helpers import posted_on_to
from tournaments.views.mixins import StaffTournamentMixin


class SeatRoundView(StaffTournamentMixin, View):
    def post(self, request, *args, **kwargs):
        number = self.tournament.round_set.count() + 1
        if selectors.seating_is_long(self.tournament, number):
            return posted_on_to("jobs:seating", self.tournament)
        form = SeatRoundForm(request.POST)
        if form.is_valid():
            order = None
            if form.cleaned_data.get("by_order"):
                order = selectors.present_registrations(self.tournament)
            try:
                round_ = services.round_seat_next(
                    tournament=self.tournament, seed=form.cleaned_data["seed"], order=order
                )
            except ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(request, _("Round %(n)d is seated.") % {"n": round_.number})
                return redirect(
                    "tournaments:round", slug=self.tournament.slug, number=round_.number
                )
        return redirect("tournaments:dashboard", slug=self.tournament.slug)

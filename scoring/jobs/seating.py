"""Seating a round as a job, when it takes more than a moment (``tournaments.long_work`` says
when: a large field, or a small one with odd tables where the search is long). The seating is
the tournament's own service (``round_seat_next``, ``round_regenerate``): the same checks, the
same messages, one transaction."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View

from scoring.jobs.common import Outcome, Progress, common_params
from scoring.jobs.models import Job
from scoring.jobs.services import job_start
from tarot_club.errors import ServiceError
from tournaments import selectors, services
from tournaments.forms import SeatRoundForm
from tournaments.models import Round, Tournament
from tournaments.views.mixins import StaffTournamentMixin


def run_seating(job: Job, progress: Progress) -> Outcome:
    """The search and the writing are one service call, in one transaction; the search tells
    how far it is (its evaluations of its budget, ``tournaments.seating.SearchProgress``)."""
    tournament = job.tournament
    progress(0, 1, Job.Stage.SEARCHING)

    def searching(done: int, total: int) -> None:
        progress(done, total, Job.Stage.SEARCHING)

    if job.params.get("again"):
        round_ = Round.objects.filter(tournament=tournament, number=job.params["round"]).first()
        if round_ is None:
            raise ServiceError(_("This round no longer exists."))
        round_ = services.round_regenerate(round_=round_, progress=searching)
    else:
        order = selectors.present_registrations(tournament) if job.params.get("by_order") else None
        round_ = services.round_seat_next(
            tournament=tournament, seed=job.params.get("seed"), order=order, progress=searching
        )
    progress(1, 1, Job.Stage.SEARCHING)
    return Outcome(None, params={"round": round_.number, "seed": round_.seed})


def seating_job_start(request, tournament: Tournament, **params) -> Job:
    return job_start(
        kind=Job.Kind.SEATING,
        user=request.user,
        tournament=tournament,
        params={**common_params(request), **params},
    )


class SeatingJobStartView(StaffTournamentMixin, View):
    """« Placer la position » of a field whose seating is long (the dashboard's form posts here
    then): the same form as ``tournaments:seat_round``, the seating done by a worker."""

    def post(self, request, *args, **kwargs):
        form = SeatRoundForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Check the seed: a whole number."))
            return redirect("tournaments:dashboard", slug=self.tournament.slug)
        number = self.tournament.round_set.count() + 1
        job = seating_job_start(
            request,
            self.tournament,
            round=number,
            seed=form.cleaned_data["seed"],
            by_order=bool(form.cleaned_data.get("by_order")),
        )
        return redirect("jobs:job", job_id=job.pk)

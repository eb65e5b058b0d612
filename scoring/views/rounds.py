"""The round page of the staff: each table's sheet state (updated in place every 10 s, with a
pause button: static/js/live.js), the seating's quality, swapping or drawing again before play,
closing and reopening; the seating plan and the table cards as PDF (a card carries the QR code of
its table's score-sheet link).

Seating and rounds are the tournament services' work (:mod:`tournaments.services`); this page
adds what the tables' score sheets say.
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring import services as scoring_services
from scoring.jobs.seating import seating_job_start
from scoring.selectors import round_dashboard, seating_plan
from tarot_club.errors import ServiceError
from tournaments import selectors, services
from tournaments.forms import CloseRoundForm, SwapForm
from tournaments.halls.pages import hall_choice
from tournaments.models import Round
from tournaments.views.mixins import StaffTournamentMixin


class RoundMixin(StaffTournamentMixin):
    def get_round(self) -> Round:
        try:
            return self.tournament.round_set.get(number=self.kwargs["number"])
        except Round.DoesNotExist:
            raise Http404 from None


class RoundView(RoundMixin, TemplateView):
    template_name = "staff/round.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.get_round()
        context["round"] = round_
        context["halls"] = halls = hall_choice(self.request, self.tournament, staff=True)
        every_table = round_dashboard(round_)
        context["tables"] = halls.only(every_table, lambda t: t.table.number)
        # What closing leaves unsigned (in every hall): each such sheet counts with its deals.
        context["unsigned_tables"] = [t for t in every_table if t.status != "signed"]
        context["quality"] = selectors.round_quality(round_)
        context["swap_form"] = kwargs.get("swap_form") or SwapForm(
            tournament=self.tournament, round_=round_
        )
        context["close_form"] = kwargs.get("close_form") or CloseRoundForm()
        context["is_last"] = not self.tournament.round_set.filter(number__gt=round_.number).exists()
        return context


class RoundActionView(RoundMixin, TemplateView):
    """Regenerate, swap, close or reopen a round."""

    template_name = "staff/round.html"
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        round_ = self.get_round()
        action = kwargs["action"]
        back = redirect("tournaments:round", slug=self.tournament.slug, number=round_.number)
        try:
            if action == "regenerate" and selectors.seating_is_long(self.tournament, round_.number):
                job = seating_job_start(request, self.tournament, round=round_.number, again=True)
                return redirect("jobs:job", job_id=job.pk)
            if action == "regenerate":
                round_ = services.round_regenerate(round_=round_)
                messages.success(
                    request, _("Round seated again (seed %(seed)d).") % {"seed": round_.seed}
                )
            elif action == "swap":
                form = SwapForm(request.POST, tournament=self.tournament, round_=round_)
                if not form.is_valid():
                    messages.error(request, _("Choose two players."))
                    return back
                warnings = services.seats_swap(
                    round_=round_,
                    first=form.cleaned_data["first"],
                    second=form.cleaned_data["second"],
                    confirmed=form.cleaned_data["confirmed"],
                )
                if warnings and not form.cleaned_data["confirmed"]:
                    confirm = SwapForm(
                        initial={**form.cleaned_data, "confirmed": True},
                        tournament=self.tournament,
                        round_=round_,
                    )
                    return self._confirm_swap(request, round_, warnings, confirm)
                messages.success(request, _("Seats swapped."))
            elif action == "close":
                form = CloseRoundForm(request.POST)
                if not form.is_valid():  # a reason over its limit: said, kept as typed
                    return self._round_page(request, round_, status=422, close_form=form)
                services.round_close(round_=round_, reason=form.cleaned_data.get("reason", ""))
                messages.success(request, _("Round %(n)d is closed.") % {"n": round_.number})
            elif action == "call_time":
                scoring_services.round_call_time(
                    round_=round_, actor=scoring_services.Actor.staff(request.user, request.path)
                )
                messages.success(
                    request,
                    _("Time called on round %(n)d: the tables stop where they are.")
                    % {"n": round_.number},
                )
            elif action == "reopen":
                services.round_reopen(round_=round_)
                messages.success(request, _("Round %(n)d is open again.") % {"n": round_.number})
            else:
                raise Http404
        except ServiceError as error:
            messages.error(request, str(error))
        return back

    def _confirm_swap(self, request, round_, warnings, confirm):
        return self._round_page(request, round_, swap_form=confirm, swap_warnings=warnings)

    def _round_page(self, request, round_, status=200, **context):
        view = RoundView()
        view.setup(request, slug=self.tournament.slug, number=round_.number)
        view.tournament = self.tournament
        forms = {k: context.pop(k) for k in ("swap_form", "close_form") if k in context}
        page = view.get_context_data(**forms)
        page.update(context)
        return view.render_to_response(page, status=status)


class SeatingPlanPdfView(RoundMixin, TemplateView):
    def get(self, request, *args, **kwargs):
        from scoring.documents.language import printed_in
        from scoring.documents.pdf import (  # reportlab loads on first use
            seating_plan_pdf,
            table_cards_pdf,
        )

        round_ = self.get_round()
        cards = kwargs.get("kind") == "cards"
        plan = seating_plan(round_, request=request, with_links=cards)
        if (halls := hall_choice(request, self.tournament)).hall:  # ?salle=<slug>: one hall
            plan = replace(plan, tournament=f"{plan.tournament} — {halls.hall.name}")
            plan = replace(plan, tables=tuple(halls.only(plan.tables, lambda t: t.number)))
        with printed_in(get_language()):  # the language of whoever asks
            content = table_cards_pdf(plan) if cards else seating_plan_pdf(plan)
        name = (
            f"{self.tournament.slug}-position-{round_.number}-{'cartes' if cards else 'plan'}"
            f"{'-' + halls.hall.slug if halls.hall else ''}.pdf"
        )
        response = HttpResponse(content, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{name}"'
        if cards:  # the table links: kept by no cache, in no history of the browser
            add_never_cache_headers(response)
        return response

"""Score sheet pages: deal entry by a referee or by North through the table's private link,
corrections, penalties, paper totals, signatures and the sheet's history.

Views only translate between HTTP and :mod:`scoring.services`; every rule lives there.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from scoring import services
from scoring.engine import Camp, get_rule_set, score_deal
from scoring.forms import DealEntryForm, PaperTotalsForm, PenaltyForm, PinForm
from scoring.history import deal_versions, history_lines
from scoring.models import Deal, ScoreSheet
from scoring.presenters import explanation_lines
from scoring.selectors import SHEET_WITH_TOURNAMENT, seat_names, sheet_view
from scoring.services import Actor, DealConflict, InvalidDealInput
from tarot_club.errors import ServiceError
from tournaments.models import Table
from tournaments.views.mixins import StaffTournamentMixin


def _client(request) -> str:
    return request.META.get("REMOTE_ADDR", "?")


def _initial_from_deal(deal, slot) -> dict:
    """Form values (engine seats of this deal's players) from a stored deal."""
    seat = {position: index for index, position in enumerate(slot.active)}
    initial = {"kind": deal.kind, "version": deal.version, "note": deal.note}
    if deal.kind != "passed":
        initial.update(
            taker=seat.get(deal.taker),
            contract=deal.contract,
            oudlers=deal.oudlers,
            points=f"{deal.points.normalize():f}".replace(".", ","),
            points_camp=Camp.ATTACK.value,
            petit_au_bout=deal.petit_au_bout,
            slam_announced=deal.slam_announced,
            slam=deal.slam,
        )
        for h in deal.handfuls:
            if h["seat"] in seat:
                initial[f"handful_{seat[h['seat']]}"] = h["size"]
    return initial


class SheetPage(View):
    """Shared by the referee's page and the table link; subclasses say who the actor is."""

    referee = False
    template_name = "scoring/sheet.html"

    def get_sheet(self) -> ScoreSheet:
        raise NotImplementedError

    def actor(self) -> Actor:
        raise NotImplementedError

    def url(self, **query) -> str:
        raise NotImplementedError

    def dispatch(self, request, *args, **kwargs):
        response = self.check_access(request, *args, **kwargs)
        if response is not None:
            return response
        self.sheet = self.get_sheet()
        return super().dispatch(request, *args, **kwargs)

    def check_access(self, request, *args, **kwargs):
        return None

    # -- building the page ------------------------------------------------------------------

    def context(self, view, number=None, form=None, preview=None, **extra):
        deals = view.deals
        next_number = services.next_deal_number(view.sheet, deals, view.size)
        if number is None:
            number = next_number
        slot = services.deal_slot(view.sheet, number, deals, view.size) if number else None
        if form is None and slot is not None and not view.sheet.paper_mode:
            initial = _initial_from_deal(slot.existing, slot) if slot.existing else {}
            form = self.make_form(view, slot, initial=initial)
        return {
            "view": view,
            "tournament": view.tournament,
            "sheet": view.sheet,
            "slot": slot,
            "form": form,
            "preview": preview,
            "number": number,
            "next_number": next_number,
            "referee": self.referee,
            "page_url": self.url(),
            "pin_form": extra.pop("pin_form", None)
            or PinForm(players=[p for p in view.player_choices if p[0] not in view.signed_ids]),
            **extra,
        }

    def make_form(self, view, slot, data=None, initial=None):
        names = [view.names[p] for p in slot.active]
        return DealEntryForm(
            data,
            initial=initial,
            seat_names=names,
            referee=self.referee,
            rules=_rules(view),
        )

    def render_page(self, request, view, status=200, **kwargs):
        return render(request, self.template_name, self.context(view, **kwargs), status=status)

    # -- HTTP -------------------------------------------------------------------------------

    def get(self, request, *args, **kwargs):
        view = sheet_view(self.sheet)
        number = _int(request.GET.get("donne"))
        if number is not None and not any(d.number == number for d in view.deals):
            number = None
        return self.render_page(request, view, number=number)

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action", "deal")
        handler = getattr(self, f"post_{action}", None)
        if handler is None:
            raise Http404
        return handler(request)

    def post_deal(self, request):
        view = sheet_view(self.sheet)
        number = _int(request.POST.get("number"))
        if number is None:
            raise Http404
        slot = services.deal_slot(view.sheet, number, view.deals, view.size)
        form = self.make_form(view, slot, data=request.POST)
        if not form.is_valid():
            if "preview" in request.POST and request.htmx:
                # Still typing: no preview yet, and no error noise until the form is sent.
                return render(request, "scoring/_preview.html", {"preview": None})
            return self.render_page(request, view, number=number, form=form, status=422)
        if "preview" in request.POST:
            preview = _preview(form, [view.names[p] for p in slot.active])
            template = "scoring/_preview.html" if request.htmx else self.template_name
            context = self.context(view, number=number, form=form, preview=preview)
            return render(request, template, context)
        data = form.cleaned_data
        try:
            services.deal_record(
                sheet=view.sheet,
                number=number,
                kind=data["kind"],
                deal=form.deal,
                actor=self.actor(),
                version=data.get("version"),
                note=data.get("note", ""),
                reason=data.get("reason", ""),
                seen=services.SheetSeen(view.sheet.version, view.seats, view.deals),
            )
        except DealConflict as conflict:
            view = sheet_view(self.sheet.pk)
            fresh = services.deal_slot(view.sheet, number, view.deals, view.size)
            form = self.make_form(view, fresh, initial=_initial_from_deal(conflict.deal, fresh))
            return self.render_page(
                request, view, number=number, form=form, status=409, conflict=str(conflict)
            )
        except InvalidDealInput as invalid:
            for field, errors in invalid.errors.items():
                for message in errors:
                    form.add_error(field if field in form.fields else None, message)
            return self.render_page(request, view, number=number, form=form, status=422)
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error))
            return self.render_page(request, view, number=number, form=form, status=422)
        messages.success(request, _("Deal %(n)d saved.") % {"n": number})
        return redirect(self.url())

    def post_sign(self, request):
        view = sheet_view(self.sheet.pk)
        form = PinForm(request.POST, players=view.player_choices)
        if form.is_valid():
            seat = view.seat_of(form.cleaned_data["registration"])
            try:
                services.sheet_sign_with_pin(
                    sheet=view.sheet,
                    registration=seat.registration,
                    pin=form.cleaned_data["pin"],
                    client=_client(request),
                    actor=self.actor(),
                )
            except ServiceError as error:
                form.add_error("pin", str(error))
            else:
                messages.success(
                    request, _("Signed by %(name)s.") % {"name": seat.registration.player.full_name}
                )
                return redirect(self.url())
        return self.render_page(request, view, pin_form=form, status=422)


def _rules(view):
    return get_rule_set(view.tournament.rule_set)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _preview(form, names):
    if form.deal is None:
        return {"passed": True}
    result = score_deal(form.deal, form.rules)
    return {
        "rule_set": _(form.rules.label),
        "rows": list(zip(names, result.scores, strict=True)),
        "explanation": explanation_lines(result.explanation, names),
        "won": result.explanation.won,
        "taker": names[form.deal.taker],
    }


class RefereeSheetView(StaffTournamentMixin, SheetPage):
    referee = True

    def check_access(self, request, *args, **kwargs):
        return None  # StaffTournamentMixin.dispatch already checked

    def get_sheet(self):
        return get_object_or_404(
            ScoreSheet.objects.select_related(*SHEET_WITH_TOURNAMENT),
            table_id=self.kwargs["table_id"],
            table__round__tournament=self.tournament,
        )

    def actor(self):
        return Actor.staff(self.request.user, page=self.request.path)

    def url(self, **query):
        return reverse("sheet", args=[self.tournament.slug, self.kwargs["table_id"]])

    def post_delete_last(self, request):
        try:
            services.deal_delete_last(
                sheet=self.sheet, actor=self.actor(), reason=request.POST.get("reason", "")
            )
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The last deal was removed."))
        return redirect(self.url())

    def post_penalty(self, request):
        view = sheet_view(self.sheet.pk)
        form = PenaltyForm(request.POST, players=view.player_choices)
        if form.is_valid():
            seat = view.seat_of(form.cleaned_data["registration"])
            try:
                services.penalty_add(
                    sheet=view.sheet,
                    registration=seat.registration,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    actor=self.actor(),
                )
            except ServiceError as error:
                form.add_error(error.field if error.field in form.fields else None, str(error))
            else:
                messages.success(request, _("Penalty recorded."))
                return redirect(self.url())
        return self.render_page(request, view, penalty_form=form, status=422)

    def post_paper(self, request):
        view = sheet_view(self.sheet.pk)
        form = PaperTotalsForm(request.POST, players=view.position_choices)
        if form.is_valid():
            try:
                services.paper_totals_record(
                    sheet=view.sheet,
                    totals=form.totals,
                    actor=self.actor(),
                    reason=form.cleaned_data["reason"],
                )
            except ServiceError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Round totals recorded."))
                return redirect(self.url())
        return self.render_page(request, view, paper_form=form, status=422)

    def post_sign_paper(self, request):
        try:
            services.sheet_sign_on_paper(sheet=self.sheet, actor=self.actor())
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Paper signatures recorded: the sheet is signed."))
        return redirect(self.url())

    def context(self, view, number=None, form=None, preview=None, **extra):
        extra.setdefault("penalty_form", PenaltyForm(players=view.player_choices))
        totals = zip(view.position_choices, view.sheet.paper_totals, strict=False)
        extra.setdefault(
            "paper_form",
            PaperTotalsForm(
                players=view.position_choices,
                initial={f"total_{position}": total for (position, _), total in totals},
            ),
        )
        extra["table_link"] = self.request.build_absolute_uri(
            reverse("table_sheet", args=[view.sheet.token])
        )
        return super().context(view, number=number, form=form, preview=preview, **extra)


class TableSheetView(SheetPage):
    """North enters the deals on a phone through the table's private link; no account."""

    referee = False

    def get_sheet(self):
        return get_object_or_404(
            ScoreSheet.objects.select_related(*SHEET_WITH_TOURNAMENT), token=self.kwargs["token"]
        )

    def actor(self):
        return Actor.table(page=self.request.path)

    def url(self, **query):
        return reverse("table_sheet", args=[self.kwargs["token"]])


class SheetHistoryView(StaffTournamentMixin, View):
    def get(self, request, *args, **kwargs):
        table = get_object_or_404(
            Table.objects.select_related("sheet", "round"),
            pk=kwargs["table_id"],
            round__tournament=self.tournament,
        )
        sheet = table.sheet
        names = seat_names(table)
        versions = (
            Deal.history.filter(sheet_id=sheet.pk)
            .select_related("history_user")
            .order_by("-history_date", "-history_id")
        )
        return render(
            request,
            "scoring/history.html",
            {
                "tournament": self.tournament,
                "table": table,
                "sheet": sheet,
                "lines": history_lines(sheet.events.all(), names),
                "versions": deal_versions(versions, names),
            },
        )

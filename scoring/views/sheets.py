"""Score sheet pages: deal entry by a referee or by North through the table's private link,
corrections, penalties, paper totals, signatures and the sheet's history.

Views only translate between HTTP and :mod:`scoring.services`; every rule lives there.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.decorators.cache import never_cache

from scoring import services
from scoring.engine import Camp, get_rule_set, score_deal
from scoring.engine.table import active_positions, next_dealer
from scoring.entry_state import OPEN, WITH_FORM, entry_state
from scoring.forms import (
    DealEntryForm,
    DeleteLastForm,
    PaperTotalsForm,
    PenaltyForm,
    PinForm,
    focus_first_error,
)
from scoring.history import deal_versions, history_lines
from scoring.labels import of_person
from scoring.links import public_url
from scoring.models import Deal, ScoreSheet
from scoring.presenters import explanation_lines
from scoring.resigning import resigning_context
from scoring.selectors import SHEET_WITH_TOURNAMENT, seat_names, sheet_state
from scoring.services import Actor, DealConflict, InvalidDealInput
from scoring.templatetags.tarot import short_name
from tarot_club.errors import ServiceError
from tarot_club.network import client_address
from tournaments.models import Round, Table
from tournaments.views.helpers import add_service_error, int_or_none
from tournaments.views.mixins import StaffTournamentMixin


def _initial_from_deal(deal, slot) -> dict:
    """Form values (engine seats of this deal's players) from a stored deal."""
    seat = {position: index for index, position in enumerate(slot.active)}
    initial = {"kind": deal.kind, "version": deal.version, "note": deal.note}
    if deal.kind == "ruling":
        for index, position in enumerate(slot.active):
            initial[f"ruling_{index}"] = deal.scores[position]
    elif deal.kind not in ("passed", "misdeal"):
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


@method_decorator(never_cache, name="dispatch")  # the table link is in the page (or its address)
class SheetPage(View):
    """Shared by the referee's page and the table link; subclasses say who the actor is."""

    referee = False
    template_name = "table/sheet.html"

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

    def context(self, state, number=None, form=None, preview=None, **extra):
        deals = state.deals
        round_closed = state.table.round.status == Round.Status.CLOSED
        next_number = services.next_deal_number(state.sheet, deals, state.size)
        if number is None:
            number = next_number
        slot = services.deal_slot(state.sheet, number, deals, state.size) if number else None
        entry = entry_state(state, next_number=next_number)
        if round_closed or (not self.referee and entry not in WITH_FORM):
            slot = form = None  # read-only (closed), or signing began: North changes nothing
        if form is None and slot is not None and not state.sheet.paper_mode:
            initial = _initial_from_deal(slot.existing, slot) if slot.existing else {}
            form = self.make_form(state, slot, initial=initial)
        return {
            "state": state,
            "tournament": state.tournament,
            "sheet": state.sheet,
            "slot": slot,
            "slot_dealer_name": state.names[slot.dealer] if slot else "",
            "form": form,
            "preview": preview,
            "number": number,
            "next_number": next_number,
            "referee": self.referee,
            "round_closed": round_closed,
            "entry_state": entry,
            "page_url": self.url(),
            "pin_form": extra.pop("pin_form", None) or PinForm(players=_unsigned(state)),
            **resigning_context(state),  # after a correction: what changed, earlier signatures
            **extra,
        }

    def make_form(self, state, slot, data=None, initial=None):
        letters = _seat_letters(state)
        initial = {
            **(initial or {}),
            "key": secrets.token_hex(16),  # a double tap on Save records the deal once
            "dealer": slot.dealer,
        }
        return DealEntryForm(
            data,
            initial=initial,
            seat_names=[short_name(state.names[p]) for p in slot.active],
            seat_letters=[letters[p] for p in slot.active],
            referee=self.referee,
            rules=_rules(state),
        )

    def render_page(self, request, state, status=200, **kwargs):
        return render(request, self.template_name, self.context(state, **kwargs), status=status)

    # -- HTTP -------------------------------------------------------------------------------

    def get(self, request, *args, **kwargs):
        state = sheet_state(self.sheet)
        number = int_or_none(request.GET.get("donne"))
        if number is not None and not any(d.number == number for d in state.deals):
            number = None
        return self.render_page(request, state, number=number)

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action", "deal")
        handler = getattr(self, f"post_{action}", None)
        if handler is None:
            raise Http404
        return handler(request)

    def post_deal(self, request):
        state = sheet_state(self.sheet)
        number = int_or_none(request.POST.get("number"))
        if number is None:
            raise Http404
        slot = services.deal_slot(state.sheet, number, state.deals, state.size)
        form = self.make_form(state, slot, data=request.POST)
        if not form.is_valid():
            if "preview" in request.POST and request.htmx:
                # Still typing: no preview yet, and no error noise until the form is sent.
                return render(request, "table/_preview.html", {"preview": None})
            form.focus_first_error()
            return self.render_page(request, state, number=number, form=form, status=422)
        if "preview" in request.POST:
            preview = _preview(form, [state.names[p] for p in slot.active])
            template = "table/_preview.html" if request.htmx else self.template_name
            context = self.context(state, number=number, form=form, preview=preview)
            return render(request, template, context)
        outcome = self.record(state, number, form)
        if outcome.conflict is not None:
            state = sheet_state(self.sheet.pk)
            fresh = services.deal_slot(state.sheet, number, state.deals, state.size)
            # What the other person saved (or, when earlier deals moved the dealer, an empty
            # form for the deal as it now stands): nothing of theirs is overwritten.
            stored = outcome.conflict.deal
            initial = _initial_from_deal(stored, fresh) if stored is not None else None
            form = self.make_form(state, fresh, initial=initial)
            return self.render_page(
                request, state, number=number, form=form, status=409, conflict=str(outcome.conflict)
            )
        if outcome.recorded is None:
            if _stopped(self, request, number):  # time called, round closed, signing begun
                message = " ".join(form.non_field_errors())
                state = sheet_state(self.sheet.pk)
                return self.render_page(request, state, status=409, conflict=message)
            form.focus_first_error()
            return self.render_page(request, state, number=number, form=form, status=422)
        messages.success(request, _("Deal %(n)d saved.") % {"n": outcome.recorded.number})
        return redirect(self.url())

    def record(self, state, number: int, form) -> DealOutcome:
        """Record the deal of a valid form, once per key: the deal recorded, a conflict (the
        sheet changed meanwhile), or the service's refusal added to the form's errors."""
        data = form.cleaned_data
        try:
            recorded = services.deal_record(
                key=data.get("key", ""),
                sheet=state.sheet,
                number=number,
                kind=data["kind"],
                deal=form.deal,
                actor=self.actor(),
                version=data.get("version"),
                dealer=data.get("dealer"),
                note=data.get("note", ""),
                reason=data.get("reason", ""),
                seen=services.SheetSeen(state.sheet.version, state.seats, state.deals),
                ruling=form.ruling,
            )
        except DealConflict as conflict:
            return DealOutcome(conflict=conflict)
        except InvalidDealInput as invalid:
            for field, errors in invalid.errors.items():
                for message in errors:
                    form.add_error(field if field in form.fields else None, message)
        except ServiceError as error:
            add_service_error(form, error)
        else:
            return DealOutcome(recorded=recorded)
        return DealOutcome()

    def post_sign(self, request):
        state = sheet_state(self.sheet.pk)
        # After a wrong PIN the list still offers only the players yet to sign.
        form = PinForm(request.POST, players=_unsigned(state))
        if form.is_valid():
            seat = state.seat_of(form.cleaned_data["registration"])
            try:
                services.sheet_sign_with_pin(
                    sheet=state.sheet,
                    registration=seat.registration,
                    pin=form.cleaned_data["pin"],
                    client=client_address(request),
                    actor=self.actor(),
                )
            except ServiceError as error:
                form.add_error("pin", str(error))
            else:
                name = seat.registration.full_name
                # « Signature d'Élodie Leroy enregistrée. »
                messages.success(
                    request, _("Signature %(of_name)s recorded.") % {"of_name": of_person(name)}
                )
                return redirect(self.url())
        focus_first_error(form)
        return self.render_page(request, state, pin_form=form, status=422)


@dataclass
class DealOutcome:
    recorded: Deal | None = None
    conflict: DealConflict | None = None


def _stopped(page: SheetPage, request, number: int) -> bool:
    """Whether a deal North's phone could not save was refused because the sheet stopped taking
    it (time called, round closed, signing begun) rather than for what was typed."""
    if page.referee:
        return False
    state = sheet_state(page.sheet.pk)
    entry = entry_state(
        state, next_number=services.next_deal_number(state.sheet, state.deals, state.size)
    )
    return entry not in WITH_FORM or (entry != OPEN and not request.POST.get("version"))


def _unsigned(state) -> list[tuple[int, str]]:
    """The players who have not signed the sheet yet: the choices of the PIN form."""
    return [p for p in state.player_choices if p[0] not in state.signed_ids]


def _seat_letters(state) -> list[str]:
    """The seat letters of the sheet's header (N, E, S, O, 5e), by table position."""
    return [s.short_label for s in state.seats]


def _rules(state):
    return get_rule_set(state.tournament.rule_set)


def _preview(form, names):
    if form.ruling is not None:
        return {"ruling": True, "rows": list(zip(names, form.ruling, strict=True))}
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
        form = DeleteLastForm(request.POST)
        if not form.is_valid():  # a reason over its limit: said on the field, kept as typed
            focus_first_error(form)
            state = sheet_state(self.sheet.pk)
            return self.render_page(request, state, delete_form=form, tools_open=True, status=422)
        try:
            services.deal_delete_last(
                sheet=self.sheet, actor=self.actor(), reason=form.cleaned_data["reason"]
            )
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The last deal was removed."))
        return redirect(self.url())

    def post_penalty(self, request):
        state = sheet_state(self.sheet.pk)
        form = PenaltyForm(request.POST, players=state.player_choices)
        if form.is_valid():
            seat = state.seat_of(form.cleaned_data["registration"])
            try:
                services.penalty_add(
                    sheet=state.sheet,
                    registration=seat.registration,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    actor=self.actor(),
                )
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Penalty recorded."))
                return redirect(self.url())
        focus_first_error(form)
        return self.render_page(request, state, penalty_form=form, tools_open=True, status=422)

    def post_paper(self, request):
        state = sheet_state(self.sheet.pk)
        form = PaperTotalsForm(request.POST, players=state.position_choices)
        if form.is_valid():
            try:
                services.paper_totals_record(
                    sheet=state.sheet,
                    totals=form.totals,
                    actor=self.actor(),
                    reason=form.cleaned_data["reason"],
                )
            except ServiceError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Round totals recorded."))
                return redirect(self.url())
        focus_first_error(form, default=True)
        return self.render_page(request, state, paper_form=form, tools_open=True, status=422)

    def post_sign_paper(self, request):
        try:
            services.sheet_sign_on_paper(sheet=self.sheet, actor=self.actor())
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Paper signatures recorded: the sheet is signed."))
        return redirect(self.url())

    def context(self, state, number=None, form=None, preview=None, **extra):
        extra.setdefault("penalty_form", PenaltyForm(players=state.player_choices))
        extra.setdefault("delete_form", DeleteLastForm())
        totals = zip(state.position_choices, state.sheet.paper_totals, strict=False)
        extra.setdefault(
            "paper_form",
            PaperTotalsForm(
                players=state.position_choices,
                initial={f"total_{position}": total for (position, _), total in totals},
            ),
        )
        extra["table_link"] = public_url(
            reverse("table_sheet", args=[state.sheet.token]), self.request
        )
        return super().context(state, number=number, form=form, preview=preview, **extra)


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

    def context(self, state, number=None, form=None, preview=None, **extra):
        context = super().context(state, number=number, form=form, preview=preview, **extra)
        context["table_config"] = config = self.queue_config(state, context)
        context["table_config_json"] = json.dumps(config, ensure_ascii=False)
        return context

    def queue_config(self, state, context) -> dict:
        """What the page's queue (static/js/table-queue.js) needs to move the form on to the
        next deals while earlier ones wait to be sent: the next deal, and who deals after
        whom (by kind of deal) and who plays, as the services decide it."""
        size = state.size
        slot, form = context["slot"], context["form"]
        new_slot = form is not None and slot is not None and slot.existing is None
        next_number = context["next_number"]
        next_slot = (
            services.deal_slot(state.sheet, next_number, state.deals, size) if next_number else None
        )
        letters = _seat_letters(state)
        return {
            "sheet": state.sheet.pk,
            "pageUrl": self.url(),
            "queueUrl": reverse("table_sheet_deal", args=[self.kwargs["token"]]),
            "swUrl": reverse("table_service_worker"),
            "swScope": reverse("table_sheet", args=["x"]).rsplit("x/", 1)[0],
            "form": ("new" if new_slot else "correction") if form is not None else None,
            # Asked again every few seconds: a change (time called...) shows the page anew.
            "state": context["entry_state"],
            "watchSeconds": 15,
            "next": None if context["round_closed"] else next_number,
            "dealer": next_slot.dealer if next_slot else None,
            "counted": state.counted,
            "quota": state.quota,
            "passedCounts": state.tournament.passed_deals_count,
            "after": {
                kind: [next_dealer(size, dealer, kind) for dealer in range(size)]
                for kind in Deal.Kind.values
            },
            "active": [active_positions(size, dealer) for dealer in range(size)],
            "seats": [
                {"letter": letters[i], "name": name, "short": short_name(name)}
                for i, name in enumerate(state.names)
            ],
            "texts": {
                "title": _("Deal %(n)s") % {"n": "{n}"},
                # Messages with a count: their forms for 0, 1 and 2 or more (French, English).
                "pending": _counts(
                    lambda n: ngettext(
                        "%(n)s deal waiting to be sent", "%(n)s deals waiting to be sent", n
                    )
                ),
                "sending": _("sending…"),
                "offline": _counts(
                    lambda n: ngettext(
                        "no network: it stays on this phone and goes as soon as it is back.",
                        "no network: they stay on this phone and go as soon as it is back.",
                        n,
                    )
                ),
                "retry": _("Next try in %(s)s s.") % {"s": "{s}"},
                "saved": _("Deal %(n)s saved") % {"n": "{n}"},
                "waiting": _("waiting to be sent"),
                "conflict": _("not recorded: the sheet was changed meanwhile"),
                "refused": _("refused: correct it"),
                "stopped": _("not recorded"),
                "discard": _("Discard"),
                "edit": _("Correct it"),
                "oudlers": _counts(lambda n: ngettext("%(n)s oudler", "%(n)s oudlers", n)),
                # The points in a confirmation as the sheet prints them: 60,5 (fr), 60.5 (en).
                "decimal": get_format("DECIMAL_SEPARATOR"),
            },
        }


class TableDealView(TableSheetView):
    """The table page's queue sends each deal here (JSON): recorded once per key, in order."""

    http_method_names = ["get", "head", "post"]

    def get(self, request, *args, **kwargs):
        """The sheet's state as North's phone sees it (``scoring.entry_state``)."""
        state = sheet_state(self.sheet)
        next_number = services.next_deal_number(state.sheet, state.deals, state.size)
        return JsonResponse({"state": entry_state(state, next_number=next_number)})

    def post(self, request, *args, **kwargs):
        state = sheet_state(self.sheet)
        number = int_or_none(request.POST.get("number"))
        if number is None:
            return _json_refused(_("This page is out of date: open it again."))
        slot = services.deal_slot(state.sheet, number, state.deals, state.size)
        form = self.make_form(state, slot, data=request.POST)
        if form.is_valid():
            outcome = self.record(state, number, form)
            if outcome.conflict is not None:
                return JsonResponse(
                    {"status": "conflict", "number": number, "message": str(outcome.conflict)},
                    status=409,
                )
            if outcome.recorded is None and _stopped(self, request, number):
                message = " ".join(form.non_field_errors())
                return JsonResponse(
                    {"status": "stopped", "number": number, "message": message}, status=409
                )
            if outcome.recorded is not None:
                deal = outcome.recorded
                return JsonResponse(
                    {
                        "status": "saved",
                        "replayed": outcome.recorded.replayed,
                        "number": deal.number,
                        "version": deal.version,
                        "scores": deal.scores,
                    },
                    status=200 if outcome.recorded.replayed else 201,
                )
        errors = {name: list(messages_) for name, messages_ in form.errors.items()}
        return _json_refused(
            " ".join(m for messages_ in errors.values() for m in messages_), errors
        )


def _counts(message) -> list[str]:
    """A message with a count, as the page fills it in (``{n}``): ``message(n) % {"n": ...}``
    for 0, 1 and 2."""
    return [message(n) % {"n": "{n}"} for n in range(3)]


def _json_refused(message: str, errors: dict | None = None) -> JsonResponse:
    return JsonResponse(
        {"status": "refused", "message": message, "errors": errors or {}}, status=422
    )


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
            "table/history.html",
            {
                "tournament": self.tournament,
                "table": table,
                "sheet": sheet,
                "lines": history_lines(sheet.events.all(), names),
                "versions": deal_versions(versions, names),
            },
        )

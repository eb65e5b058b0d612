"""Entering and correcting deals, and removing the last one: the table's busiest path.

:func:`deal_record` enters or corrects one deal, at most once per idempotency key (a phone's
queue resends what it never heard back about), in one short transaction: lock, check, write
the deal and its score rows, log, update the sheet. Scores are always derived from the stored
inputs by the engine (:func:`scoring.scores.deal_scores`).
"""

from __future__ import annotations

import hashlib
from copy import copy
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import Deal as EngineDeal
from scoring.engine import InvalidDeal, get_rule_set, score_deal
from scoring.engine.table import active_positions, dealers
from scoring.entry_state import time_up_message
from scoring.messages import deal_error_message
from scoring.models import Deal, ScoreSheet, SheetEvent
from scoring.scores import RULING_LIMIT, counted, deal_quota, deal_scores, ruling_error
from scoring.services.sheets import (
    Actor,
    amend,
    change_voids_signatures,
    lock_sheet,
    log_event,
    refresh_status,
    refuse_if_closed,
    sheet_seats,
    write_score_rows,
)
from scoring.services.versions import sheet_touch
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Round, Seat, Table
from tournaments.services import check_length


class DealConflict(ServiceError):
    """Someone else changed the sheet since the form was opened: this deal (``deal``, as they
    saved it), or the deals before it, which moved the dealer (``deal`` None). Nothing is
    overwritten: the person sees what changed."""

    def __init__(self, deal: Deal | None, message: str = ""):
        super().__init__(
            message
            or _(
                "Deal %(number)d was changed by someone else meanwhile. Here is what they saved; "
                "check it and correct it again if needed."
            )
            % {"number": deal.number}
        )
        self.deal = deal


class InvalidDealInput(ServiceError):
    """The engine refused the deal: one message per field."""

    def __init__(self, errors: dict[str | None, list[str]]):
        super().__init__(" ".join(m for messages in errors.values() for m in messages))
        self.errors = errors


def _redeal(sheet: ScoreSheet, seats: list[Seat], rule_set: str) -> list[Deal]:
    """Re-derive every deal's dealer and scores (a kind change moves later dealers); returns
    the sheet's deals as they are now."""
    size = len(seats)
    deals = list(sheet.deals.order_by("number"))
    for deal, dealer in zip(deals, dealers(size, [d.kind for d in deals]), strict=True):
        if deal.dealer != dealer:
            deal.dealer = dealer
            try:
                deal.scores = deal_scores(deal, size, rule_set)
            except InvalidDeal:
                raise ServiceError(
                    _(
                        "This change moves the dealer of deal %(number)d, who would then sit "
                        "out although they took part in it. Correct deal %(number)d first."
                    )
                    % {"number": deal.number}
                ) from None
            deal._change_reason = "dealer re-derived"
            deal.save(update_fields=["dealer", "scores", "updated_at"])
            write_score_rows(sheet, deal, seats)
    return deals


@dataclass(frozen=True)
class DealSlot:
    """Everything needed to show the entry form of deal ``number`` of a sheet."""

    number: int
    dealer: int
    active: list[int]  # table positions that play this deal
    sitting_out: int | None
    existing: Deal | None


def deal_slot(sheet: ScoreSheet, number: int, deals: list[Deal], size: int) -> DealSlot:
    existing = next((d for d in deals if d.number == number), None)
    before = [d for d in deals if d.number < number]
    dealer = dealers(size, [d.kind for d in before] + ["played"])[-1]
    return DealSlot(
        number=number,
        dealer=dealer,
        active=active_positions(size, dealer),
        sitting_out=dealer if size == 5 else None,
        existing=existing,
    )


def next_deal_number(sheet: ScoreSheet, deals: list[Deal], size: int) -> int | None:
    """The next deal to enter, or None when the quota is reached."""
    tournament = sheet.table.round.tournament
    if counted(deals, tournament) >= deal_quota(tournament, size):
        return None
    if sheet.table.round.time_called_at is not None:
        return None  # time was called: the table stopped where it was
    return (max((d.number for d in deals), default=0)) + 1


@dataclass(frozen=True)
class SheetSeen:
    """A sheet as the page read it just before calling a service: its version, seats (by
    position) and deals (by number)."""

    version: int
    seats: list[Seat]
    deals: list[Deal]


def _page_round(sheet: ScoreSheet) -> Round | None:
    """The sheet's round as the page read it with the sheet, if it did (no query)."""
    if ScoreSheet.table.is_cached(sheet) and Table.round.is_cached(sheet.table):
        return sheet.table.round
    return None


def _seats_and_deals(sheet: ScoreSheet, seen: SheetSeen | None) -> tuple[list[Seat], list[Deal]]:
    """The locked sheet's seats and deals, read again unless what the page saw still holds:
    the same version (every change to the deals moves it) and at least one deal (the round
    has started, so its seating is fixed)."""
    if seen is not None and seen.version == sheet.version and seen.deals:
        # Copies: the service changes them, and the page may show them again on an error.
        return [copy(s) for s in seen.seats], [copy(d) for d in seen.deals]
    return sheet_seats(sheet), list(sheet.deals.select_for_update().order_by("number"))


def _entry_hash(**payload) -> str:
    """A hash of what a deal entry sent (the same entry resent gives the same hash)."""
    return hashlib.sha256(repr(sorted(payload.items())).encode()).hexdigest()


def _recorded_with_key(
    sheet: ScoreSheet, deals: list[Deal], key: str, entry_hash: str
) -> Deal | None:
    """The deal recorded with ``key`` on this sheet, as it is now; a :class:`DealConflict` when
    it was recorded and removed since, or when that key came with other values (another deal
    number, other points): a replay resends the very same entry."""
    for existing in deals:
        if existing.entry_key == key:
            _refuse_other_payload(existing.entry_hash, entry_hash, existing)
            return existing
    recorded = (
        Deal.history.filter(sheet_id=sheet.pk, entry_key=key)
        .values_list("number", "entry_hash")
        .first()
    )
    if recorded is None:
        return None
    number, recorded_hash = recorded
    _refuse_other_payload(recorded_hash, entry_hash, None)
    existing = next((d for d in deals if d.number == number), None)
    if existing is None:
        raise DealConflict(
            None,
            _("Deal %(number)d was recorded, then removed by the referee.") % {"number": number},
        )
    return existing


def _refuse_other_payload(recorded: str, sent: str, deal: Deal | None) -> None:
    if recorded and recorded != sent:
        raise DealConflict(
            deal,
            _(
                "This entry was already sent with other values (another deal or other "
                "points): it was not recorded again. Check the sheet; enter the deal anew if "
                "needed."
            ),
        )


def deal_record(
    *,
    sheet: ScoreSheet,
    number: int,
    kind: str,
    deal: EngineDeal | None,
    actor: Actor,
    key: str = "",
    version: int | None = None,
    dealer: int | None = None,
    note: str = "",
    reason: str = "",
    seen: SheetSeen | None = None,
    ruling: list[int] | None = None,
) -> Deal:
    """Enter deal ``number`` (``version`` None) or correct it (``version`` = the one edited).

    ``deal`` holds the engine inputs in the seats of the players of this deal (the sitting-out
    dealer excluded); it is None for a passed deal and for a referee's ruling, whose scores
    ``ruling`` gives in the same seats. ``seen``: the sheet as the page read it, which spares
    reading it again while the sheet is locked when nothing changed since. ``dealer``: the
    dealer the page showed for this deal; when the deals before it changed meanwhile and moved
    the dealer, that is a conflict.

    ``key``: an idempotency key, so that a deal is recorded at most once per key (a phone
    resends a deal whose answer it never received: the deal it recorded is returned, nothing is
    written twice). The key is stored with the deal (unique per sheet) and in its history, so a
    key that a later change replaced is still known; an empty key (the staff pages, the demo)
    records every call.

    Returns the deal as recorded, with ``replayed`` set: True when ``key`` had been recorded
    before and nothing was written (the phone's queue answers 200 rather than 201), else False.
    The Deal itself rather than a wrapper, since nearly every caller wants only the deal.
    """
    with transaction.atomic():
        # A phone resending a deal it recorded before the round closed is told it is recorded.
        sheet = lock_sheet(sheet.pk, open_round=False, seen_round=_page_round(sheet))
        status_before = sheet.status
        tournament = sheet.table.round.tournament
        seats, deals = _seats_and_deals(sheet, seen)
        size = len(seats)
        entry_hash = _entry_hash(
            number=number,
            kind=kind,
            deal=deal,
            version=version,
            dealer=dealer,
            note=note.strip(),
            reason=reason.strip(),
            ruling=ruling,
        )
        if key:
            replayed = _recorded_with_key(sheet, deals, key, entry_hash)
            if replayed is not None:
                replayed.replayed = True
                return replayed
        refuse_if_closed(sheet.table.round)
        voids_signatures = change_voids_signatures(sheet, actor, reason)
        if sheet.paper_mode:
            raise ServiceError(_("This table kept a paper sheet: enter its round totals."))
        if kind not in Deal.Kind.values:
            raise ServiceError(_("Unknown kind of deal."), field="kind")
        check_length(note, limits.REASON, "note")
        if kind == Deal.Kind.REFEREE and (actor.is_table or not note.strip()):
            raise ServiceError(
                _("A deal decided by the referee needs the referee's reason."), field="note"
            )
        if kind == Deal.Kind.RULING:
            if actor.is_table:
                raise ServiceError(_("Only a referee can rule a deal's scores."), field="kind")
            if not note.strip():
                raise ServiceError(
                    _("A referee's ruling needs the referee's reason."), field="note"
                )
        existing = next((d for d in deals if d.number == number), None)
        if version is None:
            if existing is not None and key:
                # Entered meanwhile (by the referee, or another phone): show it, keep it.
                raise DealConflict(
                    existing,
                    _(
                        "Deal %(number)d was entered meanwhile by someone else: yours was not "
                        "recorded. Check the sheet; correct the deal there if needed."
                    )
                    % {"number": number},
                )
            if existing is not None:
                raise ServiceError(
                    _("Deal %(number)d is already recorded; open it to correct it.")
                    % {"number": number}
                )
            expected = next_deal_number(sheet, deals, size)
            played = counted(deals, tournament)
            if expected is None and played < deal_quota(tournament, size):
                raise ServiceError(time_up_message(played))  # what the table page says
            if expected is None:
                quota = deal_quota(tournament, size)
                raise ServiceError(
                    ngettext(
                        "The only deal of this table is recorded.",
                        "All %(quota)d deals of this table are recorded.",
                        quota,
                    )
                    % {"quota": quota}
                )
            if number != expected:
                raise ServiceError(
                    _("The next deal to enter is deal %(expected)d, not %(number)d.")
                    % {"expected": expected, "number": number}
                )
        else:
            if existing is None:
                raise ServiceError(_("Deal %(number)d does not exist.") % {"number": number})
            if existing.version != version:
                raise DealConflict(existing)
        slot = deal_slot(sheet, number, deals, size)
        if dealer is not None and dealer != slot.dealer:
            raise DealConflict(
                None,
                _(
                    "The deals before deal %(number)d were changed meanwhile: its dealer is no "
                    "longer the one your page showed. Yours was not recorded; enter it again."
                )
                % {"number": number},
            )
        old_kind = existing.kind if existing else None
        target = existing or Deal(sheet=sheet, number=number)
        before = _snapshot(existing) if existing else None
        target.kind = kind
        target.dealer = slot.dealer
        noted = (Deal.Kind.REFEREE, Deal.Kind.RULING, Deal.Kind.MISDEAL)
        target.note = note.strip() if kind in noted else ""
        _apply_inputs(target, deal, slot, tournament.rule_set, size, ruling)
        target.version = (existing.version + 1) if existing else 1
        target.entry_key = key
        target.entry_hash = entry_hash if key else ""
        target._change_reason = reason or ("created" if existing is None else "corrected")
        target._history_user = actor.user
        target.save()
        write_score_rows(sheet, target, seats, new=existing is None)
        if old_kind is not None and old_kind != kind:
            deals = _redeal(sheet, seats, tournament.rule_set)
        else:
            deals = [d for d in deals if d.number != number] + [target]
        if voids_signatures:
            amend(sheet)
        log_event(
            sheet,
            actor,
            SheetEvent.Action.DEAL_CREATED
            if existing is None
            else SheetEvent.Action.DEAL_CORRECTED,
            reason=reason,
            deal=number,
            before=before,
            after=_snapshot(target),
        )
        refresh_status(sheet, seats, deals, status_before=status_before)
        sheet_touch(sheet=sheet, status_before=status_before)
    target.replayed = False
    return target


def _apply_inputs(
    target: Deal,
    deal: EngineDeal | None,
    slot: DealSlot,
    rule_set: str,
    size: int,
    ruling: list[int] | None = None,
) -> None:
    if target.kind in (Deal.Kind.PASSED, Deal.Kind.MISDEAL, Deal.Kind.RULING):
        target.taker = target.partner = target.oudlers = target.points = None
        target.contract = target.petit_au_bout = target.slam = ""
        target.handfuls = []
        target.slam_announced = False
        target.scores = [0] * size
        if target.kind == Deal.Kind.RULING:
            target.scores = _ruling_scores(ruling, slot, size)
        return
    if deal is None:
        raise ServiceError(_("Enter the deal's contract, taker, oudlers and points."))
    if deal.players != len(slot.active):
        raise ServiceError(_("This table plays %(n)d-player deals.") % {"n": len(slot.active)})
    try:
        score_deal(deal, get_rule_set(rule_set))
    except InvalidDeal as invalid:
        errors: dict[str | None, list[str]] = {}
        for error in invalid.errors:
            errors.setdefault(error.field, []).append(deal_error_message(error))
        raise InvalidDealInput(errors) from None
    position = slot.active
    target.taker = position[deal.taker]
    target.partner = None
    target.contract = str(deal.contract)
    target.oudlers = deal.oudlers
    target.points = deal.points
    target.handfuls = [{"seat": position[h.seat], "size": str(h.size)} for h in deal.handfuls]
    target.petit_au_bout = str(deal.petit_au_bout) if deal.petit_au_bout else ""
    target.slam_announced = deal.slam_announced
    target.slam = str(deal.slam) if deal.slam else ""
    target.scores = deal_scores(target, size, rule_set)


def _ruling_scores(ruling: list[int] | None, slot: DealSlot, size: int) -> list[int]:
    """A ruling's scores by table position, from those typed for the players of the deal
    (0 for the seat sitting out); refused unless they are whole and sum to zero."""
    if ruling is None or len(ruling) != len(slot.active):
        raise ServiceError(_("Type one score for each player of this deal."), field="ruling")
    scores = [0] * size
    for position, score in zip(slot.active, ruling, strict=True):
        scores[position] = score
    code = ruling_error(scores, size, slot.dealer)
    if code == "ruling.range":
        raise ServiceError(
            _("A ruling's score is at most %(limit)d points either way.") % {"limit": RULING_LIMIT},
            field="ruling",
        )
    if code == "ruling.sum":
        raise ServiceError(
            _("The scores of a ruling must sum to zero; they sum to %(sum)d. Check them.")
            % {"sum": sum(scores)},
            field="ruling",
        )
    if code is not None:
        raise ServiceError(_("Type one score for each player of this deal."), field="ruling")
    return scores


def _snapshot(deal: Deal) -> dict:
    return {
        "kind": deal.kind,
        "dealer": deal.dealer,
        "taker": deal.taker,
        "contract": deal.contract,
        "oudlers": deal.oudlers,
        "points": f"{deal.points.normalize():f}" if deal.points is not None else None,
        "handfuls": deal.handfuls,
        "petit_au_bout": deal.petit_au_bout,
        "slam_announced": deal.slam_announced,
        "slam": deal.slam,
        "note": deal.note,
        "scores": deal.scores,
    }


def deal_delete_last(*, sheet: ScoreSheet, actor: Actor, reason: str = "") -> None:
    """Remove the last deal (a deal entered by mistake); referees only, kept in the history."""
    if actor.is_table:
        raise ServiceError(_("Only a referee can remove a deal."))
    with transaction.atomic():
        sheet = lock_sheet(sheet.pk)
        status_before = sheet.status
        voids_signatures = change_voids_signatures(sheet, actor, reason)
        last = sheet.deals.order_by("-number").first()
        if last is None:
            raise ServiceError(_("This sheet has no deal."))
        snapshot = _snapshot(last)
        last._change_reason = reason or "removed"
        last._history_user = actor.user
        last.delete()
        if voids_signatures:
            amend(sheet)
        log_event(
            sheet,
            actor,
            SheetEvent.Action.DEAL_REMOVED,
            reason=reason,
            deal=last.number,
            before=snapshot,
        )
        refresh_status(sheet, status_before=status_before)
        sheet_touch(sheet=sheet, status_before=status_before)

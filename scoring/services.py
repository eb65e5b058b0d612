"""Deal entry, corrections, penalties, paper totals and signatures: the services of a score sheet.

Each service runs in one short transaction: lock (the sheet row on PostgreSQL; SQLite serialises
writers with BEGIN IMMEDIATE), check, write, log a :class:`SheetEvent`, update the sheet status.
Scores are always derived from the stored inputs by the engine
(:func:`scoring.scores.deal_scores`).
"""

from __future__ import annotations

import hashlib
import hmac
from copy import copy
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.documents.fingerprint import verification_code
from scoring.engine import Deal as EngineDeal
from scoring.engine import InvalidDeal, get_rule_set, score_deal
from scoring.engine.table import active_positions, dealers
from scoring.entry_state import time_up_message
from scoring.messages import deal_error_message
from scoring.models import (
    Deal,
    Penalty,
    PinAttempt,
    Score,
    ScoreSheet,
    SheetEvent,
    SheetSeal,
    Signature,
)
from scoring.scores import (
    RULING_LIMIT,
    counted,
    deal_quota,
    deal_scores,
    ruling_error,
    score_rows,
)
from scoring.sealing import seal_fields
from scoring.selectors import current_canonical
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Registration, Round, Seat, Table
from tournaments.services import check_length, lock_round, tournament_touch

PIN_ATTEMPTS_ALLOWED = 5
PIN_LOCKOUT = timedelta(minutes=5)


@dataclass(frozen=True)
class Actor:
    """Who makes a change and from where: a staff user, or the table through its private link."""

    label: str
    user: object | None = None
    page: str = ""

    @property
    def is_table(self) -> bool:
        return self.user is None

    @classmethod
    def staff(cls, user, page: str = "") -> Actor:
        return cls(label=user.get_username(), user=user, page=page)

    @classmethod
    def table(cls, page: str = "") -> Actor:
        return cls(label=str(_("Table link")), user=None, page=page)


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


@dataclass(frozen=True)
class RecordedDeal:
    """What :func:`deal_record_once` did: ``replayed`` when the key had been recorded before
    (the deal as it is now is returned and nothing is written)."""

    deal: Deal
    replayed: bool


class InvalidDealInput(ServiceError):
    """The engine refused the deal: one message per field."""

    def __init__(self, errors: dict[str | None, list[str]]):
        super().__init__(" ".join(m for messages in errors.values() for m in messages))
        self.errors = errors


# ---------------------------------------------------------------------------------------------
# Entering and correcting deals
# ---------------------------------------------------------------------------------------------


def write_score_rows(
    sheet: ScoreSheet, deal: Deal, seats: list[Seat], *, new: bool = False
) -> None:
    """Replace the per-player score rows (:class:`Score`) of one deal of ``sheet``.

    ``seats``: the table's, by position; ``new``: the deal has no rows yet (nothing to delete).
    Used by the deal services and by the archive import, which writes stored deals back.
    """
    if not new:
        Score.objects.filter(deal=deal).delete()
    rules = get_rule_set(sheet.table.round.tournament.rule_set)
    rows = score_rows(deal, len(seats), rules)
    Score.objects.bulk_create(
        [
            Score(
                sheet=sheet,
                deal=deal,
                registration_id=seat.registration_id,
                round_number=sheet.table.round.number,
                points=points,
                played=played,
                took=took,
                made=made,
            )
            for seat, (points, played, took, made) in zip(seats, rows, strict=True)
        ]
    )


def write_paper_score_rows(sheet: ScoreSheet, totals: list[int], *, new: bool = False) -> None:
    """Replace the score rows (:class:`Score`) of a paper sheet: one round total per player,
    ``totals`` by table position; ``new``: the sheet has no rows yet (nothing to delete).
    Used by the paper-totals service and by the archive import."""
    if not new:
        Score.objects.filter(sheet=sheet).delete()
    seats = sheet.table.seats.order_by("position").values_list("registration_id", flat=True)
    Score.objects.bulk_create(
        [
            Score(
                sheet=sheet,
                registration_id=registration_id,
                round_number=sheet.table.round.number,
                points=total,
                played=False,
            )
            for registration_id, total in zip(seats, totals, strict=True)
        ]
    )


SEAT_RESULT_FIELDS = ["points", "deals_played", "deals_taken", "deals_made"]


def _store_seat_results(sheet: ScoreSheet, seats: list[Seat], deals: list[Deal]) -> None:
    """Store each seat's result at this table (what the standings read): the sums of what
    its deals give it, or the round totals of a paper sheet. Writes only what changed."""
    totals = [[0, 0, 0, 0] for _ in seats]
    if sheet.paper_mode:
        for total, points in zip(totals, sheet.paper_totals, strict=False):
            total[0] = points
    else:
        rules = get_rule_set(sheet.table.round.tournament.rule_set)
        for deal in deals:
            for total, row in zip(totals, score_rows(deal, len(seats), rules), strict=True):
                for index, value in enumerate(row):
                    total[index] += value
    changed = []
    for seat, total in zip(seats, totals, strict=True):
        if [getattr(seat, name) for name in SEAT_RESULT_FIELDS] != total:
            for name, value in zip(SEAT_RESULT_FIELDS, total, strict=True):
                setattr(seat, name, value)
            changed.append(seat)
    if changed:
        _update_seat_results(changed)


def _update_seat_results(seats: list[Seat]) -> None:
    """One UPDATE ... CASE for the seats' result fields.

    Written in SQL because Django's bulk_update builds the same statement from expression
    objects more slowly than the rest of a deal's writes together (``bench/figures.md``);
    this runs on every deal entered. Plain SQL-92, the same on SQLite and PostgreSQL.
    """
    quote = connection.ops.quote_name
    pk = quote(Seat._meta.pk.column)
    assignments, params = [], []
    for name in SEAT_RESULT_FIELDS:
        cases = " ".join(["WHEN %s THEN %s"] * len(seats))
        assignments.append(f"{quote(Seat._meta.get_field(name).column)} = CASE {pk} {cases} END")
        for seat in seats:
            params += [seat.pk, getattr(seat, name)]
    params += [seat.pk for seat in seats]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Seat._meta.db_table)} SET {', '.join(assignments)} "
            f"WHERE {pk} IN ({', '.join(['%s'] * len(seats))})",
            params,
        )


def seat_results_store(sheet: ScoreSheet) -> None:
    """Recompute and store the results of a sheet's seats (after a bulk load or an import)."""
    _store_seat_results(sheet, sheet_seats(sheet), list(sheet.deals.all()))


def sheet_seats(sheet: ScoreSheet) -> list[Seat]:
    """The table's seats, by position."""
    return list(Seat.objects.filter(table_id=sheet.table_id).order_by("position"))


def _lock_sheet(sheet_id: int, *, open_round: bool = True) -> ScoreSheet:
    """The sheet with its table, round and tournament, locked until the end of the transaction,
    in an open round: the gate of every change to a sheet (deal, correction, penalty, paper
    totals, signature).

    Its round is locked first (:func:`tournaments.services.lock_round`, the order closing a
    round takes too), then the sheet. Once the round is closed nothing changes its sheets until
    a referee reopens it; a change waiting while the round closes is refused once it is closed.
    ``open_round=False`` leaves that check to the caller (:func:`_refuse_if_closed`), for a
    resent deal that only reads what was recorded.
    """
    try:
        round_ = lock_round(tables__sheet=sheet_id)
    except Round.DoesNotExist:
        raise ServiceError(
            _("This table is no longer in the round (it was seated again): reload the page.")
        ) from None
    if open_round:
        _refuse_if_closed(round_)
    sheet = (
        ScoreSheet.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .get(pk=sheet_id)
    )
    sheet.table.round.status = round_.status  # as locked (the same row, read once more)
    return sheet


def _refuse_if_closed(round_: Round) -> None:
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(
            _("Round %(number)d is closed: a referee must reopen it before any change.")
            % {"number": round_.number}
        )


def lock_round_sheets(round_: Round) -> list[ScoreSheet]:
    """Lock every sheet of a round being closed (or timed...), by id, after the round itself:
    no sheet service is then half-way through, and none starts before the round's change is
    committed (they wait on the round, then see it)."""
    return list(ScoreSheet.objects.select_for_update().filter(table__round=round_).order_by("pk"))


def _start_round(round_: Round) -> None:
    """Anything recorded on a sheet starts its round: the round moves from seated to playing,
    and its seating is fixed (:mod:`tournaments.services.rounds` swaps and seats again only a
    round still seated)."""
    if round_.status == Round.Status.SEATED:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.PLAYING)
        round_.status = Round.Status.PLAYING


def _log(
    sheet: ScoreSheet, actor: Actor, action: SheetEvent.Action, reason: str = "", **data
) -> None:
    """Keep the event in the sheet's log (an ``action`` that is not one of
    :class:`SheetEvent.Action` is refused: ValueError), after starting the sheet's round."""
    action = SheetEvent.Action(action)
    _start_round(sheet.table.round)
    SheetEvent.objects.create(
        sheet=sheet,
        actor=actor.user,
        actor_label=actor.label,
        action=action,
        page=actor.page[:200],
        reason=reason,
        data=data,
    )


def _change_voids_signatures(sheet: ScoreSheet, actor: Actor, reason: str) -> bool:
    """Whether the change voids signatures standing on the sheet (then see ``_amend``), after
    refusing what the actor may not change: a table's phone touches no signed sheet, and a
    signed sheet changes only with a reason."""
    check_length(reason, limits.REASON, "reason")
    standing = _signatures_stand(sheet)
    if (standing or sheet.status == ScoreSheet.Status.AMENDED) and actor.is_table:
        raise ServiceError(
            _("This sheet is signed and locked: ask the referee for any correction.")
        )
    if sheet.status == ScoreSheet.Status.SIGNED and not reason.strip():
        raise ServiceError(
            _("The sheet is signed: give the reason for this correction."), field="reason"
        )
    return standing


def _signatures_stand(sheet: ScoreSheet) -> bool:
    """Whether players' signatures stand on the sheet: always on a signed one, maybe on a
    complete one being signed or an amended one being signed again, never on one in progress
    (any change voids them), which therefore needs no query."""
    return sheet.status == ScoreSheet.Status.SIGNED or (
        sheet.status in (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.AMENDED)
        and sheet.signatures.filter(superseded_at__isnull=True).exists()
    )


def _amend(sheet: ScoreSheet) -> None:
    """A change voids the signatures standing on the sheet (they vouched for what it said);
    a signed sheet shows 'amended' until the players sign again."""
    now = timezone.now()
    sheet.signatures.filter(superseded_at__isnull=True).update(superseded_at=now)
    if sheet.status == ScoreSheet.Status.SIGNED:
        sheet.status = ScoreSheet.Status.AMENDED


def _refresh_status(
    sheet: ScoreSheet,
    seats: list[Seat] | None = None,
    deals: list[Deal] | None = None,
    *,
    status_before: str | None = None,
) -> None:
    """Recompute the status from the deals and signatures and the seats' results; save the
    sheet (bumps version). ``seats`` and ``deals``, when given, are the table's as they are now.

    ``status_before`` comes from services that change only the deals: the sheet's own row then
    changes only its version number, so its history gets a row only when the status moves
    (the deals keep their own history and the sheet its event log).
    """
    table = sheet.table
    seats = sheet_seats(sheet) if seats is None else seats
    deals = list(sheet.deals.all()) if deals is None else deals
    size = len(seats)
    tournament = table.round.tournament
    if sheet.paper_mode:
        complete = len(sheet.paper_totals) == size and sum(sheet.paper_totals) == 0
        started = bool(sheet.paper_totals)
    else:
        # A timed round whose time was called: the table stopped where it was.
        complete = (
            counted(deals, tournament) >= deal_quota(tournament, size)
            or table.round.time_called_at is not None
        )
        started = bool(deals)
    # A signed sheet stays signed (any change amends it first); an amended one stays amended
    # while complete, but one missing a deal is back in progress: it neither counts in the
    # standings nor can be signed until the deal is entered again.
    if sheet.status != ScoreSheet.Status.SIGNED and not (
        sheet.status == ScoreSheet.Status.AMENDED and complete
    ):
        sheet.status = (
            ScoreSheet.Status.COMPLETE
            if complete
            else ScoreSheet.Status.IN_PROGRESS
            if started
            else ScoreSheet.Status.NOT_STARTED
        )
    _store_seat_results(sheet, seats, deals)
    sheet.version += 1
    if status_before is not None and sheet.status == status_before:
        sheet.skip_history_when_saving = True
    try:
        sheet.save()
    finally:
        sheet.__dict__.pop("skip_history_when_saving", None)


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


def _seats_and_deals(sheet: ScoreSheet, seen: SheetSeen | None) -> tuple[list[Seat], list[Deal]]:
    """The locked sheet's seats and deals, read again unless what the page saw still holds:
    the same version (every change to the deals moves it) and at least one deal (the round
    has started, so its seating is fixed)."""
    if seen is not None and seen.version == sheet.version and seen.deals:
        # Copies: the service changes them, and the page may show them again on an error.
        return [copy(s) for s in seen.seats], [copy(d) for d in seen.deals]
    return sheet_seats(sheet), list(sheet.deals.select_for_update().order_by("number"))


def deal_record(
    *,
    sheet: ScoreSheet,
    number: int,
    kind: str,
    deal: EngineDeal | None,
    actor: Actor,
    version: int | None = None,
    note: str = "",
    reason: str = "",
    seen: SheetSeen | None = None,
    ruling: list[int] | None = None,
) -> Deal:
    """Enter deal ``number`` (``version`` None) or correct it (``version`` = the one edited).

    ``deal`` holds the engine inputs in the seats of the players of this deal (the sitting-out
    dealer excluded); it is None for a passed deal and for a referee's ruling, whose scores
    ``ruling`` gives in the same seats. ``seen``: the sheet as the page read it, which spares
    reading it again while the sheet is locked when nothing changed since.
    """
    return deal_record_once(
        key="",
        sheet=sheet,
        number=number,
        kind=kind,
        deal=deal,
        actor=actor,
        version=version,
        note=note,
        reason=reason,
        seen=seen,
        ruling=ruling,
    ).deal


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


def deal_record_once(
    *,
    key: str,
    sheet: ScoreSheet,
    number: int,
    kind: str,
    deal: EngineDeal | None,
    actor: Actor,
    version: int | None = None,
    dealer: int | None = None,
    note: str = "",
    reason: str = "",
    seen: SheetSeen | None = None,
    ruling: list[int] | None = None,
) -> RecordedDeal:
    """:func:`deal_record`, at most once per idempotency ``key`` (a phone resends a deal whose
    answer it never received: the deal it recorded is returned, nothing is written twice).

    The key is stored with the deal (unique per sheet) and in its history, so a key that a
    later change replaced is still known; an empty key records as :func:`deal_record` does.
    ``dealer``: the dealer the page showed for this deal; when the deals before it changed
    meanwhile and moved the dealer, that is a conflict.
    """
    with transaction.atomic():
        # A phone resending a deal it recorded before the round closed is told it is recorded.
        sheet = _lock_sheet(sheet.pk, open_round=False)
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
                return RecordedDeal(deal=replayed, replayed=True)
        _refuse_if_closed(sheet.table.round)
        voids_signatures = _change_voids_signatures(sheet, actor, reason)
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
                raise ServiceError(
                    _("All %(quota)d deals of this table are recorded.")
                    % {"quota": deal_quota(tournament, size)}
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
        target.note = note.strip() if kind in (Deal.Kind.REFEREE, Deal.Kind.RULING) else ""
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
            _amend(sheet)
        _log(
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
        _refresh_status(sheet, seats, deals, status_before=status_before)
        tournament_touch(tournament_id=tournament.pk)
    return RecordedDeal(deal=target, replayed=False)


def _apply_inputs(
    target: Deal,
    deal: EngineDeal | None,
    slot: DealSlot,
    rule_set: str,
    size: int,
    ruling: list[int] | None = None,
) -> None:
    if target.kind in (Deal.Kind.PASSED, Deal.Kind.RULING):
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
        sheet = _lock_sheet(sheet.pk)
        status_before = sheet.status
        voids_signatures = _change_voids_signatures(sheet, actor, reason)
        last = sheet.deals.order_by("-number").first()
        if last is None:
            raise ServiceError(_("This sheet has no deal."))
        snapshot = _snapshot(last)
        last._change_reason = reason or "removed"
        last._history_user = actor.user
        last.delete()
        if voids_signatures:
            _amend(sheet)
        _log(
            sheet,
            actor,
            SheetEvent.Action.DEAL_REMOVED,
            reason=reason,
            deal=last.number,
            before=snapshot,
        )
        _refresh_status(sheet, status_before=status_before)
        tournament_touch(tournament_id=sheet.table.round.tournament_id)


# ---------------------------------------------------------------------------------------------
# Paper sheets, penalties
# ---------------------------------------------------------------------------------------------


def paper_totals_record(
    *, sheet: ScoreSheet, totals: list[int], actor: Actor, reason: str = ""
) -> ScoreSheet:
    """A table that kept a paper sheet: the referee types each player's round total."""
    if actor.is_table:
        raise ServiceError(_("Only a referee enters the totals of a paper sheet."))
    with transaction.atomic():
        sheet = _lock_sheet(sheet.pk)
        size = sheet.table.seats.count()
        voids_signatures = _change_voids_signatures(sheet, actor, reason)
        if sheet.deals.exists():
            raise ServiceError(_("Deals are already entered for this table: correct them instead."))
        if len(totals) != size:
            raise ServiceError(_("Enter one total per player."))
        if sum(totals) != 0:
            raise ServiceError(
                _("The round totals must sum to zero; they sum to %(sum)d. Check the sheet.")
                % {"sum": sum(totals)},
                field="totals",
            )
        before = list(sheet.paper_totals)
        sheet.paper_mode = True
        sheet.paper_totals = list(totals)
        write_paper_score_rows(sheet, totals)
        if voids_signatures:
            _amend(sheet)
        _log(
            sheet,
            actor,
            SheetEvent.Action.PAPER_TOTALS,
            reason=reason,
            before=before,
            after=list(totals),
        )
        _refresh_status(sheet)
        tournament_touch(tournament_id=sheet.table.round.tournament_id)
    return sheet


def penalty_add(
    *, sheet: ScoreSheet, registration: Registration, amount: int, reason: str, actor: Actor
) -> Penalty:
    if actor.is_table:
        raise ServiceError(_("Only a referee gives a penalty."))
    if not reason.strip():
        raise ServiceError(_("A penalty needs a reason."), field="reason")
    check_length(reason, limits.REASON, "reason")
    if amount == 0:
        raise ServiceError(_("A penalty of 0 points changes nothing."), field="amount")
    if amount > 0:  # the FFT rules know penalties only: points taken away, never given
        raise ServiceError(
            _(
                "A penalty takes points away: type −%(amount)s. The rules give no bonus points; "
                "a wrong score is corrected on its deal."
            )
            % {"amount": amount},
            field="amount",
        )
    with transaction.atomic():
        sheet = _lock_sheet(sheet.pk)
        if not sheet.table.seats.filter(registration=registration).exists():
            raise ServiceError(_("This player does not sit at this table."), field="registration")
        # The sheet the players signed showed no such penalty: their signatures no longer
        # stand (the sealed fingerprint covers penalties) and a signed sheet shows 'amended'.
        if _signatures_stand(sheet):
            _amend(sheet)
            _refresh_status(sheet)
        penalty = Penalty.objects.create(
            sheet=sheet,
            registration=registration,
            amount=amount,
            reason=reason.strip(),
            referee=actor.user,
        )
        _log(
            sheet,
            actor,
            SheetEvent.Action.PENALTY,
            reason=reason,
            player=registration.full_name,
            amount=amount,
        )
        tournament_touch(tournament_id=sheet.table.round.tournament_id)
    return penalty


# ---------------------------------------------------------------------------------------------
# Signing
# ---------------------------------------------------------------------------------------------


def _signable(sheet: ScoreSheet) -> None:
    if sheet.status not in (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.AMENDED):
        raise ServiceError(_("The sheet can be signed once every deal is entered."))
    if sheet.paper_mode and sum(sheet.paper_totals) != 0:
        raise ServiceError(_("The round totals do not sum to zero."))


def _pin_locked(sheet: ScoreSheet, registration: Registration) -> bool:
    """Whether this player's PIN was mistyped too often on this sheet lately. Keyed on the
    PIN being tried, not on an address: behind a proxy every phone has the same one, and a
    guesser changing address gains nothing."""
    since = timezone.now() - PIN_LOCKOUT
    return (
        PinAttempt.objects.filter(sheet=sheet, registration=registration, at__gte=since).count()
        >= PIN_ATTEMPTS_ALLOWED
    )


def sheet_sign_with_pin(
    *, sheet: ScoreSheet, registration: Registration, pin: str, client: str, actor: Actor
) -> Signature:
    """A player confirms the sheet with their personal PIN on the table's device.

    ``client``: the device's address (:func:`tarot_club.network.client_address`), kept with a
    wrong PIN for the record; the lock is the player's on this sheet, from any device."""
    with transaction.atomic():
        sheet = _lock_sheet(sheet.pk)
        if not sheet.table.seats.filter(registration=registration).exists():
            raise ServiceError(_("This player does not sit at this table."))
        if _pin_locked(sheet, registration):
            raise ServiceError(
                _(
                    "Too many wrong PINs for %(name)s: wait %(minutes)d minutes, or ask the "
                    "referee to record the signatures of the paper sheet."
                )
                % {"name": registration.full_name, "minutes": PIN_LOCKOUT.seconds // 60}
            )
        _signable(sheet)
        if not hmac.compare_digest(pin.strip().encode(), registration.pin.encode()):
            PinAttempt.objects.create(sheet=sheet, registration=registration, client=client[:64])
            # The failed attempt must survive the refusal: commit it, then refuse.
            wrong = True
        else:
            wrong = False
    if wrong:
        raise ServiceError(_("Wrong PIN for %(name)s.") % {"name": registration.full_name})
    with transaction.atomic():
        sheet = _lock_sheet(sheet.pk)
        _signable(sheet)
        if sheet.signatures.filter(registration=registration, superseded_at__isnull=True).exists():
            raise ServiceError(_("%(name)s has already signed.") % {"name": registration.full_name})
        signature = Signature.objects.create(
            sheet=sheet, registration=registration, method=Signature.Method.PIN
        )
        _log(sheet, actor, SheetEvent.Action.SIGNED, player=registration.full_name, method="pin")
        _complete_signing(sheet)
    return signature


def sheet_sign_on_paper(*, sheet: ScoreSheet, actor: Actor) -> None:
    """The referee records that every player signed the paper sheet."""
    if actor.is_table:
        raise ServiceError(_("Only a referee records a paper signature."))
    with transaction.atomic():
        sheet = _lock_sheet(sheet.pk)
        _signable(sheet)
        signed = set(
            sheet.signatures.filter(superseded_at__isnull=True).values_list(
                "registration_id", flat=True
            )
        )
        for seat in sheet.table.seats.all():
            if seat.registration_id not in signed:
                Signature.objects.create(
                    sheet=sheet,
                    registration_id=seat.registration_id,
                    method=Signature.Method.PAPER,
                    recorded_by=actor.user,
                )
        _log(sheet, actor, SheetEvent.Action.SIGNED, method="paper")
        _complete_signing(sheet)


def _complete_signing(sheet: ScoreSheet) -> None:
    seated = set(sheet.table.seats.values_list("registration_id", flat=True))
    signed = set(
        sheet.signatures.filter(superseded_at__isnull=True).values_list(
            "registration_id", flat=True
        )
    )
    if seated <= signed:
        sheet.status = ScoreSheet.Status.SIGNED
        sheet.signed_at = timezone.now()
        sheet.save()
        sheet.fingerprint = _seal(sheet)
        _refresh_status(sheet)
        tournament_touch(tournament_id=sheet.table.round.tournament_id)


def _seal(sheet: ScoreSheet) -> str:
    """Fingerprint the sheet as stored now, and keep its canonical content as a seal signed
    with this installation's key (scoring.sealing)."""
    fp, content = current_canonical(sheet)
    if not SheetSeal.objects.filter(fingerprint=fp).exists():
        SheetSeal.objects.create(
            sheet=sheet,
            fingerprint=fp,
            code=verification_code(fp),
            content=content,
            **seal_fields(content),
        )
    return fp


# ---------------------------------------------------------------------------------------------
# Rounds
# ---------------------------------------------------------------------------------------------


def round_close_check(*, round_: Round, reason: str) -> None:
    """Closing a round is refused while a sheet is unsigned, unless the referee gives a reason.
    ``round_`` is locked; its sheets are locked here (by id) before they are read."""
    lock_round_sheets(round_)
    unsigned = list(
        Table.objects.filter(round=round_)
        .exclude(sheet__status=ScoreSheet.Status.SIGNED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unsigned and not reason.strip():
        raise ServiceError(
            ngettext(
                "Table %(tables)s has not signed its sheet. Give a reason to close the round "
                "anyway.",
                "Tables %(tables)s have not signed their sheet. Give a reason to close the round "
                "anyway.",
                len(unsigned),
            )
            % {"tables": ", ".join(str(n) for n in unsigned)},
            field="reason",
        )


def round_call_time(*, round_: Round, actor: Actor) -> Round:
    """A timed round: the referee calls time and every table stops where it is. Each sheet is
    then complete with the deals it has (the players sign it as usual); no new deal can be
    entered, corrections still can. The round is locked first, then its sheets by id."""
    if actor.is_table:
        raise ServiceError(_("Only a referee can call time."))
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        _refuse_if_closed(round_)
        tournament = round_.tournament
        if not tournament.timed_rounds:
            raise ServiceError(_("This tournament does not play timed rounds."))
        if round_.time_called_at is not None:
            raise ServiceError(_("Time was already called on this round."))
        round_.time_called_at = timezone.now()
        round_.save(update_fields=["time_called_at"])
        for sheet in lock_round_sheets(round_):
            if sheet.status not in (ScoreSheet.Status.NOT_STARTED, ScoreSheet.Status.IN_PROGRESS):
                continue  # finished before time was called: nothing changes
            sheet.table.round = round_
            status_before = sheet.status
            seats = sheet_seats(sheet)
            deals = list(sheet.deals.all())
            if not sheet.paper_mode:
                _log(sheet, actor, SheetEvent.Action.TIME_CALLED, played=counted(deals, tournament))
            _refresh_status(sheet, seats, deals, status_before=status_before)
        tournament_touch(tournament_id=tournament.pk)
    return round_

"""What every service of a score sheet shares: who acts, the lock, the log, the status.

:class:`Actor` says who makes a change; :func:`lock_sheet` is the gate of every change to a
sheet (its round locked first, then the sheet); :func:`log_event` keeps the change in the
sheet's log; :func:`change_voids_signatures` and :func:`amend` handle a change to a signed
sheet; :func:`refresh_status` recomputes the status and the seats' results. The score rows the
standings read are written here too (:func:`write_score_rows`, :func:`write_paper_score_rows`),
for the deal services and the archive import.

The public functions here are steps of the services of :mod:`scoring.services`, called inside
their transaction, so they take positional arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import get_rule_set
from scoring.models import Deal, Score, ScoreSheet, SheetEvent
from scoring.scores import counted, deal_quota, score_rows
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Round, Seat
from tournaments.services import check_length, lock_round, share_round


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


def lock_sheet(
    sheet_id: int, *, open_round: bool = True, seen_round: Round | None = None
) -> ScoreSheet:
    """The sheet with its table, round and tournament, locked until the end of the transaction,
    in an open round: the gate of every change to a sheet (deal, correction, penalty, paper
    totals, signature).

    Its round is locked first, then the sheet: shared with the other sheets' services
    (:func:`tournaments.services.share_round`: a table never waits for another table's deal),
    alone by the change that starts the round (:func:`tournaments.services.lock_round`, which
    closing a round takes first too). Once the round is closed nothing changes its sheets until
    a referee reopens it; a change waiting while the round closes is refused once it is closed.
    ``open_round=False`` leaves that check to the caller (:func:`refuse_if_closed`), for a
    resent deal that only reads what was recorded. ``seen_round``: the round as the page read
    it (with the sheet), which spares reading it before locking it once it has started.
    """
    if seen_round is not None and seen_round.status != Round.Status.SEATED:
        found = (seen_round.pk, seen_round.status)  # a started round never goes back to seated
    else:
        found = Round.objects.filter(tables__sheet=sheet_id).values_list("pk", "status").first()
    try:
        if found is None:
            raise Round.DoesNotExist
        # Its first change starts the round (the row changes), so it takes the lock alone; a
        # started round never goes back to seated.
        if found[1] == Round.Status.SEATED:
            round_ = lock_round(found[0])
        else:
            round_ = share_round(round_id=found[0])
        if open_round:
            refuse_if_closed(round_)
        sheet = (
            ScoreSheet.objects.select_for_update(of=("self",))
            .select_related("table__round__tournament")
            .get(pk=sheet_id, table__round=round_)
        )
    except (Round.DoesNotExist, ScoreSheet.DoesNotExist):
        raise ServiceError(
            _("This table is no longer in the round (it was seated again): reload the page.")
        ) from None
    sheet.table.round.status = round_.status  # as locked (the same row, read once more)
    return sheet


def refuse_if_closed(round_: Round) -> None:
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(
            _("Round %(number)d is closed: a referee must reopen it before any change.")
            % {"number": round_.number}
        )


def _start_round(round_: Round) -> None:
    """Anything recorded on a sheet starts its round: the round moves from seated to playing,
    and its seating is fixed (:mod:`tournaments.services.rounds` swaps and seats again only a
    round still seated)."""
    if round_.status == Round.Status.SEATED:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.PLAYING)
        round_.status = Round.Status.PLAYING


def log_event(
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


def change_voids_signatures(sheet: ScoreSheet, actor: Actor, reason: str) -> bool:
    """Whether the change voids signatures standing on the sheet (then see ``amend``), after
    refusing what the actor may not change: a table's phone touches no signed sheet, and a
    signed sheet changes only with a reason."""
    check_length(reason, limits.REASON, "reason")
    standing = signatures_stand(sheet)
    if (standing or sheet.status == ScoreSheet.Status.AMENDED) and actor.is_table:
        raise ServiceError(
            _("This sheet is signed and locked: ask the referee for any correction.")
        )
    if sheet.status == ScoreSheet.Status.SIGNED and not reason.strip():
        raise ServiceError(
            _("The sheet is signed: give the reason for this correction."), field="reason"
        )
    return standing


def signatures_stand(sheet: ScoreSheet) -> bool:
    """Whether players' signatures stand on the sheet: always on a signed one, maybe on a
    complete one being signed or an amended one being signed again, never on one in progress
    (any change voids them), which therefore needs no query."""
    return sheet.status == ScoreSheet.Status.SIGNED or (
        sheet.status in (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.AMENDED)
        and sheet.signatures.filter(superseded_at__isnull=True).exists()
    )


def amend(sheet: ScoreSheet) -> None:
    """A change voids the signatures standing on the sheet (they vouched for what it said);
    a signed sheet shows 'amended' until the players sign again."""
    now = timezone.now()
    sheet.signatures.filter(superseded_at__isnull=True).update(superseded_at=now)
    if sheet.status == ScoreSheet.Status.SIGNED:
        sheet.status = ScoreSheet.Status.AMENDED


def refresh_status(
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

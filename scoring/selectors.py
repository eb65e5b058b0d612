"""Reads of score sheets and rounds for pages and documents, with a fixed number of queries.

The ORM is read here and turned into plain data: the pages' rows, the
:class:`scoring.documents.data.SheetData` that the PDF, the workbook and the fingerprint read, and
the :class:`scoring.documents.data.SeatingPlan` of the seating plan and table cards (whose QR
code is the table's score-sheet link). Nothing is written here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q
from django.urls import reverse
from django.utils import translation

from scoring.documents import data as doc
from scoring.documents.fingerprint import canonical_dict, fingerprint, verification_code
from scoring.documents.labels import SEAT_LETTERS
from scoring.documents.language import english
from scoring.engine import get_rule_set
from scoring.engine.table import active_positions
from scoring.history import amended, history_lines
from scoring.links import public_url
from scoring.models import Deal, Penalty, ScoreSheet, SheetEvent, Signature, account_name
from scoring.scores import counted, deal_quota
from scoring.standings import sheet_unsigned
from tournaments.models import Round, Seat, StaffMember, Table

SHEET_WITH_TOURNAMENT = ("table__round__tournament",)  # what every sheet page reads with it


@dataclass
class SheetState:
    """A score sheet as its page and its documents read it: the table, its seats and deals,
    the totals and signatures (the sheet page's data, passed to its templates as ``state``)."""

    sheet: ScoreSheet
    table: Table
    seats: list[Seat]
    deals: list[Deal]
    quota: int
    names: list[str] = field(default_factory=list)
    # Read on first use when not given: saving a deal needs neither.
    loaded_penalties: list[Penalty] | None = None
    loaded_signatures: list[Signature] | None = None

    @property
    def penalties(self) -> list[Penalty]:
        if self.loaded_penalties is None:
            self.loaded_penalties = list(
                Penalty.objects.filter(sheet=self.sheet).select_related("referee", "registration")
            )
        return self.loaded_penalties

    @property
    def signatures(self) -> list[Signature]:
        if self.loaded_signatures is None:
            self.loaded_signatures = list(
                Signature.objects.filter(sheet=self.sheet).order_by("signed_at", "pk")
            )
        return self.loaded_signatures

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def tournament(self):
        return self.table.round.tournament

    @property
    def counted(self) -> int:
        return counted(self.deals, self.tournament)

    @property
    def totals(self) -> list[int]:
        if self.sheet.paper_mode:
            return list(self.sheet.paper_totals) or [0] * self.size
        totals = [0] * self.size
        for deal in self.deals:
            for i, score in enumerate(deal.scores):
                totals[i] += score
        return totals

    @property
    def time_up(self) -> bool:
        """A timed round: time was called before this table played all its deals."""
        return (
            not self.sheet.paper_mode
            and self.table.round.time_called_at is not None
            and self.counted < self.quota
        )

    @property
    def unsigned_at_close(self) -> bool:
        """Its round was closed without this sheet's signatures (:func:`sheet_unsigned`)."""
        return sheet_unsigned(self.sheet.status, self.table.round.status == Round.Status.CLOSED)

    @property
    def played(self) -> list[int]:
        """Deals each table position played (not passed, not sitting out at a table of 5)."""
        counts = [0] * self.size
        for deal in self.deals:
            if deal.kind not in (Deal.Kind.PASSED, Deal.Kind.MISDEAL):
                for position in active_positions(self.size, deal.dealer):
                    counts[position] += 1
        return counts

    @property
    def rows(self) -> list[dict]:
        """One row per deal, with names and the running totals."""
        running = [0] * self.size
        rows = []
        for deal in self.deals:
            running = [r + s for r, s in zip(running, deal.scores, strict=True)]
            rows.append(
                {
                    "deal": deal,
                    "dealer": self.names[deal.dealer],
                    "sitting_out": self.names[deal.dealer] if self.size == 5 else "",
                    "taker": self.names[deal.taker] if deal.taker is not None else "",
                    "handfuls": [(self.names[h["seat"]], h["size"]) for h in deal.handfuls],
                    "scores": deal.scores,
                    "running": running,
                }
            )
        return rows

    @property
    def penalty_totals(self) -> list[int]:
        by_reg = {s.registration_id: i for i, s in enumerate(self.seats)}
        totals = [0] * self.size
        for penalty in self.penalties:
            if penalty.registration_id in by_reg:
                totals[by_reg[penalty.registration_id]] += penalty.amount
        return totals

    @property
    def player_choices(self) -> list[tuple[int, str]]:
        """(registration id, name) of the players at the table, in seat order."""
        return [(s.registration_id, n) for s, n in zip(self.seats, self.names, strict=True)]

    @property
    def position_choices(self) -> list[tuple[int, str]]:
        return [(s.position, n) for s, n in zip(self.seats, self.names, strict=True)]

    def seat_of(self, registration_id: int) -> Seat:
        return next(s for s in self.seats if s.registration_id == registration_id)

    @property
    def current_signatures(self) -> list[Signature]:
        return [s for s in self.signatures if s.superseded_at is None]

    @property
    def signed_ids(self) -> set[int]:
        return {s.registration_id for s in self.current_signatures}


def sheet_state(sheet: int | ScoreSheet) -> SheetState:
    """Everything a sheet page shows: 5 queries whatever the number of deals (3 when the
    penalties and signatures are not used, as when a deal is saved; one less when given the
    sheet read with ``SHEET_WITH_TOURNAMENT``)."""
    if not isinstance(sheet, ScoreSheet):
        sheet = ScoreSheet.objects.select_related(*SHEET_WITH_TOURNAMENT).get(pk=sheet)
    seats = list(
        Seat.objects.filter(table_id=sheet.table_id)
        .select_related("registration__team")
        .order_by("position")
    )
    deals = list(Deal.objects.filter(sheet=sheet).order_by("number"))
    table = sheet.table
    state = SheetState(
        sheet=sheet,
        table=table,
        seats=seats,
        deals=deals,
        quota=deal_quota(table.round.tournament, len(seats)),
    )
    state.names = [s.registration.full_name for s in seats]
    return state


def sheet_data(
    state: SheetState,
    *,
    verification_url: str = "",
    blank: bool = False,
    amendments: tuple[doc.SheetAmendment, ...] = (),
    key_fingerprint: str = "",
    roles: Mapping[int, str] | None = None,
) -> doc.SheetData:
    """The plain data of a sheet's documents and fingerprint. ``roles`` (account id -> role on
    the tournament, :func:`staff_roles`): who gave each penalty, as printed sheets name them."""
    tournament = state.tournament
    names = state.names
    reg_names = {s.registration_id: n for s, n in zip(state.seats, names, strict=True)}
    players = tuple(
        doc.SheetPlayer(
            seat=SEAT_LETTERS[s.position],
            name=names[i],
            club=s.registration.club_name,
            licence=s.registration.licence,
            last_name=s.registration.last_name,  # a deal's cell may print « Léa M. »
            first_name=s.registration.first_name,
        )
        for i, s in enumerate(state.seats)
    )
    deals = tuple(
        doc.SheetDeal(
            number=d.number,
            kind=d.kind,
            dealer=names[d.dealer],
            sitting_out=names[d.dealer] if state.size == 5 else "",
            taker=names[d.taker] if d.taker is not None else "",
            partner="",
            contract=d.contract,
            oudlers=d.oudlers,
            points=d.points,
            handfuls=tuple(
                doc.SheetHandful(player=names[h["seat"]], size=h["size"]) for h in d.handfuls
            ),
            petit_au_bout=d.petit_au_bout,
            slam_announced=d.slam_announced,
            slam=d.slam,
            scores=tuple(d.scores),
            note=d.note,
        )
        for d in ([] if blank else state.deals)
    )
    sheet = state.sheet
    return doc.SheetData(
        tournament=tournament.name,
        tournament_date=tournament.date,
        place=tournament.place,
        round_number=state.table.round.number,
        table_number=state.table.number,
        rule_set=get_rule_set(tournament.rule_set).document_label,
        players=players,
        deals=deals,
        deals_expected=state.quota,
        penalties=()
        if blank
        else tuple(
            doc.SheetPenalty(
                player=reg_names.get(p.registration_id) or p.registration.full_name,
                amount=p.amount,
                reason=p.reason,
                referee=account_name(p.referee),
                given_by=(roles.get(p.referee_id) or "staff")
                if roles is not None and p.referee_id
                else "",
            )
            for p in state.penalties
        ),
        signatures=()
        if blank
        else tuple(
            doc.SheetSignature(
                player=reg_names[s.registration_id], method=s.method, signed_at=s.signed_at
            )
            for s in state.current_signatures
        ),
        status=sheet.status,
        amendments=() if blank else amendments,
        fingerprint="" if blank else sheet.fingerprint,
        verification_code="" if blank else verification_code(sheet.fingerprint),
        verification_url="" if blank else verification_url,
        key_fingerprint="" if blank else key_fingerprint,
        blank=blank,
        paper_totals=() if blank or not sheet.paper_mode else tuple(sheet.paper_totals),
        time_up=not blank and state.time_up,
        unsigned_at_close=not blank and state.unsigned_at_close,
        close_reason="" if blank or not state.unsigned_at_close else state.table.round.close_reason,
    )


def current_canonical(sheet: ScoreSheet) -> tuple[str, dict]:
    """The fingerprint and canonical content of the sheet as stored now."""
    data = sheet_data(sheet_state(sheet.pk))
    return fingerprint(data), canonical_dict(data)


@dataclass(frozen=True)
class TableState:
    table: Table
    names: list[str]
    status: str
    deals: int
    quota: int
    signatures: int
    size: int
    time_up: bool = False  # time was called before this table played all its deals


def round_dashboard(round_: Round) -> list[TableState]:
    """Each table's state for the referee: 2 queries whatever the number of tables."""
    tables = (
        Table.objects.filter(round=round_)
        .select_related("sheet")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("registration").order_by("position"),
            )
        )
        .annotate(
            deal_count=Count("sheet__deals", distinct=True),
            passed_count=Count(
                "sheet__deals", filter=Q(sheet__deals__kind=Deal.Kind.PASSED), distinct=True
            ),
            misdeal_count=Count(
                "sheet__deals", filter=Q(sheet__deals__kind=Deal.Kind.MISDEAL), distinct=True
            ),
            signature_count=Count(
                "sheet__signatures",
                filter=Q(sheet__signatures__superseded_at__isnull=True),
                distinct=True,
            ),
        )
        .order_by("number")
    )
    tournament = round_.tournament
    states = []
    for table in tables:
        seats = list(table.seats.all())
        played = (
            table.deal_count
            - table.misdeal_count
            - (0 if tournament.passed_deals_count else table.passed_count)
        )
        states.append(
            TableState(
                table=table,
                names=[s.registration.full_name for s in seats],
                status=table.sheet.status,
                deals=played,
                quota=deal_quota(tournament, len(seats)),
                signatures=table.signature_count,
                size=len(seats),
                time_up=(
                    round_.time_called_at is not None
                    and not table.sheet.paper_mode
                    and played < deal_quota(tournament, len(seats))
                ),
            )
        )
    return states


def sheet_states_bulk(tables) -> list[SheetState]:
    """SheetStates for many tables with 5 queries in all (bundles of a round or a tournament)."""
    tables = list(
        tables.select_related("sheet", "round__tournament").order_by("round__number", "number")
    )
    table_ids = [t.pk for t in tables]
    sheet_ids = [t.sheet.pk for t in tables]
    seats: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("registration")
        .order_by("position")
    ):
        seats.setdefault(seat.table_id, []).append(seat)
    deals: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(sheet_id__in=sheet_ids).order_by("number"):
        deals.setdefault(deal.sheet_id, []).append(deal)
    penalties: dict[int, list[Penalty]] = {}
    for penalty in Penalty.objects.filter(sheet_id__in=sheet_ids).select_related(
        "referee", "registration"
    ):
        penalties.setdefault(penalty.sheet_id, []).append(penalty)
    signatures: dict[int, list[Signature]] = {}
    for signature in Signature.objects.filter(sheet_id__in=sheet_ids).order_by("signed_at", "pk"):
        signatures.setdefault(signature.sheet_id, []).append(signature)
    states = []
    for table in tables:
        at_table = seats.get(table.pk, [])
        state = SheetState(
            sheet=table.sheet,
            table=table,
            seats=at_table,
            deals=deals.get(table.sheet.pk, []),
            quota=deal_quota(table.round.tournament, len(at_table)),
            loaded_penalties=penalties.get(table.sheet.pk, []),
            loaded_signatures=signatures.get(table.sheet.pk, []),
        )
        state.names = [s.registration.full_name for s in at_table]
        states.append(state)
    return states


def seat_names(table: Table) -> list[str]:
    """The players' names at a table, by position (what the event log's positions refer to)."""
    return [
        seat.registration.full_name
        for seat in table.seats.select_related("registration").order_by("position")
    ]


def staff_roles(tournament_ids: Iterable[int]) -> dict[int, dict[int, str]]:
    """The staff of each tournament: tournament id -> account id -> role. One query."""
    roles: dict[int, dict[int, str]] = {}
    for tournament_id, user_id, role in StaffMember.objects.filter(
        tournament_id__in=set(tournament_ids)
    ).values_list("tournament_id", "user_id", "role"):
        roles.setdefault(tournament_id, {})[user_id] = role
    return roles


def _sheets_with_amendments(sheet_ids: list[int]) -> list[int]:
    """The sheets whose log holds an amendment (:func:`scoring.history.amended`), read without
    the events' data."""
    logs: dict[int, list[tuple[str, str]]] = {}
    rows = (
        SheetEvent.objects.filter(sheet_id__in=sheet_ids)
        .order_by("at", "pk")
        .values_list("sheet_id", "action", "reason")
    )
    for sheet_id, action, reason in rows:
        logs.setdefault(sheet_id, []).append((action, reason))
    return [sheet_id for sheet_id, log in logs.items() if amended(log)]


def sheet_amendments(states: list[SheetState]) -> dict[int, tuple[doc.SheetAmendment, ...]]:
    """What the amendment box of each sheet's documents tells, by sheet: the changes made
    after a signature and the referee's changes given with a reason (penalties among them),
    each as the history tells it, in the document's language (:mod:`scoring.documents.language`)
    and naming staff by their role (« par l’organisateur »), never by their login, as the
    pages anyone may read do. One light query; two more (the events, the staff) only when a
    sheet has such a change: most sheets have none, and telling every event of a whole
    tournament's 2,000 sheets made its workbook 45 % slower (``bench/figures.md``)."""
    names = {state.sheet.pk: state.names for state in states}
    tournament_of = {state.sheet.pk: state.tournament.pk for state in states}
    amended = _sheets_with_amendments(list(names))
    events: dict[int, list[SheetEvent]] = {}
    if amended:
        for event in SheetEvent.objects.filter(sheet_id__in=amended).order_by("at", "pk"):
            events.setdefault(event.sheet_id, []).append(event)
    roles = staff_roles(set(tournament_of.values())) if events else {}
    result: dict[int, tuple[doc.SheetAmendment, ...]] = {}
    with translation.override("en" if english() else "fr"):
        for sheet_id, sheet_events in events.items():
            lines = [
                doc.SheetAmendment(
                    at=line.at,
                    by=line.who,
                    reason=line.reason,
                    summary=line.sentence,
                    after_signature=line.after_signature,
                )
                for line in history_lines(
                    sheet_events, names[sheet_id], roles=roles.get(tournament_of[sheet_id], {})
                )
                if line.amends
            ]
            if lines:
                result[sheet_id] = tuple(lines)
    return result


# ---------------------------------------------------------------------------------------------
# Rounds: their tables, and the plain data of the seating plan and table cards
# ---------------------------------------------------------------------------------------------


def round_tables(round_: Round) -> list[Table]:
    """Tables of a round with their seats, players and sheet: 2 queries."""
    return list(
        Table.objects.filter(round=round_)
        .select_related("sheet")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("registration__team").order_by("position"),
            )
        )
        .order_by("number")
    )


def seating_plan(round_: Round, *, request=None, with_links: bool = False) -> doc.SeatingPlan:
    """The plain data of the seating plan and table cards (table links only on table cards).
    No PIN: a PIN reaches only its player (:func:`tournaments.selectors.pin_slips`)."""
    tournament = round_.tournament
    tables = []
    for table in round_tables(round_):
        url = ""
        if request is not None and hasattr(table, "sheet"):
            url = public_url(reverse("table_sheet", args=[table.sheet.token]), request)
        tables.append(
            doc.SeatingTable(
                number=table.number,
                players=tuple(
                    doc.SheetPlayer(
                        seat=SEAT_LETTERS[seat.position],
                        name=seat.registration.full_name,
                        club=seat.registration.club_name,
                        licence=seat.registration.licence,
                        last_name=seat.registration.last_name,
                        first_name=seat.registration.first_name,
                    )
                    for seat in table.seats.all()
                ),
                sheet_url=url if with_links else "",
            )
        )
    return doc.SeatingPlan(
        tournament=tournament.name,
        tournament_date=tournament.date,
        round_number=round_.number,
        tables=tuple(tables),
    )

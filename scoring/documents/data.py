"""Plain data of the printed documents (no Django): what a score sheet shows, line by line.

A selector fills these from the database; the PDF and Excel writers and the fingerprint read only
these, so the PDF, the workbook and the verification page always show the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal


@dataclass(frozen=True)
class SheetPlayer:
    seat: str  # "N", "E", "S", "O"/"W", "5" — the seat label as printed
    name: str
    club: str = ""
    licence: str = ""
    # No PIN here: these players are printed on documents a table shares (score sheets, the
    # seating plan, table cards). A PIN reaches only its player, on a slip (PinSlip).
    last_name: str = ""  # for lists in alphabetical order ("" when unknown: ``name`` is used)
    first_name: str = ""

    @property
    def listed_name(self) -> str:
        """The name as an alphabetical list prints it: last name first."""
        if not self.last_name:
            return self.name
        return f"{self.last_name} {self.first_name}".strip()


@dataclass(frozen=True)
class SheetHandful:
    player: str  # name of who showed it
    size: str  # "simple" | "double" | "triple"


@dataclass(frozen=True)
class SheetDeal:
    number: int
    # "played" | "passed" | "misdeal" (dealt again, not counted) | "referee" (decided by the
    # referee) | "ruling" (scores ruled by the
    # referee, no contract)
    kind: str
    dealer: str = ""  # name
    sitting_out: str = ""  # name of the dead seat at a table of 5, "" otherwise
    taker: str = ""
    partner: str = ""  # at 5 players; "" when alone or not applicable
    contract: str = ""  # "petite" | "garde" | "garde_sans" | "garde_contre"
    oudlers: int | None = None
    points: Decimal | None = None  # the attack's card points
    handfuls: tuple[SheetHandful, ...] = ()
    petit_au_bout: str = ""  # "" | "attack" | "defence"
    slam_announced: bool = False
    slam: str = ""  # "" | "attack" | "defence"
    scores: tuple[int, ...] = ()  # one per player, in the order of SheetData.players
    note: str = ""  # the referee's reason for a decided deal


@dataclass(frozen=True)
class SheetPenalty:
    player: str
    amount: int  # negative: points taken away
    reason: str
    referee: str  # the account that gave it, as signed sheets hold it (fingerprinted)
    # Who gave it as printed: their role on the tournament ("referee", "organiser", "staff"),
    # never their login; not part of the fingerprint.
    given_by: str = ""


@dataclass(frozen=True)
class SheetSignature:
    player: str
    method: str  # "pin" | "paper" | "referee"
    signed_at: datetime


@dataclass(frozen=True)
class SheetAmendment:
    """A change the sheet's amendment box tells: ``summary`` is the whole sentence as the
    history tells it (who, when, what, and the reason)."""

    at: datetime
    by: str
    reason: str
    summary: str
    after_signature: bool = False  # made while signatures stood: it voided them


@dataclass(frozen=True)
class SheetData:
    tournament: str
    tournament_date: date
    place: str
    round_number: int
    table_number: int
    rule_set: str  # the rule set's label, e.g. "FFT (règlement officiel)"
    players: tuple[SheetPlayer, ...]
    deals: tuple[SheetDeal, ...] = ()
    deals_expected: int = 4  # deal lines a blank sheet shows
    penalties: tuple[SheetPenalty, ...] = ()
    signatures: tuple[SheetSignature, ...] = ()
    amendments: tuple[SheetAmendment, ...] = ()
    status: str = "open"  # "open" | "complete" | "signed" | "amended"
    referee: str = ""
    fingerprint: str = ""  # hex sha-256 of the canonical content; "" until signed
    verification_code: str = ""  # short code derived from the fingerprint
    verification_url: str = ""  # absolute URL of the public verification page
    key_fingerprint: str = ""  # short fingerprint of the key that sealed it (seal.key_code)
    blank: bool = False  # a pre-filled sheet with empty deal lines for a paper table
    paper_totals: tuple[int, ...] = ()  # paper mode: only round totals typed by the referee
    # A timed round: time was called before this table played its deals ("temps écoulé").
    time_up: bool = False
    # Its round was closed without the players' signatures: it counts with the deals it has,
    # marked « non signée », with the referee's reason for closing.
    unsigned_at_close: bool = False
    close_reason: str = ""

    def running_totals(self) -> list[tuple[int, ...]]:
        """Cumulative scores after each deal, in player order."""
        totals = [0] * len(self.players)
        rows = []
        for deal in self.deals:
            totals = [t + s for t, s in zip(totals, deal.scores or (0,) * len(totals), strict=True)]
            rows.append(tuple(totals))
        return rows

    def round_totals(self) -> tuple[int, ...]:
        """Each player's round total (bilan), deals only: penalties are outside the zero sum."""
        if self.paper_totals:
            return self.paper_totals
        rows = self.running_totals()
        return rows[-1] if rows else (0,) * len(self.players)

    def deals_played(self) -> tuple[int, ...]:
        """The deals each player played: not the passed ones, nor those they sat out as the
        dealer of a table of 5. Empty for a blank sheet or one kept on paper (totals only)."""
        if self.blank or self.paper_totals:
            return ()
        counts = [0] * len(self.players)
        for deal in self.deals:
            if deal.kind in ("passed", "misdeal"):
                continue
            for i, player in enumerate(self.players):
                if not (deal.sitting_out and deal.sitting_out == player.name):
                    counts[i] += 1
        return tuple(counts)

    def deals_played_at_table(self) -> int:
        """The deals the table played, as its players count them (a passed deal is not
        played): what the header of a sheet stopped by time says."""
        return sum(1 for deal in self.deals if deal.kind not in ("passed", "misdeal"))

    def penalty_totals(self) -> tuple[int, ...]:
        names = [p.name for p in self.players]
        totals = [0] * len(names)
        for penalty in self.penalties:
            if penalty.player in names:
                totals[names.index(penalty.player)] += penalty.amount
        return tuple(totals)


@dataclass(frozen=True)
class SeatingTable:
    number: int
    players: tuple[SheetPlayer, ...]  # in seat order
    sheet_url: str = ""  # the table's private entry link (QR on the table card)


@dataclass(frozen=True)
class SeatingPlan:
    tournament: str
    tournament_date: date
    round_number: int
    tables: tuple[SeatingTable, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class StandingsSection:
    """A further table of a standings export (the team standings of a team event): a title,
    its column headers and its rows (int, str, or None for an empty cell)."""

    title: str
    headers: list[str]
    rows: list[list]


@dataclass(frozen=True)
class PinSlip:
    """One player's signing PIN, on a slip of its own (handed over at check-in)."""

    name: str
    pin: str
    club: str = ""
    team: str = ""


@dataclass(frozen=True)
class PinSlips:
    tournament: str
    tournament_date: date
    slips: tuple[PinSlip, ...] = field(default_factory=tuple)

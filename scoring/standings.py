"""Standings from the database: a fixed number of queries, then the pure ranking code.

Only sheets that are entered count (complete, signed or amended), and every sheet of a round the
referee closed, with the deals it has (:func:`sheet_counts`); the result says which tables are
still pending so that pages can say "provisional" (none of a round the referee closed: closing
it with a sheet unsigned or short of deals needed the referee's reason).
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict, defaultdict
from dataclasses import dataclass, field
from operator import itemgetter

from django.db import connections
from django.db.models import Max, Q, Sum

from scoring.models import Penalty, ScoreSheet
from scoring.page_versions import shared_changed_at
from tournaments import ranking
from tournaments.models import Player, Registration, Round, Seat, Table, Tournament

COUNTED = (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.SIGNED, ScoreSheet.Status.AMENDED)


def sheet_counts(status: str, round_closed: bool) -> bool:
    """Whether a sheet's deals count in the standings (and the round's public results): once
    fully entered (complete, signed or amended), or, once its round is closed, with the deals
    it has (the referee closed it unsigned or short of deals, with a reason)."""
    return round_closed or status in COUNTED


def sheet_unsigned(status: str, round_closed: bool) -> bool:
    """A sheet its round was closed without: it counts with the deals it has, marked « not
    signed » on the player's page and on the sheet's documents."""
    return round_closed and status not in (ScoreSheet.Status.SIGNED, ScoreSheet.Status.AMENDED)


@dataclass(frozen=True)
class Pending:
    round_number: int
    missing: list[int]  # tables whose sheet is not fully entered
    unsigned: list[int]  # tables entered but not signed


@dataclass(frozen=True)
class StandingsData:
    tournament: Tournament
    entries: list[ranking.Entry]
    team_names: dict[int, str]
    rounds: list[int]  # round numbers seated
    pending: list[Pending]
    # registration id -> player id (a season follows the person across tournaments)
    player_ids: dict = field(default_factory=dict, compare=False, repr=False)
    computed: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def provisional(self) -> bool:
        return any(p.missing or p.unsigned for p in self.pending)

    @property
    def last_complete_round(self) -> int:
        done = [p.round_number for p in self.pending if not p.missing]
        return max(done, default=0)

    def standings(self, through: int | None = None) -> list[ranking.Standing]:
        return self._memo(
            ("standings", through),
            lambda: ranking.rank(
                self.entries, tie_breaks=self.tournament.tie_break_list, through=through
            ),
        )

    def team_standings(self, through: int | None = None) -> list[ranking.TeamStanding]:
        return self._memo(
            ("teams", through),
            lambda: ranking.rank_teams(self.entries, self.team_names, through=through),
        )

    def progression(self) -> dict:
        return self._memo(("progression",), lambda: ranking.progression(self.entries, self.rounds))

    def standing_of(self, registration_id: int) -> ranking.Standing | None:
        """One player's standing (their own page). The first page asked for after a change
        ranks only that player (several times faster on a large field: ``bench/figures.md``);
        the next pages of the same version rank the field once and read it."""
        return self._one_or_all(
            "standing_of",
            registration_id,
            lambda: ranking.standing_of(
                self.entries, registration_id, tie_breaks=self.tournament.tie_break_list
            ),
            lambda: next((s for s in self.standings() if s.entry.id == registration_id), None),
            whole=("standings", None),
        )

    def progression_of(self, registration_id: int) -> list[tuple[int, int, int]]:
        """One player's progression (the "me" chart), the same way."""
        return self._one_or_all(
            "progression_of",
            registration_id,
            lambda: ranking.progression_of(self.entries, self.rounds, registration_id),
            lambda: self.progression().get(registration_id, []),
            whole=("progression",),
        )

    def _one_or_all(self, name: str, registration_id: int, one, from_all, *, whole: tuple):
        """``one`` for the first player asked for, ``from_all`` (the field's ranking, computed
        once) for any other or when that ranking is already computed."""
        if whole in self.computed:
            return from_all()
        if self.computed.setdefault((name, "first"), registration_id) != registration_id:
            return from_all()
        return self._memo((name, registration_id), one)

    def remember(self, key: tuple, compute):
        """``compute()`` once per data, under ``key``: what pages derive from these standings
        (the standings page's rows: 0.2 s for 3,000 players, ``bench/figures.md``)."""
        return self._memo(("page", *key), compute)

    def _memo(self, key: tuple, compute):
        """Each ranking once per data (the data never changes; pages ask for it repeatedly)."""
        if key not in self.computed:
            self.computed[key] = compute()
        return self.computed[key]

    def entry(self, registration_id: int) -> ranking.Entry | None:
        by_id = self._memo(("entries",), lambda: {e.id: e for e in self.entries})
        return by_id.get(registration_id)


_recent: OrderedDict[int, tuple[object, StandingsData]] = OrderedDict()
_recent_lock = threading.Lock()
KEEP = 8  # tournaments whose current standings a process keeps (about 3 MB per 1,000 players)


def current_standings(tournament: Tournament) -> StandingsData:
    """The standings as of the tournament's last change, computed once per process and version.

    Public pages ask for them on every cold page (standings, home, each player's own page, the
    TV screen); their shared version (``scoring/page_versions.py``) moves with every change to
    counted results, so a stale copy is never served. Without queries when the version is
    known; ``standings_data`` otherwise. Only the latest version of a tournament is kept, for the
    last ``KEEP`` tournaments asked for.
    """
    data = _kept(tournament) or _recent_enough(tournament)
    if data is None:
        data = standings_data(tournament)
        _keep({tournament: data})
    return data


def _recent_enough(tournament: Tournament) -> StandingsData | None:
    """The kept standings when the page asks for no more recent ones than they are: a
    per-reader page (a player's, the standings at a reader's place) shows the rank change its
    reader has adopted (``scoring/page_versions.py``) and its own tables' changes, not the live
    ones, and says so in ``standings_as_of`` and ``standings_reader`` (the player whose own
    sheets must be in: ``scoring/public_answers.py``). In a 3,000-player
    field a sheet starts to count every second or two late in a round: without this, every
    process ranked the whole field again for each (90-120 ms) to render pages that show an
    older publication anyway."""
    moment = getattr(tournament, "standings_as_of", None)
    if moment is None:
        return None
    with _recent_lock:
        version, data = _recent.get(tournament.pk, (None, None))
    if data is None or version < moment:
        return None
    reader = getattr(tournament, "standings_reader", None)
    if reader is not None:  # a player's page: their own sheets that count, at once
        counted = (
            ScoreSheet.objects.filter(
                table__round__tournament_id=tournament.pk, table__seats__registration_id=reader
            )
            .filter(Q(status__in=COUNTED) | Q(table__round__status=Round.Status.CLOSED))
            .aggregate(latest=Max("updated_at"))["latest"]
        )  # the sheets that count (``sheet_counts``), as a query
        if counted is not None and version < counted:
            return None
    return data


def current_standings_of(tournaments: list[Tournament]) -> dict[int, StandingsData]:
    """``current_standings`` of several tournaments (a championship's): those kept at their
    version without a query, all the others together in ``standings_data_of``'s four."""
    found: dict[int, StandingsData] = {}
    missing = []
    for tournament in tournaments:
        data = _kept(tournament)
        if data is None:
            missing.append(tournament)
        else:
            found[tournament.pk] = data
    if missing:
        computed = standings_data_of(missing)
        _keep({tournament: computed[tournament.pk] for tournament in missing})
        found |= computed
    return found


def _kept(tournament: Tournament) -> StandingsData | None:
    """The standings kept for the tournament's shared version (a deal on a sheet not counted
    yet leaves it as it was), or None."""
    changed = shared_changed_at(tournament)
    with _recent_lock:
        version, data = _recent.get(tournament.pk, (None, None))
        if data is None or version != changed:
            return None
        _recent.move_to_end(tournament.pk)
        return data


def _keep(computed: dict[Tournament, StandingsData]) -> None:
    with _recent_lock:
        for tournament, data in computed.items():
            _recent[tournament.pk] = (shared_changed_at(tournament), data)
            _recent.move_to_end(tournament.pk)
        while len(_recent) > KEEP:
            _recent.popitem(last=False)


def forget_standings() -> None:
    """Drop the kept standings (tests, after rolling a database back)."""
    with _recent_lock:
        _recent.clear()


def _rows(queryset) -> list[tuple]:
    """The rows of a ``values_list`` query straight from the cursor, skipping the ORM's per-row
    iteration (a fifth of the time for 8,000 seats). Only for plain integer and text columns,
    which need no conversion on either database."""
    sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def standings_data(tournament: Tournament) -> StandingsData:
    """Four queries whatever the number of players, rounds and deals.

    Points come from the seats' stored results (one row per player and round, kept by the
    scoring services), not from the score rows of every deal.
    """
    return standings_data_of([tournament])[tournament.pk]


def standings_data_of(tournaments: list[Tournament]) -> dict[int, StandingsData]:
    """The standings data of several tournaments (a club's season) in the same four queries as
    one tournament's, whatever the number of tournaments, players, rounds and deals."""
    by_pk = {t.pk: t for t in tournaments}
    names: dict[int, tuple] = {}
    team_names: dict[int, dict[int, str]] = defaultdict(dict)
    tournament_of: dict[int, int] = {}  # registration id -> tournament id
    player_of: dict[int, dict[int, int]] = defaultdict(dict)  # tournament -> registration -> player
    carried: dict[int, int] = {}  # registration id -> points carried from a previous stage
    for pk, tournament_id, player_id, first, last, club, team_id, team_name, status, carry in _rows(
        Registration.objects.filter(tournament__in=list(by_pk))
        .order_by()
        .values_list(
            "pk",
            "tournament_id",
            "player_id",
            "first_name",
            "last_name",
            "club_name",
            "team_id",
            "team__name",
            "status",
            "carried_points__points",  # a championship's stage: a join, not a query
        )
    ):
        if carry:
            carried[pk] = carry
        names[pk] = (Player.name_of(first, last), club or "", team_id, status)
        tournament_of[pk] = tournament_id
        player_of[tournament_id][pk] = player_id
        if team_id is not None:
            team_names[tournament_id][team_id] = team_name
    # One row per table (its round, number and sheet status), then one per seat: fewer values
    # to carry than the seats joined to their tables (faster: ``bench/figures.md``).
    table_rounds: dict[int, tuple[int, bool]] = {}  # table id -> (round, sheet counted)
    by_round: dict[int, dict[int, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    # A round the referee closed is settled: nothing changes its sheets until it is reopened,
    # and closing it with a sheet unsigned or short of deals needed the referee's reason.
    closed_rounds: set[tuple[int, int]] = set()
    for table_id, tournament_id, round_number, round_status, table_number, status in _rows(
        Table.objects.filter(round__tournament__in=list(by_pk))
        .order_by()
        .values_list(
            "pk",
            "round__tournament_id",
            "round__number",
            "round__status",
            "number",
            "sheet__status",
        )
    ):
        closed = round_status == Round.Status.CLOSED
        table_rounds[table_id] = (round_number, sheet_counts(status, closed))
        by_round[tournament_id][round_number].append((table_number, status))
        if closed:
            closed_rounds.add((tournament_id, round_number))
    points: dict[int, dict[int, int]] = defaultdict(dict)
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    tables: dict[int, dict[int, int]] = defaultdict(dict)
    seat_rows = _rows(
        Seat.objects.filter(round__tournament__in=list(by_pk))
        .order_by()
        .values_list(
            "registration_id", "table_id", "points", "deals_played", "deals_taken", "deals_made"
        )
    )
    tables_of_five = {t for t, n in Counter(map(itemgetter(1), seat_rows)).items() if n == 5}
    for registration_id, table_id, total, played, taken, made in seat_rows:
        round_number, counted = table_rounds[table_id]
        tables[registration_id][round_number] = table_id
        if counted:
            points[registration_id][round_number] = total
            c = counts[registration_id]
            c[0] += played
            c[1] += taken
            c[2] += made
    penalties: dict[int, dict[int, int]] = defaultdict(dict)
    for registration_id, round_number, total in _rows(
        Penalty.objects.filter(sheet__table__round__tournament__in=list(by_pk))
        .order_by()
        .values("registration_id", "sheet__table__round__number")
        .annotate(total=Sum("amount"))
        .values_list("registration_id", "sheet__table__round__number", "total")
    ):
        penalties[registration_id][round_number] = total
    withdrawn = Registration.Status.WITHDRAWN
    entries: dict[int, list[ranking.Entry]] = defaultdict(list)
    for pk, (name, club, team_id, status) in names.items():
        seated = tables.get(pk, {})
        rounds = points.get(pk, {})
        fines = penalties.get(pk, {})
        if not (seated or rounds or fines or pk in carried):
            continue  # never seated and no points: absent all day, out of the ranking
        played, taken, made = counts.get(pk, (0, 0, 0))
        entries[tournament_of[pk]].append(
            ranking.Entry(
                id=pk,
                name=name,
                club=club,
                team=team_id,
                withdrawn=status == withdrawn,
                rounds=rounds,
                penalties=fines,
                deals_played=played,
                taken=taken,
                made=made,
                fives=sum(1 for t in seated.values() if t in tables_of_five)
                if tables_of_five
                else 0,
                tables=seated,
                carried=carried.get(pk, 0),
            )
        )
    result = {}
    for pk, tournament in by_pk.items():
        rounds_of = by_round.get(pk, {})
        result[pk] = StandingsData(
            tournament=tournament,
            entries=entries.get(pk, []),
            team_names=team_names.get(pk, {}),
            rounds=sorted(rounds_of),
            pending=[
                Pending(round_number=number, missing=[], unsigned=[])
                if (pk, number) in closed_rounds
                else Pending(
                    round_number=number,
                    missing=sorted(t for t, s in sheets if s not in COUNTED),
                    unsigned=sorted(
                        t for t, s in sheets if s in COUNTED and s != ScoreSheet.Status.SIGNED
                    ),
                )
                for number, sheets in sorted(rounds_of.items())
            ],
            player_ids=player_of.get(pk, {}),
        )
    return result


def current_round(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()

"""Table seating for French Tarot tournaments (pure Python, standard library only).

Rules
=====
Each round, the players present are split into tables of 4. When the number of players ``n``
is not a multiple of 4, the organiser's choice ``odd`` says what to do with those left over:
``"five"``: tables of 5 (as few as possible; tables of 3 only when no split into 4s and 5s
exists, n = 3, 6, 7, 11), or ``"three"``: tables of 3 (as few as possible; the FFT homologates
these, not tables of 5; n = 5 makes one table of 5).  See :func:`table_sizes`; tables are
listed largest first (tables of 5 first, tables of 3 last).

* Team-mates (teams of 2 or 4) never sit at the same table: a hard rule.  Whether this is
  possible is decided exactly by :func:`check_feasible` (Gale–Ryser theorem on the 0/1 matrix
  "team x table").
* Two players who already met (shared a table in an earlier round) should not meet again
  while it can be avoided.
* Odd tables (5 or 3 players) go first to the players with the fewest earlier rounds at an odd
  table: nobody sits at a table of 5 twice while someone else has not sat at one yet.
* When the last two rules cannot both hold, ``priority`` decides: ``"repeats"`` (the default)
  seats for the fewest repeated meetings and only then for fair odd tables; ``"fair"`` keeps
  the odd tables fair and avoids what repeats it can.

Algorithm
=========
Seating is an optimisation over ``R`` rounds planned *jointly* (``plan_rounds``;
``seat_round`` plans ``rounds_left`` rounds ahead and returns the first), because greedy
round-by-round choices paint you into a corner (16 players over 5 rounds must form the affine
plane of order 4, where every pair meets exactly once).

Cost of a plan (integers, minimised), from three terms::

    repeats  = number of planned meetings of a pair that had already met
    spread   = sum over pairs {p, q} of  g(m_pq) - g(h_pq)        g(m) = m (m - 1) / 2
    fairness = sum over planned rounds k, players p of  o_p(k) ** 2

where ``h_pq`` is how often p and q met in the history (team-mates count as having met
``TEAM_CLASH`` times, so seating them together costs ``TEAM_CLASH`` repeats), ``m_pq`` adds
the planned meetings, and ``o_p(k)`` is p's number of odd-table rounds after planned round k.
``repeats`` is what players see ("2 repeated meetings"): the fewer, the more different
opponents.  ``g`` is convex, so among plans with as few repeats, two pairs meeting a second
time are preferred to one pair meeting a third time.  Summing the squared odd-table counts
over every prefix of the plan is minimal exactly when, round after round, the odd seats go to
the players with the fewest odd rounds so far.

* Fewest repeats first (the default): ``repeats * REPEAT_SCALE + spread * SPREAD_SCALE +
  fairness``, an order of priorities (each scale is far above the terms below it), not a
  weighting.  Any move may change who sits at an odd table; the annealing accepts a move
  that adds repeats, or spread, at the usual temperature, and one that only makes the odd
  tables less fair at ``FAIR_TEMPERATURE``.
* Fair odd tables first: ``spread + W_ODD * fairness``, and the moves never make the odd
  tables less fair (see below).

(Minimising ``spread`` alone is not enough: where repeats are forced, many plans share the
least spread and their repeats differ; 15 players over 4 rounds paid 33 to 35 repeats that
way, where 23 suffice.)

1. *Construction.*  Where a known zero-repeat design fits (24, 25 or 26 players after
   round 1, see :mod:`tournaments.seating_designs`), the plan starts from it, renamed so that
   its first round is the round played; the search below then only shares the odd tables
   more fairly, if it can without a repeat.  Otherwise each planned round is built by
   choosing the odd-table players by fewest odd rounds (random tie-break), then dealing
   teams, largest first, one member per table into the tables with the most free seats
   (Ryser's greedy, which always succeeds when the teams are feasible).  So the start is
   already clash-free and fair.
2. *Simulated annealing on swaps and moves.*  A swap exchanges two players of one round
   sitting at different tables, which keeps table sizes.  With fewest repeats first, a
   player may also *move* to a table one seat smaller: the two tables then trade sizes (the
   table of 5 becomes a table of 4 and the other way round), which no chain of swaps does
   without passing through much worse plans (9 players: the only seating with the fewest
   repeats was four swaps away, each adding repeats).  Cost changes are computed
   incrementally from a flat ``n x n`` meeting-count array in O(table size).  Moves are
   mostly conflict-directed: pick a random pair currently meeting too often (kept in an
   indexed set), one of its players in a round where they meet, and the best of a few random
   partners (and of one move); the rest start from a uniform random player.  With fair odd
   tables first, when a swap would hand an odd seat to a player who already has more odd
   rounds, the two players instead exchange their seats in every round from that one on (an
   "exchange"), which keeps every prefix of the odd-table counts as fair.
   Worse moves are accepted with probability exp(-delta / T) at a fixed low temperature.
   The search stops at a lower bound (zero repeats, no clash, perfectly fair odd tables, or a
   counting bound when repeats are unavoidable), on stagnation, or after an evaluation
   budget; the best plan seen is returned.  With fewest repeats first, a plan that ends one
   to six repeats above a bound of zero is searched on from its best plan, with three times
   the budget: a zero-repeat plan is often near, past a long plateau where a short search
   stops.  (Measured with ``bench/seating.py`` on 22 to 31 players over 6 rounds, two draws
   each: 29 repeats with four more searches of the same budget, 26 with one of three times
   it, 43 with none; fresh restarts instead of searching on gained nothing.)
3. *Round by round.*  Round 1 (no history) is a random draw from the seed: with no history
   any draw is as good a start as any other, up to renaming players.  Later,
   ``seat_round(..., rounds_left=k)`` plans k rounds and returns the first.  The next call
   (one round more in the history, k - 1 left) starts from the rest of that plan when the
   round actually played is its first round, so seating round by round is as good as
   planning all rounds at once.  This is defined recursively from the history (the plan
   after rounds 1..j continues the plan after rounds 1..j-1) and does not depend on the
   seed, so it is a pure function of the inputs, holds whatever seed each round is given,
   and a small memo makes the chain free within a process.

With fair odd tables first, about 17 to 31 players pay a few repeated meetings: giving the
tables of 5 only to players who have not had one yet forces them (five players drawn from four
tables of the previous round include two who met).  ``odd_weight=0`` ignores fairness.
:mod:`tournaments.seating_bounds` gives the lower bound that explains a round's repeats.

Everything is driven by ``random.Random`` generators seeded from the inputs (``seed`` draws
round 1, and shuffles seats and the numbering of equal tables), and the budgets count
evaluations, not seconds, so results are reproducible.  Within a table the player order is
the seat order (North, East, South, West, fifth), shuffled reproducibly.
"""

from __future__ import annotations

import math
import random
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from tournaments import seating_designs

#: Any hashable player id (int, str, ...); ``Any`` so callers keep their own id type.
PlayerId: TypeAlias = Any
Table: TypeAlias = tuple[PlayerId, ...]
Pair: TypeAlias = tuple[PlayerId, PlayerId]

__all__ = [
    "MAX_LOOKAHEAD",
    "ODD_FIVE",
    "ODD_THREE",
    "PRIORITY_FAIR",
    "PRIORITY_REPEATS",
    "RoundSeating",
    "SeatingError",
    "SwapIssue",
    "check_feasible",
    "odd_table_counts_from",
    "plan_rounds",
    "round_quality",
    "rounds_of",
    "seat_round",
    "swap_issues",
    "swap_warnings",
    "table_sizes",
]

#: Plain table size; any other size (5 or 3) is an "odd" table.
FULL_TABLE = 4
#: What to do with the players left over when ``n`` is not a multiple of 4: tables of 5 (the
#: dealer sits out in turn) or tables of 3 (the only odd tables the FFT homologates).
ODD_FIVE = "five"
ODD_THREE = "three"
ODD_CHOICES = (ODD_FIVE, ODD_THREE)
#: The trade-off between repeated meetings and fair odd tables: fewest repeated meetings
#: first (the default), or odd tables shared fairly first (nobody at a table of 5 twice
#: while someone has not had one, even if that forces repeated meetings).
PRIORITY_REPEATS = "repeats"
PRIORITY_FAIR = "fair"
PRIORITY_CHOICES = (PRIORITY_REPEATS, PRIORITY_FAIR)
#: With fewest repeats first, the cost is ``repeats * REPEAT_SCALE + spread * SPREAD_SCALE +
#: fairness``: an order of priorities (each term of a plan stays far below the scale of the
#: one above it), not a weighting.  ``repeats`` counts repeated meetings (a pair meeting a
#: third time is one more), ``spread`` is the convex term that prefers two pairs meeting
#: twice to one pair meeting three times.
REPEAT_SCALE = 1 << 48
SPREAD_SCALE = 1 << 24
#: With fewest repeats first, a move that keeps the repeats but makes the odd tables less fair
#: is accepted with probability exp(-delta / FAIR_TEMPERATURE) (delta in fairness units).
FAIR_TEMPERATURE = 1.0
#: ... and once the repeats reach their lower bound, the search for fairer odd tables stops
#: after this many evaluations (times ``effort``) without a better plan.
STALL_FAIR = 20_000
#: ``seat_round`` plans at most this many rounds ahead.
MAX_LOOKAHEAD = 10
#: Cost of one pair of team-mates at the same table (a repeated meeting costs 1).
TEAM_CLASH = 1000
#: Weight of the odd-table fairness term (one unfair odd seat costs 2 * W_ODD per round,
#: so fairness comes before avoiding a repeat, which costs 1).
W_ODD = 10
#: Annealing temperature (in units of one repeated meeting).
TEMPERATURE = 0.45
#: Share of conflict-directed moves; the rest are uniform random swaps.
P_DIRECTED = 0.9
#: Candidate partners evaluated per move (the best one is proposed).
CANDIDATES = 6
#: Evaluation budgets per unit of ``effort``: the search stops after ``MAX_EVALS`` move
#: evaluations, or after ``STALL_PER_SWAP * rounds * n**2`` (clamped to the two bounds below)
#: evaluations without a new best plan, scaling with the number of possible swaps.
MAX_EVALS = 500_000
STALL_PER_SWAP = 150
STALL_MIN = 20_000
STALL_MAX = 250_000
#: Fewest repeats first: a plan ending with 1 to ``ZERO_HUNT_MAX`` repeats where the lower
#: bound is zero is searched on from its best plan, with ``ZERO_HUNT_EFFORT`` times the budget.
ZERO_HUNT_MAX = 6
ZERO_HUNT_EFFORT = 3.0
#: Budget (fraction) of the cold pass that shares odd tables fairly once repeats are settled.
POLISH_EFFORT = 0.2
#: With tables of 5 (or 3) and fair odd tables, few zero-repeat plans exist, and those that
#: do are found fast; the plateaus are mostly optimal, so stop sooner.
STALL_MAX_ODD = 80_000


class SeatingError(ValueError):
    """A seating rule cannot be met.

    ``reason`` is a plain-English sentence for people; ``code`` is a stable machine key and
    ``params`` the values quoted in the reason, so that a caller can translate it.
    """

    def __init__(self, reason: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params = params


@dataclass(frozen=True)
class RoundSeating:
    """One seated round.

    ``tables`` lists the tables in table order (largest first), each in seat order.
    ``repeats`` are the pairs seated together who had already met before this round (in the
    history, or in an earlier round of the same plan).  ``teammate_pairs`` are team-mates at
    the same table (always empty when the teams are feasible).
    """

    tables: tuple[Table, ...]
    repeats: tuple[Pair, ...] = ()
    teammate_pairs: tuple[Pair, ...] = ()

    @property
    def teammates_together(self) -> int:
        """Number of team-mate pairs sharing a table (0 whenever the teams are feasible)."""
        return len(self.teammate_pairs)

    @property
    def repeat_count(self) -> int:
        """Number of pairs meeting again."""
        return len(self.repeats)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Table sizes in table order."""
        return tuple(len(t) for t in self.tables)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Every seated player, table after table, in seat order."""
        return tuple(p for t in self.tables for p in t)

    @property
    def odd_table_players(self) -> tuple[PlayerId, ...]:
        """Players seated at a table of 5 or 3."""
        return tuple(p for t in self.tables if len(t) != FULL_TABLE for p in t)

    def table_of(self, player: PlayerId) -> int:
        """Index (0-based) of the table where ``player`` sits; KeyError if not seated."""
        for i, table in enumerate(self.tables):
            if player in table:
                return i
        raise KeyError(player)


# --------------------------------------------------------------------------------------
# Table sizes and feasibility
# --------------------------------------------------------------------------------------


def table_sizes(n: int, odd: str = ODD_FIVE) -> list[int]:
    """Sizes of the tables for ``n`` players, largest first.

    ``odd`` says what to do with the players left over by tables of 4:

    * ``"five"``: as many tables of 4 as possible using only 4s and 5s (fewest 5s); when that
      is impossible (n = 3, 6, 7, 11) use 4s and the fewest 3s;
    * ``"three"``: 4s and the fewest 3s; when that is impossible (n = 5) one table of 5.

    Raises :class:`SeatingError` for n < 3 or an unknown ``odd``.
    """
    if odd not in ODD_CHOICES:
        raise SeatingError(f"Unknown choice for odd tables: {odd!r}.", "bad_odd", odd=odd)
    if n < 3:
        raise SeatingError(
            f"At least 3 players are needed to seat a table; there are {n}.",
            "too_few_players",
            n=n,
        )
    threes = (4 - n % 4) % 4
    fives = n % 4
    if odd == ODD_THREE and 3 * threes <= n:
        return [4] * ((n - 3 * threes) // 4) + [3] * threes
    if 5 * fives <= n:
        return [5] * fives + [4] * ((n - 5 * fives) // 4)
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


def _present_teams(ids: Sequence[PlayerId], teams: Mapping[Any, Any] | None) -> dict:
    """Team id -> present members (in ``ids`` order), for teams with at least one member."""
    out: dict[Any, list[PlayerId]] = {}
    if not teams:
        return out
    for p in ids:
        t = teams.get(p)
        if t is not None:
            out.setdefault(t, []).append(p)
    return out


def _unique_players(players: Iterable[PlayerId]) -> list[PlayerId]:
    ids = list(players)
    seen: set[PlayerId] = set()
    dups = []
    for p in ids:
        if p in seen:
            dups.append(p)
        seen.add(p)
    if dups:
        raise SeatingError(
            f"Player {dups[0]!r} is listed more than once.", "duplicate_player", player=dups[0]
        )
    return ids


def check_feasible(
    players: Iterable[PlayerId], teams: Mapping[Any, Any] | None = None, odd: str = ODD_FIVE
) -> None:
    """Raise :class:`SeatingError` if these players cannot be seated under the rules.

    Checks: at least 3 distinct players, and that team-mates can all be kept apart.  The
    latter is exact (Gale–Ryser): the ``l`` largest teams can put at most ``min(size, l)``
    players at each table, so their total size must not exceed the sum of those minima.
    """
    ids = _unique_players(players)
    sizes = table_sizes(len(ids), odd)
    n_tables = len(sizes)
    present = _present_teams(ids, teams)
    if not present:
        return
    ranked = sorted(present.items(), key=lambda kv: -len(kv[1]))
    team, members = ranked[0]
    if len(members) > n_tables:
        raise SeatingError(
            f"Team {team!r} has {len(members)} players present but there "
            f"{'is only 1 table' if n_tables == 1 else f'are only {n_tables} tables'}, "
            "so two team-mates would have to share a table.",
            "team_too_large",
            team=team,
            members=len(members),
            tables=n_tables,
        )
    team_sizes = [len(m) for _, m in ranked]
    team_sizes += [1] * (len(ids) - sum(team_sizes))
    total = 0
    for ell, size in enumerate(team_sizes[: max(sizes)], start=1):
        total += size
        room = sum(min(s, ell) for s in sizes)
        if total > room:
            raise SeatingError(
                f"The {ell} largest teams have {total} players present, but tables of sizes "
                f"{sizes} can take at most {room} of them without seating team-mates "
                "together.",
                "teams_unseatable",
                teams=ell,
                players=total,
                room=room,
                sizes=list(sizes),
            )


# --------------------------------------------------------------------------------------
# Problem set-up
# --------------------------------------------------------------------------------------


def rounds_of(history: Iterable[Any]) -> list[list[list[PlayerId]]]:
    """Normalise a history: rounds of tables of players (RoundSeating objects accepted)."""
    out = []
    for rnd in history:
        tables = rnd.tables if isinstance(rnd, RoundSeating) else rnd
        out.append([list(t) for t in tables])
    return out


def odd_table_counts_from(history: Iterable[Any]) -> dict[PlayerId, int]:
    """Number of rounds each player of ``history`` spent at a table of 5 or 3."""
    counts: dict[PlayerId, int] = defaultdict(int)
    for rnd in rounds_of(history):
        for table in rnd:
            if len(table) != FULL_TABLE:
                for p in table:
                    counts[p] += 1
    return dict(counts)


def _canonical(players: Iterable[PlayerId]) -> list[PlayerId]:
    """Players in a canonical order (sorted when comparable) so results ignore input order."""
    ids = _unique_players(players)
    try:
        return sorted(ids)  # type: ignore[type-var]
    except TypeError:
        return ids


class _Problem:
    """Index-based view of one seating problem (players 0..n-1)."""

    def __init__(
        self,
        players: Iterable[PlayerId],
        teams: Mapping[Any, Any] | None,
        history: Iterable[Any],
        odd_table_counts: Mapping[Any, int] | None,
        odd_weight: int | None = None,
        odd: str = ODD_FIVE,
        priority: str = PRIORITY_REPEATS,
    ) -> None:
        if priority not in PRIORITY_CHOICES:
            raise SeatingError(
                f"Unknown seating priority: {priority!r}.", "bad_priority", priority=priority
            )
        #: Fewest repeats first: repeats weigh REPEAT_SCALE, odd-table fairness 1 (or
        #: ``odd_weight``), and any swap may move an odd seat.  Fair odd tables first: repeats
        #: weigh 1, fairness W_ODD (or ``odd_weight``) and odd seats move only fairly.
        self.repeats_first = priority == PRIORITY_REPEATS
        self.priority = priority
        default_weight = 1 if self.repeats_first else W_ODD
        self.w_odd = max(0, int(default_weight if odd_weight is None else odd_weight))
        self.scale = REPEAT_SCALE if self.repeats_first else 1
        self.odd_choice = odd
        ids = _canonical(players)
        check_feasible(ids, teams, odd)
        self.ids = ids
        self.index = {p: i for i, p in enumerate(ids)}
        n = self.n = len(ids)
        self.sizes = table_sizes(n, odd)
        self.odd = [s != FULL_TABLE for s in self.sizes]
        rounds = rounds_of(history)
        self.history_rounds = len(rounds)
        #: The round played, when exactly one was (a known design may continue it).
        self.first_round = rounds[0] if len(rounds) == 1 else None
        if odd_table_counts is None:
            odd_table_counts = odd_table_counts_from(rounds)
        self.odd0 = [int(odd_table_counts.get(p, 0)) for p in ids]

        # Team groups: lists of indices (only teams with >= 2 present members matter).
        groups = [
            [self.index[p] for p in members]
            for members in _present_teams(ids, teams).values()
            if len(members) > 1
        ]
        self.groups = groups
        self.group_of = [-1] * n
        for g, members in enumerate(groups):
            for i in members:
                self.group_of[i] = g

        # Meeting counts from history among present players: a sparse dict keyed by
        # i * n + j (i < j) and a flat symmetric n x n array (a dict for huge n).
        met: dict[int, int] = {}
        get = met.get
        index = self.index
        for rnd in rounds:
            for table in rnd:
                idx = sorted(index[p] for p in table if p in index)
                for x, i in enumerate(idx):
                    inn = i * n
                    for j in idx[x + 1 :]:
                        met[inn + j] = get(inn + j, 0) + 1
        self.met = met
        base: list[int] | defaultdict[int, int]
        base = [0] * (n * n) if n <= 2048 else defaultdict(int)
        for k, c in met.items():
            i, j = divmod(k, n)
            base[k] = base[j * n + i] = c
        for members in groups:
            for i in members:
                for j in members:
                    if i != j:
                        base[i * n + j] += TEAM_CLASH
        self.base = base

    # ---------------------------------------------------------------- construction

    def _deal(self, players: list[int], tables: list[int], rng: random.Random) -> list | None:
        """Deal ``players`` into ``tables`` keeping team-mates apart (Ryser's greedy).

        Teams go largest first, one member per table, into the tables with the most free
        seats (random tie-break).  Returns table index -> members, or None if it fails.
        """
        by_group: dict[int, list[int]] = {}
        singles = []
        for i in players:
            g = self.group_of[i]
            if g < 0:
                singles.append(i)
            else:
                by_group.setdefault(g, []).append(i)
        if not by_group:  # no team constraint: a random split
            rng.shuffle(singles)
            out, start = [], 0
            for t in tables:
                out.append(singles[start : start + self.sizes[t]])
                start += self.sizes[t]
            return out
        units = [*by_group.values(), *([i] for i in singles)]
        rng.shuffle(units)
        units.sort(key=len, reverse=True)
        cap = {t: self.sizes[t] for t in tables}
        buckets: dict[int, list[int]] = defaultdict(list)
        for t in tables:
            buckets[cap[t]].append(t)
        top = max(cap.values(), default=0)
        seated: dict[int, list[int]] = {t: [] for t in tables}
        for unit in units:
            chosen: list[int] = []
            c = top
            while len(chosen) < len(unit) and c > 0:
                bucket = buckets[c]
                while bucket and len(chosen) < len(unit):
                    k = rng.randrange(len(bucket))
                    bucket[k], bucket[-1] = bucket[-1], bucket[k]
                    chosen.append(bucket.pop())
                c -= 1
            if len(chosen) < len(unit):
                return None
            for i, t in zip(unit, chosen, strict=True):
                seated[t].append(i)
                cap[t] -= 1
                buckets[cap[t]].append(t)
            while top > 0 and not buckets[top]:
                top -= 1
        return [seated[t] for t in tables]

    def initial_round(self, odd_counts: list[int], rng: random.Random) -> list[list[int]]:
        """A team-clash-free round giving odd seats to the players with fewest odd rounds."""
        n = self.n
        n_tables = len(self.sizes)
        odd_tables = [t for t in range(n_tables) if self.odd[t]]
        even_tables = [t for t in range(n_tables) if not self.odd[t]]
        everyone = list(range(n))
        if odd_tables and even_tables:
            k = sum(self.sizes[t] for t in odd_tables)
            order = everyone[:]
            rng.shuffle(order)
            order.sort(key=odd_counts.__getitem__)
            chosen: list[int] = []
            skipped: list[int] = []
            per_group: dict[int, int] = defaultdict(int)
            for i in order:
                g = self.group_of[i]
                if len(chosen) < k and (g < 0 or per_group[g] < len(odd_tables)):
                    chosen.append(i)
                    per_group[g] += 1
                else:
                    skipped.append(i)
            if len(chosen) < k:  # only with very large teams: keep the fair order anyway
                chosen += skipped[: k - len(chosen)]
            in_odd = set(chosen)
            odd_part = self._deal(chosen, odd_tables, rng)
            even_part = self._deal([i for i in everyone if i not in in_odd], even_tables, rng)
            if odd_part is not None and even_part is not None:
                tables: list[list[int]] = [[] for _ in range(n_tables)]
                for t, members in zip(odd_tables, odd_part, strict=True):
                    tables[t] = members
                for t, members in zip(even_tables, even_part, strict=True):
                    tables[t] = members
                return tables
        rng.shuffle(everyone)
        dealt = self._deal(everyone, list(range(n_tables)), rng)
        if dealt is None:  # pragma: no cover - excluded by check_feasible
            dealt, i = [], 0
            for s in self.sizes:
                dealt.append(everyone[i : i + s])
                i += s
        return dealt

    # ---------------------------------------------------------------- bounds

    def fair_bound(self, rounds: int) -> int:
        """Minimal odd-table term: odd seats always given to the lowest counts."""
        counts = sorted(self.odd0)
        k = sum(s for s, o in zip(self.sizes, self.odd, strict=True) if o)
        total = 0
        for _ in range(rounds):
            if k:
                counts = sorted([c + 1 for c in counts[:k]] + counts[k:])
            total += sum(c * c for c in counts)
        return self.w_odd * total

    def step_costs(self, rounds: int) -> list[int]:
        """``step[c]``: the cost of one more meeting for a pair met ``c`` times so far
        (history, team-mates counted as having met ``TEAM_CLASH`` times, and the plan), for
        every count a plan of ``rounds`` rounds can reach.

        Fewest repeats first: a repeated meeting costs ``REPEAT_SCALE`` (team-mates
        ``TEAM_CLASH`` times that) plus ``SPREAD_SCALE * c``, the convex tie-break.  Fair odd
        tables first: ``c``, the convex term alone (``W_ODD`` is weighed against it).
        """
        top = TEAM_CLASH + self.history_rounds + rounds + 1
        if not self.repeats_first:
            return list(range(top + 1))
        return [
            REPEAT_SCALE * (0 if c == 0 else 1 if c < TEAM_CLASH else TEAM_CLASH) + SPREAD_SCALE * c
            for c in range(top + 1)
        ]

    def repeat_bound(self, rounds: int) -> int:
        """Lower bound on the repeat terms of ``rounds`` planned rounds, in cost units."""
        linear, convex = self._repeat_bounds(rounds)
        if not self.repeats_first:
            return convex
        return REPEAT_SCALE * linear + SPREAD_SCALE * convex

    def _repeat_bounds(self, rounds: int) -> tuple[int, int]:
        """Lower bounds on the repeated meetings and on the convex term of ``rounds``
        planned rounds.

        Adding a meeting to a pair that met ``c`` times costs ``c`` (convex term), or 1 if
        ``c >= 1`` (repeated meetings), so the cheapest way to place meetings is
        water-filling: use the least-met pairs first.  Globally, the planned rounds hold a
        fixed number of meetings; per player, each needs at least ``rounds * (smallest
        table - 1)`` meetings (a pair's cost counts for both players).  Team-mate pairs are
        never cheaper, so they are left out.
        """
        n = self.n
        mates = [0] * n
        for members in self.groups:
            for i in members:
                mates[i] = len(members) - 1
        group_of = self.group_of
        # histogram of history counts: globally and per player (non-team-mate pairs only)
        levels: dict[int, int] = defaultdict(int)
        mine: list[dict[int, int]] = [defaultdict(int) for _ in range(n)]
        for k, c in self.met.items():
            i, j = divmod(k, n)
            if group_of[i] >= 0 and group_of[i] == group_of[j]:
                continue
            levels[c] += 1
            mine[i][c] += 1
            mine[j][c] += 1
        pairs = n * (n - 1) // 2 - sum(mates) // 2
        levels[0] += pairs - sum(levels.values())
        meetings = rounds * sum(s * (s - 1) // 2 for s in self.sizes)
        convex = _water_fill(levels, meetings)
        linear = max(0, meetings - levels[0])
        need = rounds * (min(self.sizes) - 1)
        convex_total = linear_total = 0
        for i in range(n):
            hist = mine[i]
            hist[0] += n - 1 - mates[i] - sum(hist.values())
            convex_total += _water_fill(hist, need)
            linear_total += max(0, need - hist[0])
        return max(linear, (linear_total + 1) // 2), max(convex, (convex_total + 1) // 2)

    # ---------------------------------------------------------------- search

    def _initial_plan(
        self, rounds: int, rng: random.Random, start: list[list[list[int]]] | None
    ) -> list[list[list[int]]]:
        odd_counts = self.odd0[:]
        plan = []
        for r in range(rounds):
            if start and r < len(start):
                tables = [members[:] for members in start[r]]
            else:
                tables = self.initial_round(odd_counts, rng)
            for t, members in enumerate(tables):
                if self.odd[t]:
                    for i in members:
                        odd_counts[i] += 1
            plan.append(tables)
        return plan

    def design_start(self, rounds: int, rng: random.Random) -> list[list[list[int]]] | None:
        """The first planned rounds from a known zero-repeat design
        (:mod:`tournaments.seating_designs`), renamed onto the players so that the design's
        first round is the round played (or, with no history, any renaming); ``None`` when
        no design fits: team events, fair odd tables first, or not exactly these players at
        tables of these sizes in the one round played.
        """
        if self.groups or self.history_rounds > 1 or (not self.repeats_first and any(self.odd)):
            return None
        played = self.history_rounds
        design = seating_designs.zero_repeat_rounds(self.sizes, rounds + played)
        if design is None or len(design) <= played:
            return None
        if played:
            tables = [[self.index[p] for p in t if p in self.index] for t in self.first_round]
            if sorted(map(len, tables), reverse=True) != self.sizes:  # every one present, seated
                return None
        else:  # no history: the design's first round, under any renaming
            order = list(range(self.n))
            rng.shuffle(order)
            tables = [[order[p] for p in block] for block in design[0]]
        # Any renaming that maps each table played onto a design table of its size keeps
        # the design free of repeats; a random one, so a new draw seats differently.
        name = [0] * self.n
        for size in sorted(set(self.sizes)):
            blocks = [b for b in design[0] if len(b) == size]
            mine = [t[:] for t in tables if len(t) == size]
            rng.shuffle(mine)
            for block, table in zip(blocks, mine, strict=True):
                rng.shuffle(table)
                for point, player in zip(block, table, strict=True):
                    name[point] = player
        return [[[name[p] for p in b] for b in rnd] for rnd in design[played:]]

    def plan(
        self,
        rounds: int,
        rng: random.Random,
        effort: float = 1.0,
        start: list[list[list[int]]] | None = None,
    ) -> list[list[list[int]]]:
        """Plan ``rounds`` rounds jointly; returns rounds of tables of player indices.

        ``start`` optionally gives the first rounds of the starting plan (warm start);
        without it, a known zero-repeat design starts the plan where one fits.
        """
        n_tables = len(self.sizes)
        if start is None:
            start = self.design_start(rounds, rng)
        plan = self._initial_plan(rounds, rng, start)
        if n_tables > 1 and rounds > 0:
            cost, target = _anneal(self, plan, rng, effort)
            # Fewest repeats first, a plan a few repeats away from a bound of zero: a
            # zero-repeat plan is likely near; search on from the best plan, longer.
            if (
                self.repeats_first
                and target < self.scale
                and 0 < cost // self.scale <= ZERO_HUNT_MAX
            ):
                _anneal(self, plan, rng, effort * ZERO_HUNT_EFFORT)
            if self.repeats_first and self.w_odd and any(self.odd) and not all(self.odd):
                _anneal(self, plan, rng, effort * POLISH_EFFORT, polish=True)
        return plan


def _water_fill(levels: Mapping[int, int], meetings: int) -> int:
    """Least cost of ``meetings`` meetings over pairs with the given history counts
    (``levels[c]`` pairs met ``c`` times), when a meeting on a pair met ``c`` times costs
    ``c``: every pair met at most ``L`` times offers one meeting at cost ``L``."""
    if meetings <= 0 or not any(levels.values()):
        return 0
    cost = 0
    open_pairs = 0
    level = 0
    while meetings > 0:
        open_pairs += levels.get(level, 0)
        take = min(meetings, open_pairs)
        cost += take * level
        meetings -= take
        level += 1
    return cost


#: In the annealing, the chosen move is a move to a smaller table (not a swap or exchange).
_MOVE = -2

#: Figures of the last search (evaluations, when the best was found, its cost, the bound).
_LAST_RUN: dict[str, int] = {}


class _IndexedSet:
    """A set of ints with O(1) add, discard and uniform random pick."""

    __slots__ = ("index", "items")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.index: dict[int, int] = {}

    def add(self, x: int) -> None:
        if x not in self.index:
            self.index[x] = len(self.items)
            self.items.append(x)

    def discard(self, x: int) -> None:
        i = self.index.pop(x, None)
        if i is None:
            return
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.index[last] = i


def _anneal(
    prob: _Problem,
    plan: list[list[list[int]]],
    rng: random.Random,
    effort: float,
    polish: bool = False,
) -> tuple[int, int]:
    """Improve ``plan`` in place by simulated annealing over same-round swaps (and, fewest
    repeats first, moves to a table one seat smaller).

    With fewest repeats first (``prob.repeats_first``) a repeat costs ``prob.scale`` and the
    temperature is scaled alike; ``polish`` then runs a second, cold pass that only shares
    the odd tables more fairly without adding a repeat.  Returns the cost of the plan and
    the lower bound the search aimed at.
    """
    n = prob.n
    n_rounds = len(plan)
    base = prob.base
    w_odd = prob.w_odd
    step = prob.step_costs(n_rounds)
    free_odd = prob.repeats_first  # any swap may move an odd seat (its fairness is costed)
    odd_t = prob.odd if w_odd else [False] * len(prob.odd)  # weight 0: ignore odd tables
    cnt = base[:] if isinstance(base, list) else defaultdict(int, base)
    pos = []  # pos[r][i] = table of player i in round r
    for tables in plan:
        p = [0] * n
        for t, members in enumerate(tables):
            for i in members:
                p[i] = t
        pos.append(p)
    # Meeting counts, the repeat term (adding a meeting to a pair met c times costs c) and
    # the set of pairs meeting too often.
    bad = _IndexedSet()
    cost = 0
    for tables in plan:
        for members in tables:
            for x, i in enumerate(members):
                inn = i * n
                for j in members[x + 1 :]:
                    k, k2 = (inn + j, j * n + i) if i < j else (j * n + i, inn + j)
                    c = cnt[k]
                    cost += step[c]
                    cnt[k] = cnt[k2] = c + 1
                    if c >= 1 and c + 1 > base[k]:
                        bad.add(k)
    # Odd-table prefix counts: opre[k][i] = odd rounds of i after planned round k.
    opre = []
    running = prob.odd0[:]
    for tables in plan:
        for t, members in enumerate(tables):
            if odd_t[t]:
                for i in members:
                    running[i] += 1
        opre.append(running[:])

    fair_cost = w_odd * sum(c * c for row in opre for c in row)
    cost += fair_cost
    target = prob.fair_bound(n_rounds)
    if cost > target:
        target += prob.repeat_bound(n_rounds)
    # Fewest repeats first: once the repeats reach their lower bound, only a shorter search
    # for fairer odd tables goes on.
    repeat_target = target - prob.fair_bound(n_rounds)

    add_bad, discard_bad = bad.add, bad.discard

    def fair_delta(r: int, lo: int, hi: int) -> int:
        """Change of the fairness term when ``hi`` hands its odd seat of round r to ``lo``."""
        f = 0
        for k in range(r, n_rounds):
            row = opre[k]
            f += 2 * (row[lo] - row[hi] + 1)
        return f * w_odd

    def part(x: int, q: int) -> None:
        """One meeting fewer for the pair {x, q}; it may stop meeting too often."""
        k = x * n + q if x < q else q * n + x
        c = cnt[k] - 1
        cnt[x * n + q] = cnt[q * n + x] = c
        if c == 1 or c == base[k]:
            discard_bad(k)

    def meet(y: int, q: int) -> None:
        """One meeting more for the pair {y, q}; it may start meeting too often."""
        k = y * n + q if y < q else q * n + y
        c = cnt[k] + 1
        cnt[y * n + q] = cnt[q * n + y] = c
        if (c == 2 or c == base[k] + 1) and c >= 2 and c > base[k]:
            add_bad(k)

    def swap(r: int, a: int, b: int) -> None:
        """Apply the swap of players a and b (at different tables) in round r."""
        p = pos[r]
        big_a, big_b = p[a], p[b]
        ta, tb = plan[r][big_a], plan[r][big_b]
        for table, x, y in ((ta, a, b), (tb, b, a)):  # x leaves `table`, y takes the seat
            for q in table:
                if q != x:
                    part(x, q)
                    meet(y, q)
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        p[a], p[b] = big_b, big_a
        if odd_t[big_a] != odd_t[big_b]:
            lo, hi = (b, a) if odd_t[big_a] else (a, b)
            for k in range(r, n_rounds):
                opre[k][lo] += 1
                opre[k][hi] -= 1

    def move_delta(r: int, a: int, u: int) -> tuple[int, int]:
        """Cost change (and its fairness part) of moving a to table u of round r, one seat
        smaller than a's table: a's new table takes the index (size) of a's old one, and the
        players a leaves take table u's, so every table keeps its size."""
        tables = plan[r]
        ta, tu = tables[pos[r][a]], tables[u]
        an = a * n
        d = 0
        for q in ta:
            if q != a:
                d -= step[cnt[an + q] - 1]
        for q in tu:
            d += step[cnt[an + q]]
        f = 0
        if odd_t[pos[r][a]] != odd_t[u]:  # the players of one table gain an odd seat
            gain, lose = (tu, ta) if odd_t[pos[r][a]] else (ta, tu)
            for k in range(r, n_rounds):
                row = opre[k]
                for q in gain:
                    if q != a:
                        f += 2 * row[q] + 1
                for q in lose:
                    if q != a:
                        f += 1 - 2 * row[q]
            f *= w_odd
        return d + f, f

    def move(r: int, a: int, u: int) -> None:
        """Apply the move of :func:`move_delta`."""
        p = pos[r]
        tables = plan[r]
        big_a = p[a]
        ta, tu = tables[big_a], tables[u]
        for q in ta:
            if q != a:
                part(a, q)
        for q in tu:
            meet(a, q)
        left = [q for q in ta if q != a]
        tables[big_a] = [*tu, a]
        tables[u] = left
        for q in tu:
            p[q] = big_a
        for q in left:
            p[q] = u
        if odd_t[big_a] != odd_t[u]:
            gain, lose = (tu, left) if odd_t[big_a] else (left, tu)
            for k in range(r, n_rounds):
                row = opre[k]
                for q in gain:
                    row[q] += 1
                for q in lose:
                    row[q] -= 1

    def exchange_delta(r: int, a: int, b: int) -> int | None:
        """Cost change of exchanging the seats of a and b in every round from r on.

        Used when a plain swap would move an odd seat between players: exchanging whole
        futures keeps the odd-table counts of every prefix as fair as they were.  Returns
        None when even the exchange would make the odd tables less fair.  Used with fair odd
        tables first only, where a meeting costs its count (``step[c] == c``).
        """
        before = opre[r - 1] if r else prob.odd0
        oa0, ob0 = before[a], before[b]
        f = 0
        for r2 in range(r, n_rounds):
            oa, ob = opre[r2][a], opre[r2][b]
            na, nb = oa0 + ob - ob0, ob0 + oa - oa0
            f += na * na + nb * nb - oa * oa - ob * ob
        if f > 0:
            return None
        change: dict[int, int] = {}  # q -> change of meetings a-q (b-q changes by minus it)
        get = change.get
        for r2 in range(r, n_rounds):
            p2 = pos[r2]
            big_a, big_b = p2[a], p2[b]
            if big_a == big_b:
                continue
            for q in plan[r2][big_a]:
                change[q] = get(q, 0) - 1
            for q in plan[r2][big_b]:
                change[q] = get(q, 0) + 1
        an, bn = a * n, b * n
        d = 0
        for q, x in change.items():
            if x and q != a and q != b:
                d += x * (cnt[an + q] - cnt[bn + q] + x)
        return d + w_odd * f

    accept_cap = int(30 * TEMPERATURE) + 1  # exp(-30): never accepted
    accept_prob = [math.exp(-d / TEMPERATURE) for d in range(accept_cap)]
    fair_cap = int(30 * FAIR_TEMPERATURE) + 1
    fair_prob = [math.exp(-d / FAIR_TEMPERATURE) for d in range(fair_cap)]
    half = REPEAT_SCALE // 2
    sizes = prob.sizes
    # Fewest repeats first: a player may also move to a table one seat smaller (the two
    # tables trade sizes), which no chain of swaps does without passing through worse plans.
    move_to: list[list[int]] = [[] for _ in sizes]
    if free_odd and not polish:
        move_to = [[u for u, other in enumerate(sizes) if other == size - 1] for size in sizes]
    spread_half = SPREAD_SCALE // 2
    stall_fair = max(1, int(effort * STALL_FAIR))
    p_directed = 0.0 if polish else P_DIRECTED
    max_evals = max(1, int(effort * MAX_EVALS))
    fair_first = w_odd and not free_odd
    stall_cap = STALL_MAX_ODD if fair_first and any(odd_t) and not all(odd_t) else STALL_MAX
    stall_base = min(stall_cap, max(STALL_MIN, STALL_PER_SWAP * n_rounds * n * n))
    stall = max(1, int(effort * stall_base))
    rand = rng.random
    items = bad.items
    best_cost = cost
    best_fair_cost = fair_cost
    best_at = 0
    max_gap = 0
    best_plan: list[list[list[int]]] | None = None  # None: the current plan is the best
    evals = 0
    if polish:
        _share_odd_seats(prob, plan, pos, cnt, opre, swap, fair_delta, max_evals)
        return cost, target
    best_fair = 0
    while (
        cost > target
        and evals < max_evals
        and evals - best_at
        < (stall_fair if free_odd and best_cost - best_fair_cost <= repeat_target else stall)
    ):
        # ---- choose the player to move
        if items and rand() < p_directed:
            k = items[int(rand() * len(items))]
            a, other = divmod(k, n)
            if rand() < 0.5:
                a, other = other, a
            meets = [r for r in range(n_rounds) if pos[r][a] == pos[r][other]]
            r = meets[int(rand() * len(meets))] if len(meets) > 1 else meets[0]
        else:
            r = int(rand() * n_rounds)
            a = int(rand() * n)
        p = pos[r]
        tables = plan[r]
        big_a = p[a]
        ta = tables[big_a]
        an = a * n
        # ---- best of a few random partners at other tables
        best_d = None
        best_b = -1
        # -1: plain swap in round r; _MOVE: move a to table best_b of round r; else: exchange
        # in rounds best_from..end
        best_from = -1
        for _ in range(CANDIDATES):
            b = int(rand() * n)
            big_b = p[b]
            if big_b == big_a:
                continue
            evals += 1
            bn = b * n
            plain = odd_t[big_a] == odd_t[big_b]
            fair_d = 0
            if not plain and free_odd:
                # the odd seat moves from `hi` to `lo`: costed, never refused
                fair_d = fair_delta(r, *((b, a) if odd_t[big_a] else (a, b)))
                plain = True
            elif not plain:
                # a plain swap moves an odd seat from `hi` to `lo`; it keeps the fairness
                # term only if `lo` had one odd round less than `hi` at every later prefix
                lo, hi = (b, a) if odd_t[big_a] else (a, b)
                plain = True
                for k in range(r, n_rounds):
                    row = opre[k]
                    if row[hi] - row[lo] != 1:
                        plain = False
                        break
            if plain:
                d = fair_d
                for q in ta:
                    if q != a:
                        d += step[cnt[bn + q]] - step[cnt[an + q] - 1]
                for q in tables[big_b]:
                    if q != b:
                        d += step[cnt[an + q]] - step[cnt[bn + q] - 1]
                exchange_from = -1
            else:
                d_ex = exchange_delta(r, a, b)
                if d_ex is None:
                    continue
                d = d_ex
                exchange_from = r
            if best_d is None or d < best_d:
                best_d, best_b, best_from, best_fair = d, b, exchange_from, fair_d
        smaller = move_to[big_a]
        if smaller:  # one more candidate: move a to a table one seat smaller
            u = smaller[int(rand() * len(smaller))]
            evals += 1
            d, fair_d = move_delta(r, a, u)
            if best_d is None or d < best_d:
                best_d, best_b, best_from, best_fair = d, u, _MOVE, fair_d
        if best_d is None:
            continue
        d = best_d
        if d > 0:
            if free_odd:  # fewest repeats first: repeats, spread, fairness, each its own scale
                d_rep = (d + half) // REPEAT_SCALE
                if d_rep > 0:
                    if d_rep >= accept_cap or rand() >= accept_prob[d_rep]:
                        continue
                else:
                    d_spread = (d - d_rep * REPEAT_SCALE + spread_half) // SPREAD_SCALE
                    if d_spread > 0:
                        if d_spread >= accept_cap or rand() >= accept_prob[d_spread]:
                            continue
                    elif d >= fair_cap or rand() >= fair_prob[d]:
                        continue
            elif d >= accept_cap or rand() >= accept_prob[d]:
                continue
        if d > 0 and best_plan is None and cost == best_cost:
            best_plan = [[m[:] for m in ts] for ts in plan]  # leaving a best: keep it
        if best_from == _MOVE:
            move(r, a, best_b)
        elif best_from < 0:
            swap(r, a, best_b)
        else:
            for r2 in range(best_from, n_rounds):
                if pos[r2][a] != pos[r2][best_b]:
                    swap(r2, a, best_b)
        cost += d
        fair_cost += best_fair
        if cost < best_cost:
            best_cost = cost
            best_fair_cost = fair_cost
            max_gap = max(max_gap, evals - best_at)
            best_at = evals
            best_plan = None
    if best_plan is not None and best_cost < cost:
        plan[:] = best_plan
    _LAST_RUN.update(evals=evals, best_at=best_at, max_gap=max_gap, cost=best_cost, target=target)
    return best_cost, target


# --------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------


def _share_odd_seats(
    prob: _Problem,
    plan: list[list[list[int]]],
    pos: list[list[int]],
    cnt: Any,
    opre: list[list[int]],
    swap: Any,
    fair_delta: Any,
    budget: int,
) -> None:
    """Cold pass of fewest repeats first: hand odd seats to players with fewer odd rounds.

    Steepest descent over swaps of a player at an odd table with one at a table of 4 in the
    same round, taking only swaps that add no repeated meeting and make the odd tables
    fairer, until none is left (or the evaluation budget is spent).
    """
    n = prob.n
    step = prob.step_costs(len(plan))
    odd_t = prob.odd
    n_rounds = len(plan)
    evals = 0
    improved = True
    while improved and evals < budget:
        improved = False
        for r in range(n_rounds):
            tables = plan[r]
            last = opre[-1]
            odd_players = [i for t, m in enumerate(tables) if odd_t[t] for i in m]
            odd_players.sort(key=lambda i: -last[i])
            for a in odd_players:
                if not odd_t[pos[r][a]]:
                    continue  # moved by an earlier swap of this pass
                ta = tables[pos[r][a]]
                an = a * n
                best = (0, -1)
                for tb, members in enumerate(tables):
                    if odd_t[tb]:
                        continue
                    for b in members:
                        if last[b] >= last[a]:
                            continue
                        evals += 1
                        f = fair_delta(r, b, a)
                        if f >= best[0]:
                            continue
                        bn = b * n
                        d = 0
                        for q in ta:
                            if q != a:
                                d += step[cnt[bn + q]] - step[cnt[an + q] - 1]
                        for q in members:
                            if q != b:
                                d += step[cnt[an + q]] - step[cnt[bn + q] - 1]
                        if d <= 0 and d + f < best[0]:
                            best = (d + f, b)
                if best[1] >= 0:
                    swap(r, a, best[1])
                    improved = True


def _rng(seed: int | str, *parts: object) -> random.Random:
    """Reproducible generator (string seeds are hashed with SHA-512 by ``random``)."""
    return random.Random("|".join(str(x) for x in (seed, *parts)))


def _pair(a: PlayerId, b: PlayerId, rank: Mapping[Any, int]) -> Pair:
    return (a, b) if rank.get(a, 0) <= rank.get(b, 0) else (b, a)


def _describe(
    tables: Sequence[Table],
    met: Mapping[frozenset, int],
    team_of: Mapping[Any, Any],
    rank: Mapping[Any, int],
) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """Repeated pairs and team-mate pairs at the same tables."""
    repeats = []
    clashes = []
    for table in tables:
        for x in range(len(table)):
            for y in range(x + 1, len(table)):
                a, b = table[x], table[y]
                if met.get(frozenset((a, b)), 0):
                    repeats.append(_pair(a, b, rank))
                ta, tb = team_of.get(a), team_of.get(b)
                if ta is not None and ta == tb:
                    clashes.append(_pair(a, b, rank))
    return tuple(repeats), tuple(clashes)


def _meetings(history: Iterable[Any]) -> dict[frozenset, int]:
    met: dict[frozenset, int] = defaultdict(int)
    for rnd in rounds_of(history):
        for table in rnd:
            for x in range(len(table)):
                for y in range(x + 1, len(table)):
                    met[frozenset((table[x], table[y]))] += 1
    return met


def _finish(
    prob: _Problem,
    plan: list[list[list[int]]],
    rng: random.Random,
    shuffle_seats: bool = True,
    shuffle_tables: bool = False,
) -> list[RoundSeating]:
    """Turn index plans into RoundSeating objects.

    Seats within each table are shuffled reproducibly, and with ``shuffle_tables`` so is the
    numbering of tables of the same size (sizes stay largest first).
    """
    ids = prob.ids
    n = prob.n
    group_of = prob.group_of
    met = dict(prob.met) if len(plan) > 1 else prob.met
    out = []
    for rnd in plan:
        if shuffle_tables:
            rnd = rnd[:]
            rng.shuffle(rnd)
            rnd.sort(key=len, reverse=True)  # stable: equal sizes keep the shuffled order
        tables = []
        repeats = []
        clashes = []
        for members in rnd:
            seats = members[:]
            if shuffle_seats:
                rng.shuffle(seats)
            tables.append(tuple(ids[i] for i in seats))
            ordered = sorted(seats)
            for x, i in enumerate(ordered):
                for j in ordered[x + 1 :]:
                    if met.get(i * n + j, 0):
                        repeats.append((ids[i], ids[j]))
                    if group_of[i] >= 0 and group_of[i] == group_of[j]:
                        clashes.append((ids[i], ids[j]))
        if len(plan) > 1:
            for members in rnd:
                ordered = sorted(members)
                for x, i in enumerate(ordered):
                    for j in ordered[x + 1 :]:
                        met[i * n + j] = met.get(i * n + j, 0) + 1
        out.append(RoundSeating(tuple(tables), tuple(repeats), tuple(clashes)))
    return out


def _seat_in_order(prob: _Problem, order: Sequence[PlayerId]) -> list[list[int]] | None:
    """Fill tables in ``order``: each player takes the first table with a free seat and no
    team-mate.  Returns None if that first-fit gets stuck."""
    tables: list[list[int]] = [[] for _ in prob.sizes]
    groups_at: list[set[int]] = [set() for _ in prob.sizes]
    for pid in order:
        i = prob.index[pid]
        g = prob.group_of[i]
        for t, size in enumerate(prob.sizes):
            if len(tables[t]) < size and (g < 0 or g not in groups_at[t]):
                tables[t].append(i)
                if g >= 0:
                    groups_at[t].add(g)
                break
        else:
            return None
    return tables


def seat_round(
    players: Iterable[PlayerId],
    *,
    teams: Mapping[Any, Any] | None = None,
    history: Iterable[Any] = (),
    odd_table_counts: Mapping[Any, int] | None = None,
    seed: int | str = 0,
    rounds_left: int = 1,
    order: Sequence[PlayerId] | None = None,
    effort: float = 1.0,
    odd_weight: int | None = None,
    variant: int = 0,
    odd: str = ODD_FIVE,
    priority: str = PRIORITY_REPEATS,
) -> RoundSeating:
    """Seat one round of the players present.

    ``history`` holds the earlier rounds (each an iterable of tables, or a RoundSeating);
    absent players may appear in it.  ``odd_table_counts`` overrides the odd-table counts
    derived from the history.

    With ``rounds_left > 1`` the next ``min(rounds_left, MAX_LOOKAHEAD)`` rounds are planned
    jointly (same players assumed) and the first is returned, so seating round by round
    avoids dead ends.  When the last round of the history is the one the previous call
    returned, the plan continues that call's plan (see :func:`_lookahead`), so calling with
    ``rounds_left`` = rounds remaining is as good as :func:`plan_rounds`.  The last round
    (``rounds_left`` = 1) continues the plan too: seated afresh, its few possible tables are
    hard to find again (22 players over 6 rounds paid 5 repeats there instead of 1).

    ``order``, if given, fills the tables sequentially in that order (seat order kept;
    a player whose team-mate is already at the table goes to the next table with room);
    repeats and odd-table fairness are then only reported, not optimised.

    ``seed`` draws round 1 (no history).  Once there is a history, who sits with whom is a
    deterministic function of the history (that is what lets round-by-round seating continue
    the previous plan even when each round gets a new seed); the seed then only shuffles the
    seats within tables and the numbering of tables of the same size.  To re-seat a round
    differently (a "new draw" for round 2 or later), pass a non-zero ``variant``: the round
    is then planned afresh from a generator seeded by it.

    ``odd`` chooses tables of 5 (``"five"``) or of 3 (``"three"``) for the players left
    over (see :func:`table_sizes`).  ``priority`` is the trade-off: ``"repeats"`` (the
    default) seats for the fewest repeated meetings, then shares the odd tables as fairly as
    that allows; ``"fair"`` shares the odd tables fairly first, even at the price of a few
    repeats.  ``effort`` scales the search budget; ``odd_weight`` overrides the weight of
    odd-table fairness (0 ignores it).  The result is deterministic
    for the same inputs (the order of ``players`` does not matter when the ids are
    comparable).

    Raises :class:`SeatingError` when the rules cannot be met (see :func:`check_feasible`).
    """
    history = rounds_of(history)
    prob = _Problem(players, teams, history, odd_table_counts, odd_weight, odd, priority)
    seats_rng = _rng(seed, "seats", len(history), prob.n)
    if order is not None:
        order = list(order)
        if len(order) != prob.n or set(order) != set(prob.ids):
            raise SeatingError(
                "The seating order must list every present player exactly once.",
                "bad_order",
            )
        seated = _seat_in_order(prob, order)
        if seated is not None:
            return _finish(prob, [seated], seats_rng, shuffle_seats=False)[0]
    rounds_left = max(1, int(rounds_left))
    if (rounds_left > 1 or history) and odd_table_counts is None and not variant:
        plan = _lookahead(prob, teams, history, seed, rounds_left, effort)
    else:
        horizon = min(rounds_left, MAX_LOOKAHEAD)
        extra = (variant,) if variant else ()
        if not history:
            rng = _rng(seed, "round", 0, prob.n, *extra)
        else:
            rng = _rng("single", prob.n, *extra)
        plan = prob.plan(horizon, rng, effort)
    return _finish(prob, plan[:1], seats_rng, shuffle_tables=True)[0]


#: Plans computed by :func:`_lookahead`, most recently used last (a pure-function memo).
_PLAN_CACHE: OrderedDict[tuple, list[list[list[int]]]] = OrderedDict()
_PLAN_CACHE_SIZE = 64
_PLAN_LOCK = threading.Lock()
#: Search effort (fraction) when a plan continues the plan of the previous round.
LINK_EFFORT = 0.2


def _lookahead(
    prob: _Problem,
    teams: Mapping[Any, Any] | None,
    history: list[list[list[PlayerId]]],
    seed: int | str,
    rounds_left: int,
    effort: float,
) -> list[list[list[int]]]:
    """Plan ``rounds_left`` rounds (at most MAX_LOOKAHEAD) after ``history``.

    When the app seats round by round, the previous call planned the rounds still to come;
    if the round actually played is the first round of that plan, its continuation is the
    natural start for this plan (it may already be optimal).  So the plan after history
    ``H[:j]`` (j >= 1) is defined recursively: it continues the plan after ``H[:j-1]``
    (computed with one more round left) when ``H[j-1]`` is that plan's first round, and
    starts afresh otherwise.  The chain starts after round 1 (a plain draw), and its plans
    do not depend on ``seed``, so it holds even when every round is seated with a new seed.
    This is a pure function of the inputs; a memo avoids recomputing the chain.
    """
    ids = prob.ids
    n = prob.n
    k = len(history)
    if k == 0:
        # Round 1: a random draw from the seed.  With no history every draw is as good a
        # start as any other (up to renaming players), so no plan is needed.
        return prob.plan(1, _rng(seed, "round", 0, n), effort)
    index = prob.index
    present = set(ids)
    # Earliest round (>= 1) from which every played round seated exactly these players.
    j0 = k
    while j0 > 1:
        seated = [p for table in history[j0 - 1] for p in table]
        if len(seated) != n or set(seated) != present:
            break
        j0 -= 1
    ids_key = tuple(ids)
    teams_key = tuple((teams or {}).get(p) for p in ids)
    hist_key = tuple(tuple(tuple(t) for t in rnd) for rnd in history)
    params = (ids_key, teams_key, effort, prob.w_odd, prob.odd_choice, prob.priority)
    prev: list[list[list[int]]] | None = None
    plan: list[list[list[int]]] = []
    for j in range(j0, k + 1):
        horizon = min(rounds_left + (k - j), MAX_LOOKAHEAD)
        key = (params, hist_key[:j], horizon)
        with _PLAN_LOCK:
            cached = _PLAN_CACHE.get(key)
            if cached is not None:  # plans are never mutated once made
                _PLAN_CACHE.move_to_end(key)
        if cached is not None:
            plan = cached
        else:
            prob_j = (
                prob
                if j == k
                else _Problem(
                    ids, teams, history[:j], None, prob.w_odd, prob.odd_choice, prob.priority
                )
            )
            start = None
            if prev is not None and len(prev) > 1:
                played = {frozenset(index[p] for p in table) for table in history[j - 1]}
                if played == {frozenset(m) for m in prev[0]}:
                    start = prev[1:]
            plan = prob_j.plan(
                horizon,
                _rng("lookahead", j, n),
                effort * LINK_EFFORT if start else effort,
                start,
            )
            with _PLAN_LOCK:
                _PLAN_CACHE[key] = plan
                while len(_PLAN_CACHE) > _PLAN_CACHE_SIZE:
                    _PLAN_CACHE.popitem(last=False)
        prev = plan
    return plan


def plan_rounds(
    players: Iterable[PlayerId],
    rounds: int,
    *,
    teams: Mapping[Any, Any] | None = None,
    history: Iterable[Any] = (),
    seed: int | str = 0,
    odd_table_counts: Mapping[Any, int] | None = None,
    effort: float = 1.0,
    odd_weight: int | None = None,
    odd: str = ODD_FIVE,
    priority: str = PRIORITY_REPEATS,
) -> list[RoundSeating]:
    """Seat ``rounds`` future rounds jointly (same players each round).

    Each RoundSeating's ``repeats`` counts meetings already seen in the history or in the
    earlier rounds of the plan.  ``effort``, ``odd_weight``, ``odd`` and ``priority`` are
    as for :func:`seat_round`.  Deterministic for the same inputs.
    """
    history = rounds_of(history)
    prob = _Problem(players, teams, history, odd_table_counts, odd_weight, odd, priority)
    if rounds <= 0:
        return []
    plan = prob.plan(int(rounds), _rng(seed, "plan", len(history), prob.n), effort)
    return _finish(prob, plan, _rng(seed, "plan-seats", len(history), prob.n))


# --------------------------------------------------------------------------------------
# Display helpers
# --------------------------------------------------------------------------------------


def round_quality(
    tables: Iterable[Iterable[PlayerId]],
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
    odd: str = ODD_FIVE,
) -> dict[str, Any]:
    """Summary of a seated round for display.

    Keys: ``sizes``, ``sizes_ok`` (sizes are those of :func:`table_sizes`), ``repeat_count``,
    ``repeats`` (list of ``(a, b, times_met_before)``), ``teammates_together`` (count),
    ``teammate_pairs``, ``odd_table_players`` and ``odd_table_unfair`` (players at a table of
    5/3 having more earlier odd-table rounds than someone seated at a table of 4).
    """
    tabs = [tuple(t) for t in tables]
    history = rounds_of(history)
    met = _meetings(history)
    team_of = dict(teams or {})
    everyone = [p for t in tabs for p in t]
    rank = {p: i for i, p in enumerate(everyone)}
    repeats, clashes = _describe(tabs, met, team_of, rank)
    sizes = [len(t) for t in tabs]
    try:
        sizes_ok = sorted(sizes) == sorted(table_sizes(len(everyone), odd))
    except SeatingError:
        sizes_ok = False
    odd_counts = odd_table_counts_from(history)
    odd_players = [p for t in tabs if len(t) != FULL_TABLE for p in t]
    even_counts = [odd_counts.get(p, 0) for t in tabs if len(t) == FULL_TABLE for p in t]
    floor = min(even_counts, default=None)
    unfair = [p for p in odd_players if floor is not None and odd_counts.get(p, 0) > floor]
    return {
        "sizes": sizes,
        "sizes_ok": sizes_ok,
        "repeat_count": len(repeats),
        "repeats": [(a, b, met[frozenset((a, b))]) for a, b in repeats],
        "teammates_together": len(clashes),
        "teammate_pairs": list(clashes),
        "odd_table_players": odd_players,
        "odd_table_unfair": unfair,
    }


@dataclass(frozen=True)
class SwapIssue:
    """One consequence of a swap, for translation: ``code`` is ``"repeat"``, ``"teammates"``
    or ``"odd_table"``; ``player`` is the one moving, ``other`` the player met (or None);
    ``count`` the earlier meetings or odd-table rounds; ``message`` plain English."""

    code: str
    player: PlayerId
    other: PlayerId | None
    count: int
    message: str


def swap_issues(
    tables: Iterable[Iterable[PlayerId]],
    a: PlayerId,
    b: PlayerId,
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
) -> list[SwapIssue]:
    """Structured form of :func:`swap_warnings`."""
    tabs = [list(t) for t in tables]
    where = {p: i for i, t in enumerate(tabs) for p in t}
    if a not in where and b not in where:
        raise SeatingError(
            f"Neither {a!r} nor {b!r} is seated in this round.", "not_seated", a=a, b=b
        )
    ta, tb = where.get(a), where.get(b)
    if ta is not None and ta == tb:
        return []
    if ta is not None:
        tabs[ta][tabs[ta].index(a)] = b
    if tb is not None:
        tabs[tb][tabs[tb].index(b)] = a
    history = rounds_of(history)
    met = _meetings(history)
    team_of = dict(teams or {})
    odd_counts = odd_table_counts_from(history)
    issues = []
    for mover, t in ((b, ta), (a, tb)):
        if t is None:
            continue
        for q in tabs[t]:
            if q == mover:
                continue
            times = met.get(frozenset((mover, q)), 0)
            if times:
                issues.append(
                    SwapIssue(
                        "repeat",
                        mover,
                        q,
                        times,
                        f"{mover} would meet {q} again (already met "
                        f"{'once' if times == 1 else f'{times} times'}).",
                    )
                )
            tm = team_of.get(mover)
            if tm is not None and tm == team_of.get(q):
                issues.append(
                    SwapIssue(
                        "teammates",
                        mover,
                        q,
                        0,
                        f"{mover} and {q} are team-mates and would share a table.",
                    )
                )
        size = len(tabs[t])
        if size != FULL_TABLE:
            mine = odd_counts.get(mover, 0)
            others = [odd_counts.get(p, 0) for x in tabs if len(x) == FULL_TABLE for p in x]
            if others and mine > min(others):
                issues.append(
                    SwapIssue(
                        "odd_table",
                        mover,
                        None,
                        mine,
                        f"{mover} would sit at a table of {size} again ({mine} earlier "
                        "odd-table rounds) while another player has had fewer.",
                    )
                )
    return issues


def swap_warnings(
    tables: Iterable[Iterable[PlayerId]],
    a: PlayerId,
    b: PlayerId,
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
) -> list[str]:
    """Plain-English warnings about swapping players ``a`` and ``b`` in a seated round.

    Reports the repeated meetings the swap would create, team-mates it would seat together,
    and odd-table unfairness it would cause.  If only one of the two is seated, the other
    takes that seat (replacement).  Swapping two players of the same table changes nothing.
    See :func:`swap_issues` for the same as data.
    """
    return [issue.message for issue in swap_issues(tables, a, b, history, teams)]

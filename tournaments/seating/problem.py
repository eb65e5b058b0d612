"""The seating as an optimisation problem: players numbered, the flat meeting counts, the cost
of a plan and its incremental changes, and the lower bounds the search stops at. Pure Python."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from tournaments.seating import designs
from tournaments.seating.sizes import (
    FULL_TABLE,
    ODD_FIVE,
    PRIORITY_CHOICES,
    PRIORITY_REPEATS,
    TEAM_CLASH,
    PlayerId,
    SeatingError,
    canonical_order,
    check_feasible,
    odd_table_counts_from,
    present_teams,
    rounds_of,
    table_sizes,
)

#: With fewest repeats first, the cost is ``repeats * REPEAT_SCALE + spread * SPREAD_SCALE +
#: fairness``: an order of priorities (each term of a plan stays far below the scale of the
#: one above it), not a weighting.  ``repeats`` counts repeated meetings (a pair meeting a
#: third time is one more), ``spread`` is the convex term that prefers two pairs meeting
#: twice to one pair meeting three times.
REPEAT_SCALE = 1 << 48

SPREAD_SCALE = 1 << 24

#: Weight of the odd-table fairness term (one unfair odd seat costs 2 * W_ODD per round,
#: so fairness comes before avoiding a repeat, which costs 1).
W_ODD = 10


class Problem:
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
        ids = canonical_order(players)
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
            for members in present_teams(ids, teams).values()
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

    def meetings(self, rounds: int) -> int:
        """Meetings (pairs seated together) that ``rounds`` rounds hold."""
        return rounds * sum(s * (s - 1) // 2 for s in self.sizes)

    def never_met_pairs(self) -> int:
        """Pairs of present players who have never met and may meet (team-mates never do)."""
        n = self.n
        group_of = self.group_of
        mates = sum(len(members) * (len(members) - 1) // 2 for members in self.groups)
        met = sum(
            1 for k in self.met if group_of[k // n] < 0 or group_of[k // n] != group_of[k % n]
        )
        return n * (n - 1) // 2 - mates - met

    # ---------------------------------------------------------------- search

    def initial_plan(
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
        (:mod:`tournaments.seating.designs`), renamed onto the players so that the design's
        first round is the round played (or, with no history, any renaming); ``None`` when
        no design fits: team events, fair odd tables first, or not exactly these players at
        tables of these sizes in the one round played.
        """
        if self.groups or self.history_rounds > 1 or (not self.repeats_first and any(self.odd)):
            return None
        played = self.history_rounds
        design = designs.zero_repeat_rounds(self.sizes, rounds + played)
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

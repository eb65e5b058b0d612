"""Seating a round: round 1 drawn from the seed, later rounds planned ahead (with the plan
cache that makes round-by-round seating as good as planning all rounds at once). Pure Python."""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tournaments.seating.annealer import (
    POLISH_EFFORT,
    ZERO_HUNT_EFFORT,
    ZERO_HUNT_MAX,
    anneal,
    search_budget,
    zero_hunt_pays,
)
from tournaments.seating.problem import Problem
from tournaments.seating.sizes import (
    MAX_LOOKAHEAD,
    ODD_FIVE,
    PRIORITY_REPEATS,
    PlayerId,
    RoundSeating,
    SeatingError,
    rounds_of,
)
from tournaments.seating.spread import spread_repeats


def _rng(seed: int | str, *parts: object) -> random.Random:
    """Reproducible generator (string seeds are hashed with SHA-512 by ``random``)."""
    return random.Random("|".join(str(x) for x in (seed, *parts)))


def _finish(
    prob: Problem,
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


def _seat_in_order(prob: Problem, order: Sequence[PlayerId]) -> list[list[int]] | None:
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


class SearchProgress:
    """How far a seating is, for a progress bar (``seat_round(progress=report)``): it calls
    ``report(done, total)``, ``STEP`` for each search the seating makes (one, or one per round
    played since its plan was made, see :func:`_lookahead`; none when the plan is known).
    Within a search, the share of its budget spent (:func:`~.annealer.search_budget`, the hunt
    for zero repeats included when it may run), every ``TICK_EVALS`` evaluations; a search
    that stops before its budget (at its bound, or finding nothing better for long) completes
    its step. So the count only grows, and ends at the total."""

    STEP = 1000

    def __init__(self, report: Callable[[int, int], None]) -> None:
        self.report = report
        self.steps = self.finished = 0
        self.budget, self.spent = 1, 0

    def plan(self, searches: int) -> None:
        self.steps += searches
        self._say(0)

    def begin(self, budget: int) -> None:
        self.budget, self.spent = max(1, budget), 0

    def ticker(self) -> Callable[[int], None]:
        """The ``tick`` of the next pass of the search under way (its evaluations so far)."""
        spent = self.spent

        def tick(evals: int) -> None:
            self.spent = spent + evals
            self._say(min(self.STEP - 1, self.spent * self.STEP // self.budget))

        return tick

    def end(self) -> None:
        self.finished += 1
        self._say(0)

    def _say(self, part: int) -> None:
        total = max(1, self.steps) * self.STEP
        self.report(min(total, self.finished * self.STEP + part), total)


def search_plan(
    prob: Problem,
    rounds: int,
    rng: random.Random,
    effort: float = 1.0,
    start: list[list[list[int]]] | None = None,
    progress: SearchProgress | None = None,
) -> list[list[list[int]]]:
    """Plan ``rounds`` rounds of ``prob`` jointly (a start, then the search); returns rounds of
    tables of player indices.

    ``start`` optionally gives the first rounds of the starting plan (warm start);
    without it, a known zero-repeat design starts the plan where one fits. ``progress`` is
    told the search's evaluations.
    """
    n_tables = len(prob.sizes)
    if start is None:
        start = prob.design_start(rounds, rng)
    plan = prob.initial_plan(rounds, rng, start)
    if n_tables > 1 and rounds > 0:
        # Fewest repeats first, a plan a few repeats away from a bound of zero: a
        # zero-repeat plan is likely near; search on from the best plan, longer, when the
        # planned rounds leave room among the never-met pairs (otherwise it never helps).
        hunt = prob.repeats_first and zero_hunt_pays(prob.never_met_pairs(), prob.meetings(rounds))
        if progress is not None:
            hunt_budget = search_budget(effort * ZERO_HUNT_EFFORT) if hunt else 0
            progress.begin(search_budget(effort) + hunt_budget)
        tick = progress.ticker() if progress is not None else None
        cost, target = anneal(prob, plan, rng, effort, tick=tick)
        if hunt and target < prob.scale and 0 < cost // prob.scale <= ZERO_HUNT_MAX:
            tick = progress.ticker() if progress is not None else None
            anneal(prob, plan, rng, effort * ZERO_HUNT_EFFORT, tick=tick)
        if prob.repeats_first and prob.w_odd and any(prob.odd) and not all(prob.odd):
            anneal(prob, plan, rng, effort * POLISH_EFFORT, polish=True)
    if progress is not None:
        progress.end()
    return plan


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
    progress: Callable[[int, int], None] | None = None,
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
    comparable).  ``progress(done, total)`` is told how far the search is
    (:class:`SearchProgress`).

    Raises :class:`SeatingError` when the rules cannot be met (see :func:`check_feasible`).
    """
    history = rounds_of(history)
    prob = Problem(players, teams, history, odd_table_counts, odd_weight, odd, priority)
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
    tracker = SearchProgress(progress) if progress is not None else None
    if (rounds_left > 1 or history) and odd_table_counts is None and not variant:
        plan = _lookahead(prob, teams, history, seed, rounds_left, effort, tracker)
    else:
        horizon = min(rounds_left, MAX_LOOKAHEAD)
        extra = (variant,) if variant else ()
        if not history:
            rng = _rng(seed, "round", 0, prob.n, *extra)
        else:
            rng = _rng("single", prob.n, *extra)
        if tracker is not None:
            tracker.plan(1)
        plan = search_plan(prob, horizon, rng, effort, progress=tracker)
    return _finish(prob, plan[:1], seats_rng, shuffle_tables=True)[0]


#: Plans computed by :func:`_lookahead`, most recently used last (a pure-function memo).
_PLAN_CACHE: OrderedDict[tuple, list[list[list[int]]]] = OrderedDict()

_PLAN_CACHE_SIZE = 64

_PLAN_LOCK = threading.Lock()

#: Search effort (fraction) when a plan continues the plan of the previous round.
LINK_EFFORT = 0.2


def _lookahead(
    prob: Problem,
    teams: Mapping[Any, Any] | None,
    history: list[list[list[PlayerId]]],
    seed: int | str,
    rounds_left: int,
    effort: float,
    progress: SearchProgress | None = None,
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
        if progress is not None:
            progress.plan(1)
        return search_plan(prob, 1, _rng(seed, "round", 0, n), effort, progress=progress)
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
    if progress is not None:  # a search for each plan of the chain not in the memo
        keys = [
            (params, hist_key[:j], min(rounds_left + k - j, MAX_LOOKAHEAD))
            for j in range(j0, k + 1)
        ]
        with _PLAN_LOCK:
            progress.plan(sum(key not in _PLAN_CACHE for key in keys))
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
                else Problem(
                    ids, teams, history[:j], None, prob.w_odd, prob.odd_choice, prob.priority
                )
            )
            start = None
            if prev is not None and len(prev) > 1:
                played = {frozenset(index[p] for p in table) for table in history[j - 1]}
                if played == {frozenset(m) for m in prev[0]}:
                    start = prev[1:]
            plan = search_plan(
                prob_j,
                horizon,
                _rng("lookahead", j, n),
                effort * LINK_EFFORT if start else effort,
                start,
                progress,
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
    prob = Problem(players, teams, history, odd_table_counts, odd_weight, odd, priority)
    if rounds <= 0:
        return []
    plan = search_plan(prob, int(rounds), _rng(seed, "plan", len(history), prob.n), effort)
    if not any(prob.odd):  # reordering rounds would move odd seats: only tables of 4
        spread_repeats(plan, prob.base, prob.n)
    return _finish(prob, plan, _rng(seed, "plan-seats", len(history), prob.n))

"""The search: simulated annealing on swaps, moves and exchanges over a planned set of rounds,
and the pass that shares the odd tables more fairly once the repeats are settled (see the
package's docstring for the algorithm). Pure Python."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from tournaments.seating.problem import REPEAT_SCALE, SPREAD_SCALE, Problem

#: With fewest repeats first, a move that keeps the repeats but makes the odd tables less fair
#: is accepted with probability exp(-delta / FAIR_TEMPERATURE) (delta in fairness units).
FAIR_TEMPERATURE = 1.0

#: ... and once the repeats reach their lower bound, the search for fairer odd tables stops
#: after this many evaluations (times ``effort``) without a better plan.
STALL_FAIR = 20_000

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

#: A search reports its evaluations (``anneal(tick=...)``) once every this many: about a
#: tenth of a second (some 200,000 evaluations a second on the shared machine, under load).
TICK_EVALS = 20_000

STALL_MIN = 20_000

STALL_MAX = 250_000

#: Fewest repeats first: a plan ending with 1 to ``ZERO_HUNT_MAX`` repeats where the lower
#: bound is zero is searched on from its best plan, with ``ZERO_HUNT_EFFORT`` times the budget.
ZERO_HUNT_MAX = 6

ZERO_HUNT_EFFORT = 3.0

#: ... and only when the planned rounds leave at least this share of the never-met pairs
#: unused: with less room (18 to 23 players over 6 rounds, after round 1) the longer search
#: never removed a repeat, it only spent three times the budget; at 17 players with tables of
#: 3 (8.7 % left) it did, so the line is 8 % rather than 10 % (``bench/figures.md``).
ZERO_HUNT_SLACK_PERCENT = 8


def zero_hunt_pays(never_met: int, meetings: int) -> bool:
    """Whether searching on for a zero-repeat plan can pay: the planned rounds' ``meetings``
    leave at least ``ZERO_HUNT_SLACK_PERCENT`` % of the ``never_met`` pairs unused."""
    if never_met <= 0:
        return False
    return (never_met - meetings) * 100 >= ZERO_HUNT_SLACK_PERCENT * never_met


#: Budget (fraction) of the cold pass that shares odd tables fairly once repeats are settled.
POLISH_EFFORT = 0.2

#: With tables of 5 (or 3) and fair odd tables, few zero-repeat plans exist, and those that
#: do are found fast; the plateaus are mostly optimal, so stop sooner.
STALL_MAX_ODD = 80_000

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


def search_budget(effort: float) -> int:
    """The most evaluations one search of ``effort`` makes (it stops sooner at its bound or
    when it finds nothing better for long)."""
    return max(1, int(effort * MAX_EVALS))


def anneal(
    prob: Problem,
    plan: list[list[list[int]]],
    rng: random.Random,
    effort: float,
    polish: bool = False,
    tick: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Improve ``plan`` in place by simulated annealing over same-round swaps (and, fewest
    repeats first, moves to a table one seat smaller).

    With fewest repeats first (``prob.repeats_first``) a repeat costs ``prob.scale`` and the
    temperature is scaled alike; ``polish`` then runs a second, cold pass that only shares
    the odd tables more fairly without adding a repeat.  ``tick`` is told the evaluations
    made so far every ``TICK_EVALS`` and at the end (not by the polish).  Returns the cost
    of the plan and the lower bound the search aimed at.
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
    max_evals = search_budget(effort)
    next_tick = TICK_EVALS if tick is not None else max_evals  # the loop ends first
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
        if evals >= next_tick:
            tick(evals)
            next_tick = evals + TICK_EVALS
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
    if tick is not None:
        tick(evals)
    return best_cost, target


def _share_odd_seats(
    prob: Problem,
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

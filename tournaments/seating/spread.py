"""Spreading forced repeats over the planned rounds (pure Python).

How often each pair meets over a plan does not depend on the order of its rounds, so neither
does the total of repeated meetings nor the cost's spread term; but the round that comes later
pays the repeats.  The annealing may stop at the lower bound with one round holding most of
them (16 players over 6 rounds: 14 of 24 in round 4).  Here the planned rounds are put in the
order whose repeats per round have the smallest sum of squares, which loses no total.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

#: Every order is tried up to this many planned rounds (6! = 720 orders); beyond, none.
MAX_ROUNDS = 6


def round_repeats(plan: list[list[list[int]]], base: Any, n: int) -> list[int]:
    """Repeated meetings of each planned round, after the history ``base`` (met counts by
    ``i * n + j``) and the rounds before it in ``plan``."""
    met: dict[int, int] = {}
    out = []
    for tables in plan:
        repeats = 0
        for members in tables:
            for x, i in enumerate(members):
                for j in members[x + 1 :]:
                    k = i * n + j if i < j else j * n + i
                    c = met.get(k, 0)
                    if c or base[k]:
                        repeats += 1
                    met[k] = c + 1
        out.append(repeats)
    return out


def spread_repeats(plan: list[list[list[int]]], base: Any, n: int) -> None:
    """Reorder ``plan`` in place so its repeats are spread as evenly as possible (the smallest
    sum of squares of repeats per round; the order found first among equals, so a plan
    without repeats keeps its order)."""
    if not 2 <= len(plan) <= MAX_ROUNDS:
        return
    best_order = list(range(len(plan)))
    best = sum(r * r for r in round_repeats(plan, base, n))
    for order in permutations(range(len(plan))):
        score = sum(r * r for r in round_repeats([plan[i] for i in order], base, n))
        if score < best:
            best, best_order = score, list(order)
    plan[:] = [plan[i] for i in best_order]

"""Issue 27: where repeats are forced, a jointly planned set of rounds does not bunch them into
one round when spreading them loses no total (16 players over 6 rounds: 14 of 24 repeats fell
in round 4)."""

from __future__ import annotations

import itertools
from collections import Counter

from tournaments.seating import plan_rounds


def repeats_per_round(rounds) -> list[int]:
    met: Counter = Counter()
    out = []
    for rnd in rounds:
        pairs = [frozenset(p) for t in rnd.tables for p in itertools.combinations(t, 2)]
        out.append(sum(1 for p in pairs if met[p]))
        met.update(pairs)
    return out


def test_sixteen_players_over_six_rounds_spread_their_repeats():
    plan = plan_rounds(list(range(16)), 6, seed=1)
    per_round = repeats_per_round(plan)
    assert [len(r.repeats) for r in plan] == per_round  # what the plan reports is what it holds
    # 16 players over 6 rounds: the affine plane covers 5 rounds; a sixth repeats 24 meetings.
    assert sum(per_round) == 24
    assert max(per_round) <= 10  # before: 14 in round 4 ([0, 0, 4, 14, 2, 4])


def test_a_plan_without_repeats_keeps_none():
    plan = plan_rounds(list(range(16)), 5, seed=1)
    assert repeats_per_round(plan) == [0] * 5

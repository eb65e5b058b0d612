"""Known zero-repeat designs: 24 players over 7 rounds, 25 and 26 players over 6.

Local search stalls one or two repeats short on these fields (a "social golfer" instance near
its limit), so the seating starts from a design instead.  These tests prove the design (no
pair meets twice; every round seats everyone at tables of the announced sizes) and that the
app's seating, round by round from any first round, keeps it.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournaments.seating import plan_rounds, seat_round
from tournaments.seating.designs import DESIGN_ROUNDS, zero_repeat_rounds

FIELDS = {
    24: ([4, 4, 4, 4, 4, 4], DESIGN_ROUNDS),
    25: ([5, 4, 4, 4, 4, 4], 6),
    26: ([5, 5, 4, 4, 4, 4], 6),
}


def _meetings(rounds) -> Counter:
    return Counter(
        frozenset(pair)
        for tables in rounds
        for t in tables
        for pair in itertools.combinations(t, 2)
    )


@pytest.mark.parametrize("players", sorted(FIELDS))
def test_every_round_seats_everyone_and_no_pair_meets_twice(players: int) -> None:
    sizes, rounds = FIELDS[players]
    design = zero_repeat_rounds(sizes, 99)
    assert design is not None and len(design) == rounds
    for tables in design:
        assert [len(t) for t in tables] == sizes
        assert sorted(p for t in tables for p in t) == list(range(players))
    assert max(_meetings(design).values()) == 1


def test_the_24_player_design_meets_every_pair_outside_its_group_exactly_once() -> None:
    # 8 groups of 3 that never meet; every other pair meets in exactly one of the 7 rounds
    met = _meetings(zero_repeat_rounds([4] * 6, DESIGN_ROUNDS))
    others = [
        frozenset((p, q)) for p, q in itertools.combinations(range(24), 2) if p // 3 != q // 3
    ]
    assert len(others) == 7 * 6 * 6
    assert all(met[pair] == 1 for pair in others)
    assert len(met) == len(others)


def test_asking_for_fewer_rounds_gives_the_first_ones() -> None:
    assert zero_repeat_rounds([4] * 6, 3) == zero_repeat_rounds([4] * 6, 7)[:3]
    assert (
        zero_repeat_rounds([5, 5, 4, 4, 4, 4], 2) == zero_repeat_rounds([5, 5, 4, 4, 4, 4], 6)[:2]
    )


@pytest.mark.parametrize(
    "sizes", [[5, 5, 5, 4, 4, 4], [4, 4, 4, 4, 4, 3], [4] * 5, [4] * 7, [4, 5, 4, 4, 4, 4]]
)
def test_no_design_for_other_tables(sizes: list[int]) -> None:
    assert zero_repeat_rounds(sizes, 6) is None


@pytest.mark.parametrize("players", sorted(FIELDS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_by_round_from_any_first_round_no_pair_meets_twice(players: int, seed: int) -> None:
    done = []
    for r in range(6):
        done.append(seat_round(range(players), history=done, rounds_left=6 - r, seed=seed))
    assert [rnd.repeat_count for rnd in done] == [0] * 6
    assert max(_meetings(rnd.tables for rnd in done).values()) == 1


def test_a_new_draw_of_round_2_seats_differently_still_without_repeats() -> None:
    first = seat_round(range(24), rounds_left=6, seed=5)
    draws = [
        seat_round(range(24), history=[first], rounds_left=5, seed=5, variant=v) for v in range(3)
    ]
    assert all(d.repeat_count == 0 for d in draws)
    assert len({frozenset(frozenset(t) for t in d.tables) for d in draws}) == 3


def test_planned_jointly_with_no_history_no_pair_meets_twice() -> None:
    for seed in (0, 1):
        rounds = plan_rounds(range(26), 6, seed=seed)
        assert max(_meetings(r.tables for r in rounds).values()) == 1


def test_a_late_arrival_is_seated_by_the_search_all_the_same() -> None:
    # round 1 had 24 players, round 2 has 25: no design continues that round
    first = seat_round(range(24), rounds_left=6, seed=1)
    second = seat_round(range(25), history=[first], rounds_left=5, seed=1)
    assert sorted(p for t in second.tables for p in t) == list(range(25))
    assert second.repeat_count == 0


def test_team_events_still_never_seat_team_mates_together() -> None:
    teams = {p: p // 2 for p in range(24)}
    done = []
    for r in range(4):
        done.append(seat_round(range(24), teams=teams, history=done, rounds_left=4 - r, seed=1))
    assert all(rnd.teammates_together == 0 for rnd in done)

"""A long seating says how far it is (issue 28: the seating job's progress bar): the search's
evaluations of its budget, a step per search, the count only growing and ending at the total,
and the same seating as without it."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from tournaments.seating import planning, seat_round


@pytest.fixture(autouse=True)
def empty_memo(monkeypatch):
    """Each test searches afresh (the memo would give a plan already made: no search)."""
    monkeypatch.setattr(planning, "_PLAN_CACHE", OrderedDict())


def seen_seating_round_two(n: int, odd: str, rounds: int = 6):
    players = list(range(n))
    first = seat_round(players, seed=1, odd=odd, rounds_left=rounds)
    seen: list[tuple[int, int]] = []
    second = seat_round(
        players,
        history=[first],
        seed=2,
        odd=odd,
        rounds_left=rounds - 1,
        progress=lambda done, total: seen.append((done, total)),
    )
    return seen, second, first


def test_the_count_grows_steadily_and_ends_at_the_total():
    """21 players at tables of 5, round 2: the long case (some 270,000 evaluations)."""
    seen, _second, _first = seen_seating_round_two(21, "five")
    done = [d for d, _t in seen]
    totals = {t for _d, t in seen}
    assert len(totals) == 1 and seen[-1] == (totals.pop(),) * 2
    assert done == sorted(done)  # it never goes back
    moving = [d for d, t in seen if 0 < d < t]
    assert len(moving) >= 5  # told every TICK_EVALS evaluations, not only at the end
    assert len(set(moving)) == len(moving)


def test_the_count_changes_nothing_of_the_seating():
    seen, second, first = seen_seating_round_two(17, "three", rounds=5)
    planning._PLAN_CACHE.clear()
    again = seat_round(list(range(17)), history=[first], seed=2, odd="three", rounds_left=4)
    assert second.tables == again.tables and seen


def test_a_quick_seating_ends_at_once():
    """A large field's round 2 needs few evaluations (fewer than ``TICK_EVALS``): its one
    search starts and ends."""
    seen, _second, _first = seen_seating_round_two(400, "five")
    assert seen == [(0, 1000), (0, 1000), (1000, 1000)]

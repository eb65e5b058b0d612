"""Tests of the pure-Python seating engine (no database, no Django)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    RoundSeating,
    SeatingError,
    check_feasible,
    odd_table_counts_from,
    plan_rounds,
    quality_of,
    seat_round,
    swap_issues,
    table_sizes,
)
from tournaments.seating.bounds import explain_round

ZERO_REPEAT_SIZES = [16, 20, 28, 32, 44, 64, 100]


# --------------------------------------------------------------------------- helpers


def make_teams(n: int, size: int | None) -> dict[int, int] | None:
    """Players 0..n-1 chunked into teams of ``size`` (the last one short if need be)."""
    if size is None:
        return None
    return {p: p // size for p in range(n)}


def assert_valid_round(
    seating: RoundSeating,
    players: Sequence[Any],
    teams: dict[Any, Any] | None,
    odd: str = "five",
) -> None:
    seated = [p for table in seating.tables for p in table]
    assert Counter(seated) == Counter(players), "every player seated exactly once"
    assert list(seating.sizes) == table_sizes(len(players), odd)
    assert all(len(t) in (3, 4, 5) for t in seating.tables)
    if teams:
        for table in seating.tables:
            team_ids = [teams[p] for p in table if p in teams]
            assert len(team_ids) == len(set(team_ids)), f"team-mates together at {table}"
    assert seating.teammates_together == 0


def met_pairs(history: Iterable[Iterable[Iterable[Any]]]) -> Counter:
    met: Counter = Counter()
    for rnd in history:
        for table in rnd:
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


def total_repeats(rounds: Sequence[RoundSeating]) -> int:
    """Repeated meetings recomputed from scratch (independent of the engine's report)."""
    met: Counter = Counter()
    repeats = 0
    for rnd in rounds:
        for table in rnd.tables:
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                repeats += met[key] > 0
        for table in rnd.tables:
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] += 1
    return repeats


def seat_sequentially(
    players: Sequence[int], rounds: int, *, lookahead: bool = True, **kwargs
) -> list[RoundSeating]:
    done: list[RoundSeating] = []
    for r in range(rounds):
        left = rounds - r if lookahead else 1
        done.append(seat_round(players, history=done, rounds_left=left, **kwargs))
    return done


def assert_fair_odd_tables(rounds: Sequence[RoundSeating], players: Sequence[int]) -> None:
    """Nobody sits at a table of 5/3 with more odd rounds than a player at a table of 4."""
    counts = dict.fromkeys(players, 0)
    for rnd in rounds:
        odd = set(rnd.odd_table_players)
        if odd and len(odd) < len(players):
            worst_odd = max(counts[p] for p in odd)
            best_even = min(counts[p] for p in players if p not in odd)
            assert worst_odd <= best_even, (counts, sorted(odd))
        for p in odd:
            counts[p] += 1
    assert max(counts.values()) - min(counts.values()) <= 1


# --------------------------------------------------------------------------- table sizes


def best_split(n: int) -> list[int]:
    """Brute force: only 4s and 5s if possible (fewest 5s), else 4s and fewest 3s."""
    options = []
    for fives in range(n // 5 + 1):
        for threes in range(n // 3 + 1):
            rest = n - 5 * fives - 3 * threes
            if rest >= 0 and rest % 4 == 0:
                options.append((threes, fives + threes, fives, rest // 4))
    threes, _, fives, fours = min(options)
    return [5] * fives + [4] * fours + [3] * threes


@pytest.mark.parametrize("n", range(3, 121))
def test_table_sizes(n: int) -> None:
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert set(sizes) <= {3, 4, 5}
    assert not ({3, 5} <= set(sizes))
    assert sizes == sorted(sizes, reverse=True)
    assert Counter(sizes) == Counter(best_split(n))
    if n >= 12:
        assert 3 not in sizes
        assert sizes.count(5) <= 3


def test_table_sizes_examples() -> None:
    expected = {
        3: [3], 4: [4], 5: [5], 6: [3, 3], 7: [4, 3], 8: [4, 4], 9: [5, 4], 10: [5, 5],
        11: [4, 4, 3], 12: [4, 4, 4], 13: [5, 4, 4], 15: [5, 5, 5], 19: [5, 5, 5, 4],
    }  # fmt: skip
    for n, sizes in expected.items():
        assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_table_sizes_too_few(n: int) -> None:
    with pytest.raises(SeatingError) as err:
        table_sizes(n)
    assert err.value.code == "too_few_players"
    assert "3 players" in err.value.reason


# --------------------------------------------------------------------------- big sweep


@pytest.mark.parametrize("team_size", [None, 2, 4], ids=["individual", "pairs", "fours"])
def test_sweep_every_size_and_format(team_size: int | None) -> None:
    """N = 3..120, full teams and a team missing a member: legal rounds or a clear error."""
    rounds = 3
    for n in range(3, 121):
        variants = [list(range(n))]
        if team_size:
            # drop one member of the first team: a team missing a member
            variants.append([p for p in range(n + 1) if p != 0])
        for players in variants:
            teams = make_teams(max(players) + 1, team_size)
            try:
                check_feasible(players, teams)
            except SeatingError as err:
                assert err.reason
                with pytest.raises(SeatingError):
                    seat_round(players, teams=teams, effort=0.01)
                continue
            planned = plan_rounds(players, rounds, teams=teams, seed=n, effort=0.01)
            assert len(planned) == rounds
            for rnd in planned:
                assert_valid_round(rnd, players, teams)
            if n % 3 == 0:  # the round-by-round path too, on a sample
                for rnd in seat_sequentially(players, rounds, teams=teams, seed=n, effort=0.01):
                    assert_valid_round(rnd, players, teams)


# --------------------------------------------------------------------------- zero repeats


@pytest.mark.parametrize("n", ZERO_REPEAT_SIZES)
def test_zero_repeats_planned(n: int) -> None:
    players = list(range(n))
    rounds = plan_rounds(players, 5, seed=1)
    for rnd in rounds:
        assert_valid_round(rnd, players, None)
        assert rnd.repeats == ()
    assert total_repeats(rounds) == 0


@pytest.mark.parametrize("n", ZERO_REPEAT_SIZES)
def test_zero_repeats_round_by_round(n: int) -> None:
    players = list(range(n))
    rounds = seat_sequentially(players, 5, seed=2)
    for rnd in rounds:
        assert_valid_round(rnd, players, None)
    assert total_repeats(rounds) == 0
    assert all(rnd.repeat_count == 0 for rnd in rounds)


def test_sixteen_players_meet_everyone_exactly_once() -> None:
    rounds = plan_rounds(range(16), 5, seed=7)
    met = met_pairs(rnd.tables for rnd in rounds)
    assert len(met) == 16 * 15 // 2
    assert set(met.values()) == {1}


@pytest.mark.parametrize(("n", "team_size", "rounds"), [(32, 2, 5), (32, 4, 5), (40, 4, 5)])
def test_zero_repeats_with_teams(n: int, team_size: int, rounds: int) -> None:
    players = list(range(n))
    teams = make_teams(n, team_size)
    done = seat_sequentially(players, rounds, teams=teams, seed=3)
    for rnd in done:
        assert_valid_round(rnd, players, teams)
    assert total_repeats(done) == 0


def test_lookahead_beats_greedy_on_sixteen() -> None:
    """Round-by-round greedy gets stuck on 16 x 5; planning ahead does not."""
    ahead = seat_sequentially(list(range(16)), 5, seed=4)
    assert total_repeats(ahead) == 0


def test_round_by_round_is_a_pure_function_of_the_history() -> None:
    """The warm start from the previous round's plan is recomputed identically when cold."""
    from tournaments.seating import planning as seating

    players = list(range(20))
    done = seat_sequentially(players, 5, seed=11)
    seating._PLAN_CACHE.clear()
    assert seat_round(players, history=done[:3], rounds_left=2, seed=11) == done[3]
    seating._PLAN_CACHE.clear()
    assert seat_round(players, history=done[:1], rounds_left=4, seed=11) == done[1]


@pytest.mark.parametrize("n", [16, 20, 24])
def test_new_seed_every_round_still_continues_the_plan(n: int) -> None:
    """The app may draw a fresh seed for each round: groups then follow the history only."""
    players = list(range(n))
    done: list[RoundSeating] = []
    for r in range(5):
        done.append(seat_round(players, history=done, rounds_left=5 - r, seed=1000 + 37 * r))
    assert total_repeats(done) == 0
    other = seat_round(players, history=done[:2], rounds_left=3, seed=424242)
    assert {frozenset(t) for t in other.tables} == {frozenset(t) for t in done[2].tables}


def test_variant_reseats_a_later_round_differently() -> None:
    players = list(range(24))
    done = seat_sequentially(players, 2, seed=3)
    base = seat_round(players, history=done[:1], rounds_left=4, seed=3)
    again = seat_round(players, history=done[:1], rounds_left=4, seed=3, variant=1)
    assert_valid_round(again, players, None)
    assert again.repeat_count == 0
    assert {frozenset(t) for t in again.tables} != {frozenset(t) for t in base.tables}
    nxt = seat_round(players, history=[done[0], again], rounds_left=3, seed=3)
    assert nxt.repeat_count == 0


def test_edited_round_in_history() -> None:
    """The organiser swapped two players after seating: the next round adapts."""
    players = list(range(24))
    first = seat_round(players, rounds_left=4, seed=2)
    tables = [list(t) for t in first.tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    second = seat_round(players, history=[tables], rounds_left=3, seed=2)
    assert_valid_round(second, players, None)
    assert second.repeat_count == 0


def test_late_arrival_and_absent_players_in_history() -> None:
    history = plan_rounds(range(20), 2, seed=5)
    present = [p for p in range(22) if p not in (3, 7)]  # 2 left, 2 arrived
    rnd = seat_round(present, history=history, rounds_left=3, seed=5)
    assert_valid_round(rnd, present, None)
    assert rnd.repeat_count == 0


def test_repeats_are_reported_when_unavoidable() -> None:
    players = list(range(8))
    done = seat_sequentially(players, 3, seed=0, effort=0.2)
    assert total_repeats(done) == sum(r.repeat_count for r in done) > 0
    history_met = met_pairs([done[0].tables])
    for a, b in done[1].repeats:
        assert history_met[frozenset((a, b))] >= 1


# --------------------------------------------------------------------------- odd tables


@pytest.mark.parametrize("n", [9, 13, 21, 22, 23, 27, 45])
def test_odd_tables_fair_planned(n: int) -> None:
    players = list(range(n))
    rounds = plan_rounds(players, 4, seed=n, effort=0.1, priority="fair")
    for rnd in rounds:
        assert_valid_round(rnd, players, None)
    assert_fair_odd_tables(rounds, players)


@pytest.mark.parametrize("n", [21, 26])
def test_odd_tables_fair_round_by_round(n: int) -> None:
    players = list(range(n))
    rounds = seat_sequentially(players, 4, seed=n, effort=0.1, priority="fair")
    assert_fair_odd_tables(rounds, players)
    odd_counts = Counter(p for rnd in rounds for p in rnd.odd_table_players)
    if n == 21:  # 20 odd seats over 4 rounds: nobody twice
        assert max(odd_counts.values()) == 1


def test_odd_tables_fair_with_greedy_rounds() -> None:
    players = list(range(21))
    rounds = seat_sequentially(players, 4, seed=0, lookahead=False, effort=0.1, priority="fair")
    assert_fair_odd_tables(rounds, players)


def test_odd_table_counts_override() -> None:
    players = list(range(9))  # one table of 5
    counts = {p: (0 if p < 5 else 3) for p in players}
    for priority in ("fair", "repeats"):  # no history: no repeat to trade against
        rnd = seat_round(players, odd_table_counts=counts, seed=1, effort=0.1, priority=priority)
        assert sorted(rnd.odd_table_players) == [0, 1, 2, 3, 4]


def test_odd_weight_zero_trades_fairness_for_repeats() -> None:
    players = list(range(21))
    fair = plan_rounds(players, 4, seed=0, effort=0.1, priority="fair")
    free = plan_rounds(players, 4, seed=0, odd_weight=0, priority="fair")
    assert total_repeats(free) == 0
    assert total_repeats(fair) > 0  # fairness first forces a few repeats at 21 players


def test_odd_table_counts_from_history() -> None:
    history = [[[1, 2, 3, 4, 5], [6, 7, 8, 9]], [[1, 6, 7], [2, 3, 8]]]
    assert odd_table_counts_from(history) == {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}


# --------------------------------------------------------------------------- feasibility


def test_three_teams_of_four_are_infeasible() -> None:
    players = list(range(12))
    teams = make_teams(12, 4)
    with pytest.raises(SeatingError) as err:
        check_feasible(players, teams)
    assert err.value.code == "team_too_large"
    assert "4 players" in err.value.reason and "3 tables" in err.value.reason
    assert err.value.params == {"team": 0, "members": 4, "tables": 3}
    with pytest.raises(SeatingError):
        seat_round(players, teams=teams)
    with pytest.raises(SeatingError):
        plan_rounds(players, 3, teams=teams)


def test_team_missing_a_member() -> None:
    teams = make_teams(20, 4)
    players = list(range(1, 20))  # team 0 lacks a member: 19 players on 4 tables
    check_feasible(players, teams)
    rnd = seat_round(players, teams=teams, seed=0)
    assert_valid_round(rnd, players, teams)


@pytest.mark.parametrize(
    ("players", "teams", "code"),
    [
        ([1, 2], None, "too_few_players"),
        ([], None, "too_few_players"),
        ([1, 2, 3, 3], None, "duplicate_player"),
        ([1, 2, 3, 4, 5], {1: "a", 2: "a"}, "team_too_large"),  # one table only
        (list(range(8)), {p: p % 2 for p in range(8)}, "team_too_large"),
    ],
)
def test_check_feasible_reasons(players, teams, code) -> None:
    with pytest.raises(SeatingError) as err:
        check_feasible(players, teams)
    assert err.value.code == code
    assert isinstance(err.value, ValueError)
    assert err.value.reason == str(err.value)


def test_feasible_formats() -> None:
    check_feasible(range(16), make_teams(16, 4))  # 4 teams of 4 on 4 tables: tight
    check_feasible(range(8), make_teams(8, 2))
    check_feasible(["a", "b", "c"], {"a": None, "b": None})
    rnd = seat_round(range(16), teams=make_teams(16, 4), seed=0)
    assert_valid_round(rnd, list(range(16)), make_teams(16, 4))


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_result() -> None:
    history = plan_rounds(range(30), 2, seed=9)
    a = seat_round(range(30), history=history, seed=3, rounds_left=3)
    b = seat_round(range(30), history=history, seed=3, rounds_left=3)
    assert a == b
    assert plan_rounds(range(24), 3, seed=1) == plan_rounds(range(24), 3, seed=1)


def test_different_seed_different_first_round() -> None:
    first = seat_round(range(20), seed=0).tables
    others = [seat_round(range(20), seed=s).tables for s in range(1, 6)]
    assert any(o != first for o in others)


def test_player_order_does_not_matter() -> None:
    players = list(range(40))
    shuffled = players[:]
    random.Random(1).shuffle(shuffled)
    assert seat_round(players, seed=5) == seat_round(shuffled, seed=5)


def test_string_ids_and_round_seating_history() -> None:
    players = [f"p{i}" for i in range(24)]
    first = seat_round(players, seed="club", rounds_left=3)
    second = seat_round(players, history=[first], seed="club", rounds_left=2)
    assert_valid_round(second, players, None)
    assert second.repeat_count == 0


def test_seats_are_shuffled_within_tables() -> None:
    rnd = seat_round(range(100), seed=0)
    assert any(list(t) != sorted(t) for t in rnd.tables)


def test_order_seats_sequentially() -> None:
    order = [7, 3, 9, 1, 0, 2, 8, 4, 6, 5, 10, 11, 12]  # 13 players: [5, 4, 4]
    rnd = seat_round(range(13), order=order)
    assert rnd.tables == ((7, 3, 9, 1, 0), (2, 8, 4, 6), (5, 10, 11, 12))


def test_order_keeps_team_mates_apart() -> None:
    teams = make_teams(16, 2)  # 0-1, 2-3, ... adjacent in order
    order = list(range(16))
    rnd = seat_round(order, teams=teams, order=order)
    assert_valid_round(rnd, order, teams)
    assert rnd.tables[0][0] == 0


def test_bad_order_is_rejected() -> None:
    with pytest.raises(SeatingError) as err:
        seat_round(range(8), order=[0, 1, 2])
    assert err.value.code == "bad_order"


# --------------------------------------------------------------------------- display helpers


def test_quality_of() -> None:
    history = [[[1, 2, 3, 4], [5, 6, 7, 8]]]
    tables = [[1, 2, 5, 6], [3, 7, 4, 8]]
    q = quality_of(tables, history, teams={5: "x", 6: "x"})
    assert q["sizes"] == [4, 4]
    assert q["sizes_ok"]
    assert q["repeat_count"] == 4
    assert {frozenset(r[:2]) for r in q["repeats"]} == {
        frozenset(p) for p in [(1, 2), (5, 6), (3, 4), (7, 8)]
    }
    assert all(r[2] == 1 for r in q["repeats"])
    assert q["teammates_together"] == 1
    assert [set(p) for p in q["teammate_pairs"]] == [{5, 6}]
    assert q["odd_table_players"] == []


def test_round_quality_odd_tables_and_sizes() -> None:
    history = [[[1, 2, 3, 4, 5], [6, 7, 8, 9]]]
    q = quality_of([[1, 2, 6, 7, 8], [3, 4, 5, 9]], history)
    assert q["odd_table_unfair"] == [1, 2]  # back at a table of 5 while 9 never was
    assert q["odd_table_players"] == [1, 2, 6, 7, 8]
    assert q["sizes"] == [5, 4]
    assert not quality_of([[1, 2, 3, 4, 5, 6]], [])["sizes_ok"]


def swap_messages(*args) -> list[str]:
    """The plain-English sentences of a swap's issues."""
    return [issue.message for issue in swap_issues(*args)]


def test_swap_warnings() -> None:
    history = [[[1, 5, 9, 10], [2, 3, 4, 6], [7, 8, 11, 12]]]
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    teams = {2: "t", 8: "t"}
    warnings = swap_messages(tables, 4, 5, history, teams)
    text = " ".join(warnings)
    assert "5 would meet 1 again" in text
    assert "4 would meet 6 again" in text
    assert len(warnings) == 2
    warnings = swap_messages(tables, 1, 8, history, teams)
    assert any("team-mates" in w and "8" in w and "2" in w for w in warnings)
    assert any("1 would meet 5 again" in w for w in warnings)
    assert swap_messages(tables, 1, 2, history, teams) == []  # same table: nothing changes
    assert swap_messages(tables, 3, 7, [], None) == []


def test_swap_issues_are_structured() -> None:
    history = [
        [[1, 5, 9, 10], [2, 6, 11, 12], [3, 4, 7, 8]],
        [[1, 5, 11, 12], [2, 3, 9, 10], [4, 6, 7, 8]],
    ]
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    issues = swap_issues(tables, 4, 5, history, {5: "t", 3: "t"})
    by_code = {(i.code, i.player, i.other): i.count for i in issues}
    assert by_code == {
        ("repeat", 5, 1): 2,
        ("teammates", 5, 3): 0,
        ("repeat", 4, 6): 1,
        ("repeat", 4, 7): 2,
        ("repeat", 4, 8): 2,
    }
    assert "already met 2 times" in next(i.message for i in issues if i.other == 1)


def test_swap_warnings_replacement_and_odd_table() -> None:
    history = [[[1, 2, 3, 4, 5], [6, 7, 8, 9]]]
    tables = [[6, 7, 8, 9, 10], [1, 2, 3, 4]]
    warnings = swap_messages(tables, 10, 1, history)
    assert any("table of 5 again" in w for w in warnings)
    # 5 is absent: replacing 4 by 5 at [1, 2, 3, 4] means meeting 1, 2, 3 again
    warnings = swap_messages(tables, 4, 5, history)
    assert sum("would meet" in w for w in warnings) == 3
    with pytest.raises(SeatingError):
        swap_messages(tables, 50, 51, history)


# --------------------------------------------------------------------------- properties


@st.composite
def seating_problems(draw):
    n = draw(st.integers(min_value=3, max_value=30))
    team_size = draw(st.sampled_from([None, 2, 4]))
    extra = draw(st.integers(min_value=0, max_value=4))  # absent players in history
    pool = list(range(n + extra))
    absent = set(draw(st.lists(st.sampled_from(pool), max_size=extra, unique=True)))
    players = [p for p in pool if p not in absent]
    if len(players) < 3:
        players = pool
    teams = make_teams(len(pool), team_size)
    n_hist = draw(st.integers(min_value=0, max_value=3))
    rng = random.Random(draw(st.integers(min_value=0, max_value=10**6)))
    history = []
    for _ in range(n_hist):
        attendees = [p for p in pool if rng.random() < 0.85]
        if len(attendees) < 3:
            continue
        rng.shuffle(attendees)
        tables, i = [], 0
        for size in table_sizes(len(attendees)):
            tables.append(attendees[i : i + size])
            i += size
        history.append(tables)
    rounds_left = draw(st.integers(min_value=1, max_value=3))
    seed = draw(st.integers(min_value=0, max_value=1000))
    odd = draw(st.sampled_from(["five", "three"]))
    priority = draw(st.sampled_from(["repeats", "fair"]))
    return players, teams, history, rounds_left, seed, odd, priority


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seating_problems())
def test_property_round_invariants(problem) -> None:
    players, teams, history, rounds_left, seed, odd, priority = problem
    try:
        check_feasible(players, teams, odd)
    except SeatingError:
        with pytest.raises(SeatingError):
            seat_round(players, teams=teams, history=history, seed=seed, odd=odd)
        return
    options = {"odd": odd, "priority": priority, "effort": 0.01}
    rnd = seat_round(
        players, teams=teams, history=history, rounds_left=rounds_left, seed=seed, **options
    )
    assert_valid_round(rnd, players, teams, odd)
    met = met_pairs(history)
    expected = {
        frozenset((a, b))
        for table in rnd.tables
        for a, b in itertools.combinations(table, 2)
        if met[frozenset((a, b))]
    }
    assert {frozenset(p) for p in rnd.repeats} == expected
    assert quality_of(rnd.tables, history, teams, odd)["repeat_count"] == rnd.repeat_count
    assert quality_of(rnd.tables, history, teams, odd)["sizes_ok"]
    # no seating has fewer repeats than the proved lower bound
    explained = explain_round(rnd.tables, history, teams)
    assert explained.unavoidable <= explained.repeats == rnd.repeat_count
    again = seat_round(
        players, teams=teams, history=history, rounds_left=rounds_left, seed=seed, **options
    )
    assert again == rnd


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=3, max_value=40),
    st.integers(min_value=1, max_value=4),
    st.sampled_from([None, 2, 4]),
    st.integers(min_value=0, max_value=100),
    st.sampled_from(["five", "three"]),
    st.sampled_from(["repeats", "fair"]),
)
def test_property_plans(
    n: int, rounds: int, team_size: int | None, seed: int, odd: str, priority: str
) -> None:
    players = list(range(n))
    teams = make_teams(n, team_size)
    try:
        check_feasible(players, teams, odd)
    except SeatingError:
        return
    planned = plan_rounds(
        players, rounds, teams=teams, seed=seed, effort=0.01, odd=odd, priority=priority
    )
    for rnd in planned:
        assert_valid_round(rnd, players, teams, odd)
    assert sum(r.repeat_count for r in planned) == total_repeats(planned)

"""The halls' placement rule (tournaments/seating/halls.py, pure): ranges, filling the halls in
order, keeping players in their hall, and the repairs when a hall overflows or is stranded."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import ODD_FIVE, ODD_THREE, SeatingError, seat_round, table_sizes
from tournaments.seating.halls import (
    Hall,
    HallError,
    check_halls,
    hall_of_table,
    seat_in_halls,
    split_players,
    table_numbers,
    tables_needed,
)

POURNY = Hall("pourny", 1, 60)
CAPUCINS = Hall("capucins", 61, 125)


# --- halls as set by the organiser ---------------------------------------------------------


def test_a_hall_holds_its_range_and_counts_its_tables():
    assert POURNY.capacity == 60
    assert CAPUCINS.capacity == 65
    assert POURNY.holds(1) and POURNY.holds(60)
    assert not POURNY.holds(0) and not POURNY.holds(61)
    assert hall_of_table([POURNY, CAPUCINS], 61) == "capucins"
    assert hall_of_table([POURNY, CAPUCINS], 60) == "pourny"
    assert hall_of_table([POURNY, CAPUCINS], 126) is None


def test_two_halls_side_by_side_are_accepted():
    check_halls([POURNY, CAPUCINS])
    check_halls([CAPUCINS, POURNY])
    check_halls([Hall("a", 1, 1)])
    check_halls([])


@pytest.mark.parametrize(
    ("halls", "code", "params"),
    [
        ([Hall("a", 1, 10), Hall("b", 10, 20)], "overlap", {"first": "a", "second": "b"}),
        ([Hall("b", 5, 20), Hall("a", 1, 5)], "overlap", {"first": "a", "second": "b"}),
        ([Hall("a", 1, 10), Hall("b", 3, 4)], "overlap", {"table": 3}),
        ([Hall("a", 1, 10), Hall("a", 11, 20)], "duplicate", {"hall": "a"}),
        ([Hall("a", 0, 10)], "bad_range", {"hall": "a", "first": 0, "last": 10}),
        ([Hall("a", 11, 10)], "bad_range", {"first": 11, "last": 10}),
        ([Hall("", 1, 10)], "no_key", {}),
    ],
)
def test_bad_halls_are_refused_saying_why(halls, code, params):
    with pytest.raises(HallError) as caught:
        check_halls(halls)
    assert caught.value.code == code
    for name, value in params.items():
        assert caught.value.params[name] == value


def test_tables_needed_counts_tables_of_3_and_5_as_tables():
    assert tables_needed(0) == 0
    assert tables_needed(3) == 1
    assert tables_needed(5, ODD_FIVE) == 1
    assert tables_needed(6, ODD_FIVE) == 2  # 3 + 3
    assert tables_needed(9, ODD_FIVE) == 2  # 5 + 4
    assert tables_needed(9, ODD_THREE) == 3  # 3 + 3 + 3
    with pytest.raises(SeatingError):
        tables_needed(2)


# --- filling the halls in order (round 1, or everyone moves) --------------------------------


def test_tables_fill_the_first_hall_then_the_next_numbered_from_their_range():
    assert table_numbers(3, [Hall("a", 1, 2), Hall("b", 11, 15)]) == [
        (1, "a"),
        (2, "a"),
        (11, "b"),
    ]
    assert table_numbers(2, [Hall("b", 11, 15), Hall("a", 1, 2)]) == [(11, "b"), (12, "b")]
    assert table_numbers(0, [POURNY]) == []
    assert table_numbers(125, [POURNY, CAPUCINS])[-1] == (125, "capucins")


def test_more_tables_than_the_halls_hold_are_refused():
    with pytest.raises(HallError) as caught:
        table_numbers(126, [POURNY, CAPUCINS])
    assert caught.value.code == "too_many_tables"
    assert caught.value.params == {"tables": 126, "capacity": 125}


def test_round_1_fills_the_halls_in_order_with_every_player_once():
    halls = [Hall("a", 1, 2), Hall("b", 11, 12)]
    tables = seat_in_halls(range(14), halls, seed=3)
    # 14 players: 5 + 5 + 4 (five), largest first: hall a has both tables of 5.
    assert [(t.number, t.hall, len(t.players)) for t in tables] == [
        (1, "a", 5),
        (2, "a", 5),
        (11, "b", 4),
    ]
    assert sorted(p for t in tables for p in t.players) == list(range(14))


def test_everyone_moves_is_the_seating_of_one_field():
    history = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = {p: ("a" if p < 4 else "b") for p in range(8)}
    tables = seat_in_halls(range(8), halls, keep=False, previous=previous, history=history)
    alone = seat_round(range(8), history=history)
    assert [t.players for t in tables] == list(alone.tables)
    # Nobody meets again: everyone changed hall or company.
    assert all(len({p < 4 for p in t.players}) == 2 for t in tables)


def test_a_round_too_big_for_the_halls_is_refused_before_seating():
    with pytest.raises(HallError) as caught:
        seat_in_halls(range(13), [Hall("a", 1, 1), Hall("b", 2, 2)])
    assert caught.value.code == "too_many_tables"


# --- keeping players in their hall ----------------------------------------------------------


def test_players_keep_their_hall_and_meet_only_their_hall():
    halls = [Hall("a", 1, 2), Hall("b", 11, 12)]
    previous = {p: ("a" if p < 8 else "b") for p in range(16)}
    history = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    tables = seat_in_halls(range(16), halls, keep=True, previous=previous, history=history)
    assert [t.number for t in tables] == [1, 2, 11, 12]
    for table in tables:
        assert {previous[p] for p in table.players} == {table.hall}


def test_keeping_halls_without_a_previous_hall_fills_them_like_round_1():
    halls = [Hall("a", 1, 2), Hall("b", 11, 12)]
    kept = seat_in_halls(range(12), halls, keep=True, previous={}, seed=5)
    moved = seat_in_halls(range(12), halls, keep=False, seed=5)
    assert kept == moved


def test_nobody_moves_when_every_hall_can_seat_its_players():
    halls = [Hall("a", 1, 3), Hall("b", 4, 6)]
    previous = {p: ("a" if p % 2 else "b") for p in range(22)}  # 11 and 11
    split = split_players(range(22), halls, previous)
    assert split == {"a": list(range(1, 22, 2)), "b": list(range(0, 22, 2))}


def test_a_newcomer_joins_the_hall_with_the_most_free_seats():
    halls = [Hall("a", 1, 3), Hall("b", 4, 6)]
    previous = dict.fromkeys(range(8), "a") | dict.fromkeys(range(8, 12), "b")
    split = split_players([*range(12), 99], halls, previous)
    assert 99 in split["b"]
    assert len(split["a"]) == 8


def test_a_player_of_a_removed_hall_is_a_newcomer():
    halls = [Hall("a", 1, 3)]
    split = split_players(range(5), halls, {0: "gone", 1: "a", 2: "a", 3: "a", 4: "a"})
    assert sorted(split["a"]) == list(range(5))


def test_an_overflowing_hall_gives_players_to_the_roomiest_hall():
    halls = [Hall("a", 1, 1), Hall("b", 2, 4), Hall("c", 5, 6)]
    previous = dict.fromkeys(range(7), "a") | dict.fromkeys(range(7, 11), "b")
    split = split_players(range(11), halls, previous, seed=1)
    assert len(split["a"]) == 5  # one table of 5: two players went
    assert len(split["b"]) == 6  # b had the most free seats (12 - 4)
    assert split["c"] == []
    assert set(split["a"]) < set(range(7))


def test_stranded_players_get_a_table_of_3_from_the_fullest_hall():
    # 6 players, two halls of one table each: 4 stayed in a, 2 in b.
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = {0: "a", 1: "a", 2: "a", 3: "a", 4: "b", 5: "b"}
    split = split_players(range(6), halls, previous, seed=7)
    assert len(split["a"]) == 3 and len(split["b"]) == 3
    assert {4, 5} <= set(split["b"])
    tables = seat_in_halls(range(6), halls, keep=True, previous=previous, history=[[[0, 1, 2, 3]]])
    assert sorted(len(t.players) for t in tables) == [3, 3]


def test_one_stranded_player_gets_two_from_the_fullest_hall():
    halls = [Hall("a", 1, 2), Hall("b", 3, 3), Hall("c", 4, 4)]
    previous = dict.fromkeys(range(8), "a") | {8: "b"} | dict.fromkeys(range(9, 13), "c")
    split = split_players(range(13), halls, previous, seed=2)
    assert len(split["b"]) == 3
    assert len(split["a"]) == 6  # the fullest hall gave two
    assert split["c"] == list(range(9, 13))


def test_stranded_players_join_another_hall_when_none_can_spare_players():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = {0: "a", 1: "a", 2: "b", 3: "b"}  # 2 and 2: a table of 4 in one hall
    split = split_players(range(4), halls, previous)
    assert sorted(len(v) for v in split.values()) == [0, 4]
    split = split_players(range(5), halls, {0: "a", 1: "a", 2: "a", 3: "b", 4: "b"}, odd=ODD_THREE)
    assert sorted(len(v) for v in split.values()) == [0, 5]  # a table of 5 for 5 players


def test_what_no_repair_seats_is_refused():
    with pytest.raises(HallError) as caught:
        split_players(range(11), [Hall("a", 1, 1), Hall("b", 2, 2)], dict.fromkeys(range(11), "a"))
    assert caught.value.code == "no_fit"
    assert caught.value.params["players"] == 11
    assert caught.value.params["capacity"] == 2  # « 11 joueurs … (2 tables) »
    with pytest.raises(HallError) as caught:
        split_players(range(3), [], {})
    assert caught.value.code == "no_hall"


def test_who_moves_is_drawn_from_the_seed():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = dict.fromkeys(range(8), "a")
    draws = {tuple(split_players(range(8), halls, previous, seed=s)["b"]) for s in range(20)}
    assert len(draws) > 1
    first = split_players(range(8), halls, previous, seed=4)
    assert first == split_players(range(8), halls, previous, seed=4)


# --- what an organiser sees in a round (found by `make mutation`) ---------------------------


def test_without_a_hall_a_round_is_refused_saying_so():
    for keep in (False, True):
        with pytest.raises(HallError) as caught:
            seat_in_halls(range(8), [], keep=keep, previous={0: "a"})
        assert caught.value.code == "no_hall"


def test_unless_players_keep_their_hall_everyone_moves():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = {p: ("a" if p < 4 else "b") for p in range(8)}
    for seed in range(3):
        assert seat_in_halls(range(8), halls, previous=previous, seed=seed) == seat_in_halls(
            range(8), halls, keep=False, previous=previous, seed=seed
        )


@pytest.mark.parametrize("keep", [False, True])
def test_the_round_seed_draws_the_tables_and_draws_them_again(keep):
    halls = [Hall("a", 1, 2), Hall("b", 11, 12)]
    previous = {p: ("a" if p < 8 else "b") for p in range(16)}
    draws = [
        seat_in_halls(range(16), halls, keep=keep, previous=previous, seed=s) for s in range(4)
    ]
    assert len({tuple(t.players for t in draw) for draw in draws}) > 1
    assert draws[2] == seat_in_halls(range(16), halls, keep=keep, previous=previous, seed=2)


def test_who_changes_hall_is_drawn_from_the_round_seed():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = dict.fromkeys(range(8), "a")  # 8 players stayed in a hall of one table
    movers = set()
    for seed in range(6):
        tables = seat_in_halls(range(8), halls, keep=True, previous=previous, seed=seed)
        movers.add(frozenset(p for t in tables if t.hall == "b" for p in t.players))
    assert len(movers) > 1


def test_without_a_seed_the_split_and_the_seating_draw_the_same_movers():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    previous = dict.fromkeys(range(8), "a")
    split = split_players(range(8), halls, previous)
    tables = seat_in_halls(range(8), halls, keep=True, previous=previous)
    assert {t.hall: sorted(t.players) for t in tables} == {k: sorted(v) for k, v in split.items()}


def test_tables_of_3_chosen_by_the_organiser_count_in_every_hall():
    # Odd numbers as tables of 3: 9 players in hall b need 3 tables, b has 2: one goes to a,
    # whose 10 players sit 4 + 3 + 3, never at tables of 5, and no table leaves its hall.
    halls = [Hall("a", 1, 3), Hall("b", 11, 12)]
    previous = {p: ("a" if p < 9 else "b") for p in range(18)}
    tables = seat_in_halls(range(18), halls, keep=True, previous=previous, odd=ODD_THREE)
    assert [(t.number, t.hall, len(t.players)) for t in tables] == [
        (1, "a", 4),
        (2, "a", 3),
        (3, "a", 3),
        (11, "b", 4),
        (12, "b", 4),
    ]
    assert sum(1 for t in tables if t.hall == "a" and max(t.players) >= 9) == 1
    first = seat_in_halls(range(9), halls, odd=ODD_THREE)
    assert [(t.number, len(t.players)) for t in first] == [(1, 3), (2, 3), (3, 3)]


def test_an_empty_hall_between_two_others_leaves_the_last_one_seated():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2), Hall("c", 3, 3)]
    previous = {p: ("a" if p < 4 else "c") for p in range(8)}
    tables = seat_in_halls(range(8), halls, keep=True, previous=previous)
    assert [(t.number, t.hall, sorted(t.players)) for t in tables] == [
        (1, "a", [0, 1, 2, 3]),
        (3, "c", [4, 5, 6, 7]),
    ]


def test_players_who_keep_their_hall_do_not_meet_again():
    # Hall a: 16 players who sat at 4 tables in round 1; a round without repeats exists.
    halls = [Hall("a", 1, 4), Hall("b", 11, 11)]
    previous = {p: ("a" if p < 16 else "b") for p in range(20)}
    history = [[list(range(i, i + 4)) for i in range(0, 20, 4)]]
    tables = seat_in_halls(range(20), halls, keep=True, previous=previous, history=history)
    for table in tables:
        if table.hall == "a":
            assert len({p // 4 for p in table.players}) == 4, table


@pytest.mark.parametrize(
    ("stayed", "kept"),
    [
        ({"a": 6, "b": 4}, {"a": 5, "b": 5}),  # b has room: only the sixth player moves
        ({"a": 6, "b": 3}, {"a": 5, "b": 4}),  # b has one free seat: enough for the one
    ],
)
def test_an_overflowing_hall_sends_away_only_the_players_it_cannot_seat(stayed, kept):
    halls = [Hall("a", 1, 1), Hall("b", 2, 1 + (2 if stayed["b"] == 4 else 1))]
    previous = dict.fromkeys(range(stayed["a"]), "a") | {100 + i: "b" for i in range(stayed["b"])}
    split = split_players(list(previous), halls, previous, seed=3)
    assert {k: len(v) for k, v in split.items()} == kept
    assert set(range(100, 100 + stayed["b"])) <= set(split["b"])


def test_a_late_arrival_takes_the_empty_table_before_a_fuller_hall():
    # Hall a: one empty table (4 free seats); hall b: 3 tables, 9 players (3 free seats).
    halls = [Hall("a", 1, 1), Hall("b", 2, 4)]
    previous = dict.fromkeys(range(9), "b")
    split = split_players([*range(9), 99], halls, previous, seed=1)
    assert 99 in split["a"] and len(split["a"]) == 3  # two of b keep the late arrival company
    assert len(split["b"]) == 7


def test_a_lone_player_joins_a_table_rather_than_an_empty_hall():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2), Hall("c", 3, 3)]
    split = split_players(range(4), halls, {0: "a", 1: "b", 2: "b", 3: "b"})
    assert split == {"a": [], "b": [1, 2, 3, 0], "c": []}


def test_the_last_three_players_sit_where_two_of_them_already_are():
    halls = [Hall("a", 1, 1), Hall("b", 2, 2)]
    split = split_players(range(3), halls, {0: "a", 1: "b", 2: "b"})
    assert split == {"a": [], "b": [1, 2, 0]}  # one player moves, not two


def test_the_fullest_hall_gives_the_players_a_stranded_hall_needs():
    halls = [Hall("pourny", 1, 2), Hall("capucins", 3, 4), Hall("annexe", 5, 5)]
    previous = (
        dict.fromkeys(range(8), "pourny") | dict.fromkeys(range(8, 14), "capucins") | {14: "annexe"}
    )
    split = split_players(range(15), halls, previous, seed=2)
    assert split["capucins"] == list(range(8, 14))  # 6 players, not the fullest: untouched
    assert len(split["pourny"]) == 6 and len(split["annexe"]) == 3


@pytest.mark.parametrize(
    ("bar", "cave", "joins"),
    [
        ((1, 2), (1, 3), "bar"),  # bar has 2 free seats, cave 1
        ((2, 3), (1, 3), "bar"),  # bar's 2 tables have 5 free seats, cave 1
        ((1, 3), (1, 3), "bar"),  # 1 free seat each: the first hall listed
    ],
)
def test_a_lone_player_joins_the_hall_with_the_most_free_seats(bar, cave, joins):
    # (tables, players who stayed) of halls bar and cave; annexe kept one player.
    halls = [Hall("annexe", 1, 1), Hall("bar", 2, 1 + bar[0]), Hall("cave", 10, 9 + cave[0])]
    previous = {0: "annexe"} | {10 + i: "bar" for i in range(bar[1])}
    previous |= {20 + i: "cave" for i in range(cave[1])}
    for seed in range(4):  # whatever the draw, only the lone player moves
        split = split_players(list(previous), halls, previous, seed=seed)
        assert split["annexe"] == []
        assert split[joins][-1] == 0
        assert all(p == 0 or previous[p] == hall for hall, ps in split.items() for p in ps)


# --- properties -----------------------------------------------------------------------------


@st.composite
def situations(draw):
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    halls, first = [], 1
    for i, size in enumerate(sizes):
        first += draw(st.integers(0, 3))
        halls.append(Hall(f"h{i}", first, first + size - 1))
        first += size
    n = draw(st.integers(3, 5 * sum(sizes)))
    keys = [h.key for h in halls] + ["gone", None]
    previous = {p: draw(st.sampled_from(keys)) for p in range(n)}
    previous = {p: k for p, k in previous.items() if k is not None}
    odd = draw(st.sampled_from([ODD_FIVE, ODD_THREE]))
    return halls, n, previous, odd, draw(st.integers(0, 1000))


@settings(max_examples=400, deadline=None)
@given(situations())
def test_the_split_seats_everyone_once_within_each_halls_capacity(situation):
    halls, n, previous, odd, seed = situation
    try:
        split = split_players(range(n), halls, previous, odd=odd, seed=seed)
    except HallError as error:
        assert error.code == "no_fit"
        # Refused only when the halls hold too few tables, or the field is small and split.
        assert tables_needed(n, odd) > sum(h.capacity for h in halls) - 1 or n < 12
        return
    assert Counter(p for ps in split.values() for p in ps) == Counter(range(n))
    for hall in halls:
        count = len(split[hall.key])
        assert count == 0 or (count >= 3 and len(table_sizes(count, odd)) <= hall.capacity)
    # When every player has a hall and every hall can seat its players, nobody moves.
    counts = Counter(previous.values())
    settled = all(previous.get(p) in split for p in range(n)) and all(
        counts[h.key] == 0
        or (counts[h.key] >= 3 and tables_needed(counts[h.key], odd) <= h.capacity)
        for h in halls
    )
    if settled:
        assert {k: sorted(v) for k, v in split.items()} == {
            h.key: [p for p in range(n) if previous[p] == h.key] for h in halls
        }


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.lists(st.integers(1, 10), min_size=1, max_size=4))
def test_table_numbers_stay_in_their_halls_and_fill_in_order(tables, sizes):
    halls, first = [], 1
    for i, size in enumerate(sizes):
        halls.append(Hall(f"h{i}", first, first + size - 1))
        first += size + 2
    try:
        numbers = table_numbers(tables, halls)
    except HallError:
        assert tables > sum(sizes)
        return
    assert len(numbers) == tables == len(set(numbers))
    for number, key in numbers:
        assert hall_of_table(halls, number) == key
    filled = Counter(key for _, key in numbers)
    for i, hall in enumerate(halls):
        if any(filled[h.key] for h in halls[i + 1 :]):
            assert filled[hall.key] == hall.capacity

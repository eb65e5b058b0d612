"""The prize list's rules (scoring.prizes.rules), pure: who is in a category, which year counts
for an age, the category standings, who wins which prize with one prize per player or prizes
that add up."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.prizes import rules
from scoring.prizes.rules import Award, Category, Person, Placed, Prize

WOMEN = Category("dames", rules.WOMEN)
UNDER_18 = Category("jeunes", rules.YOUTH, age=18)
FROM_60 = Category("seniors", rules.SENIOR, age=60)
PROMOTION = Category("promo", rules.SERIES, series="Promotion")


# --- which year counts for an age -----------------------------------------------------------


def test_age_is_the_age_reached_in_the_tournaments_year():
    assert rules.age_in(2026, 2008) == 18
    assert rules.age_in(2026, 2026) == 0
    assert rules.age_in(2026, None) is None


@pytest.mark.parametrize(
    ("birth_year", "young", "senior"),
    [
        (2009, True, False),  # 17 in 2026
        (2008, False, False),  # 18 in 2026, even at a tournament in January before the birthday
        (1967, False, False),  # 59 in 2026
        (1966, False, True),  # 60 in 2026, even before the birthday
        (1950, False, True),
        (None, False, False),  # no year of birth: in neither
    ],
)
def test_jeunes_under_n_and_seniors_from_m(birth_year, young, senior):
    person = Person(1, birth_year=birth_year)
    assert rules.belongs(UNDER_18, person, 2026) is young
    assert rules.belongs(FROM_60, person, 2026) is senior
    # The same player a year later: the tournament's year counts, not the birthday.
    if birth_year is not None:
        assert rules.belongs(FROM_60, person, 2027) is (2027 - birth_year >= 60)
        assert rules.belongs(UNDER_18, person, 2025) is (2025 - birth_year < 18)


def test_the_edges_of_the_ages():
    assert rules.belongs(UNDER_18, Person(1, birth_year=2009), 2026)
    assert not rules.belongs(UNDER_18, Person(1, birth_year=2008), 2026)
    assert rules.belongs(FROM_60, Person(1, birth_year=1966), 2026)
    assert not rules.belongs(FROM_60, Person(1, birth_year=1967), 2026)
    assert rules.belongs(FROM_60, Person(1, birth_year=1966), 2026)
    # Ages without a category age: never in.
    assert not rules.belongs(Category("j", rules.YOUTH), Person(1, birth_year=2020), 2026)
    assert not rules.belongs(Category("s", rules.SENIOR), Person(1, birth_year=1920), 2026)


def test_dames_and_series():
    assert rules.belongs(WOMEN, Person(1, sex="F"), 2026)
    assert not rules.belongs(WOMEN, Person(1, sex="M"), 2026)
    assert not rules.belongs(WOMEN, Person(1), 2026)
    assert rules.belongs(PROMOTION, Person(1, series="Promotion"), 2026)
    assert rules.belongs(PROMOTION, Person(1, series="PROMOTION"), 2026)
    assert not rules.belongs(PROMOTION, Person(1, series="Open"), 2026)
    assert not rules.belongs(PROMOTION, Person(1), 2026)
    assert not rules.belongs(Category("x", rules.SERIES), Person(1, series=""), 2026)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown kind"):
        rules.belongs(Category("x", "martians"), Person(1), 2026)


# --- category standings ---------------------------------------------------------------------


def test_a_category_keeps_the_scratch_order_and_its_ties():
    people = {
        1: Person(1, sex="M"),
        2: Person(2, sex="F"),
        3: Person(3, sex="F"),
        4: Person(4, sex="F"),
        5: Person(5, sex="F"),
        6: Person(6, sex="F"),
    }
    scratch = [(1, 1), (2, 2), (3, 3), (4, 3), (5, 5), (6, 6), (7, 7)]  # 7: no details
    assert rules.category_standings(WOMEN, scratch, people, 2026) == [
        Placed(1, False, 2, 2),
        Placed(2, True, 3, 3),
        Placed(2, True, 4, 3),
        Placed(4, False, 5, 5),
        Placed(5, False, 6, 6),
    ]


def test_a_tie_at_the_head_and_at_the_end():
    people = {i: Person(i, sex="F") for i in range(1, 4)}
    scratch = [(1, 1), (2, 1), (3, 1)]
    assert rules.category_standings(WOMEN, scratch, people, 2026) == [
        Placed(1, True, 1, 1),
        Placed(1, True, 2, 1),
        Placed(1, True, 3, 1),
    ]
    assert rules.category_standings(WOMEN, [], people, 2026) == []
    assert rules.category_standings(WOMEN, [(1, 4)], people, 2026) == [Placed(1, False, 1, 4)]


# --- prizes ---------------------------------------------------------------------------------

SCRATCH = [Prize("s1", None, 1), Prize("s2", None, 2), Prize("s3", None, 3)]
DAMES = [Prize("d1", "dames", 1), Prize("d2", "dames", 2)]
JEUNES = [Prize("j1", "jeunes", 1)]
ORDERS = {None: ["Ana", "Bea", "Cid", "Dan", "Eve", "Fay"], "dames": ["Bea", "Eve", "Fay"]}


def winners(awards: list[Award]) -> dict:
    return {a.prize.key: a.winner for a in awards}


def test_one_prize_per_player_the_next_of_the_category_takes_it():
    awards = rules.award(SCRATCH + DAMES, ORDERS, [None, "dames"])
    assert winners(awards) == {"s1": "Ana", "s2": "Bea", "s3": "Cid", "d1": "Eve", "d2": "Fay"}
    assert [a.prize.key for a in awards] == ["s1", "s2", "s3", "d1", "d2"]


def test_the_organisers_order_decides_which_prize_is_the_best():
    awards = rules.award(SCRATCH + DAMES, ORDERS, ["dames", None])
    assert winners(awards) == {"d1": "Bea", "d2": "Eve", "s1": "Ana", "s2": "Cid", "s3": "Dan"}
    assert [a.prize.key for a in awards] == ["d1", "d2", "s1", "s2", "s3"]


def test_prizes_that_add_up():
    awards = rules.award(SCRATCH + DAMES, ORDERS, [None, "dames"], cumulative=True)
    assert winners(awards) == {"s1": "Ana", "s2": "Bea", "s3": "Cid", "d1": "Bea", "d2": "Eve"}


def test_a_prize_nobody_can_take():
    orders = {None: ["Ana", "Bea"], "dames": ["Bea"]}
    assert winners(rules.award(SCRATCH + DAMES, orders, [None, "dames"])) == {
        "s1": "Ana",
        "s2": "Bea",
        "s3": None,
        "d1": None,
        "d2": None,
    }
    assert winners(rules.award(SCRATCH + DAMES, orders, [None, "dames"], cumulative=True)) == {
        "s1": "Ana",
        "s2": "Bea",
        "s3": None,
        "d1": "Bea",
        "d2": None,
    }
    assert winners(rules.award(JEUNES, orders, [None])) == {"j1": None}  # no such category


def test_places_in_order_within_a_category_and_unnamed_categories_last():
    prizes = [Prize("d2", "dames", 2), Prize("j1", "jeunes", 1), Prize("d1", "dames", 1)]
    orders = {None: ["Ana"], "dames": ["Bea", "Eve"], "jeunes": ["Eve", "Ana"]}
    awards = rules.award(prizes, orders, ["jeunes"])
    assert [a.prize.key for a in awards] == ["j1", "d1", "d2"]
    assert winners(awards) == {"j1": "Eve", "d1": "Bea", "d2": None}


people_strategy = st.lists(
    st.tuples(st.sampled_from(["F", "M", ""]), st.one_of(st.none(), st.integers(1920, 2020))),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(
    people_strategy,
    st.lists(st.tuples(st.sampled_from([None, "dames", "jeunes"]), st.integers(1, 8)), max_size=12),
    st.booleans(),
    st.permutations([None, "dames", "jeunes"]),
)
def test_properties_of_the_prize_list(details, prize_places, cumulative, priority):
    people = {i: Person(i, sex, year) for i, (sex, year) in enumerate(details)}
    scratch = [(i, i + 1) for i in range(len(people))]
    categories = {"dames": WOMEN, "jeunes": UNDER_18}
    orders = {None: [i for i, _r in scratch]}
    for key, category in categories.items():
        placed = rules.category_standings(category, scratch, people, 2026)
        orders[key] = [p.id for p in placed]
        # Category standings: exactly the members, in the scratch order.
        assert orders[key] == [i for i in people if rules.belongs(category, people[i], 2026)]
        assert [p.rank for p in placed] == list(range(1, len(placed) + 1))
    prizes = [Prize((c, p), c, p) for c, p in dict.fromkeys(prize_places)]
    awards = rules.award(prizes, orders, list(priority), cumulative=cumulative)
    assert sorted((a.prize.key for a in awards), key=str) == sorted(
        (p.key for p in prizes), key=str
    )
    won = [a.winner for a in awards if a.winner is not None]
    for a in awards:
        if a.winner is not None:
            assert a.winner in orders[a.prize.category]  # only the category's players
    if cumulative:
        for a in awards:
            order = orders[a.prize.category]
            expected = order[a.prize.place - 1] if a.prize.place <= len(order) else None
            assert a.winner == expected
    else:
        assert len(won) == len(set(won))  # one prize each
        for a in awards:  # a prize unawarded: every player of its category has one
            if a.winner is None:
                assert set(orders[a.prize.category]) <= set(won)


def test_a_tie_between_the_last_two_of_a_category():
    people = {i: Person(i, sex="F") for i in range(1, 4)}
    assert rules.category_standings(WOMEN, [(1, 1), (2, 2), (3, 2)], people, 2026) == [
        Placed(1, False, 1, 1),
        Placed(2, True, 2, 2),
        Placed(2, True, 3, 2),
    ]


def test_belonging_is_always_a_yes_or_a_no():
    for category in (Category("j", rules.YOUTH), Category("s", rules.SENIOR), WOMEN, PROMOTION):
        for person in (Person(1), Person(2, sex="F", birth_year=1950, series="Promotion")):
            assert rules.belongs(category, person, 2026) in (True, False)
            assert isinstance(rules.belongs(category, person, 2026), bool)

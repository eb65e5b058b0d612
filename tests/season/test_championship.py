"""The season championship in plain Python: hand-made seasons and hypothesis invariants."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.championship import (
    DEFAULT_PLACE_POINTS,
    Career,
    Formula,
    FormulaError,
    Result,
    place_points,
    progression,
    season_points,
    season_standings,
)


def result(tournament, player, place, total, field=8, tied=False):
    return Result(tournament, player, f"P{player}", place, total, field, tied)


def table(standings):
    return [(s.rank, s.tied, s.player, s.points) for s in standings]


SEASON = [
    # tournament 1: A 1st (+300), B 2nd (+100), C 3rd (-400)
    result(1, "A", 1, 300),
    result(1, "B", 2, 100),
    result(1, "C", 3, -400),
    # tournament 2: C 1st (+500), B 2nd (0), A 3rd (-500)
    result(2, "C", 1, 500),
    result(2, "B", 2, 0),
    result(2, "A", 3, -500),
]


def test_sum_of_totals():
    assert table(season_standings(SEASON, Formula())) == [
        (1, True, "B", 100),
        (1, True, "C", 100),
        (3, False, "A", -200),
    ]


def test_ties_share_the_rank_and_a_tie_break_is_labelled():
    standings = season_standings(SEASON, Formula())
    assert [(s.rank, s.tied) for s in standings] == [(1, True), (1, True), (3, False)]
    broken = season_standings(SEASON, Formula(tie_breaks=("best_place",)))
    assert table(broken) == [(1, False, "C", 100), (2, False, "B", 100), (3, False, "A", -200)]
    assert [s.tie_break for s in broken] == ["best_place", "best_place", ""]


def test_best_one_result():
    standings = season_standings(SEASON, Formula(best=1))
    assert table(standings) == [(1, False, "C", 500), (2, False, "A", 300), (3, False, "B", 100)]
    a = next(s for s in standings if s.player == "A")
    assert [(line.points, line.counted) for line in a.lines] == [(300, True), (-500, False)]


def test_points_by_place_default_table_and_attendance_bonus():
    formula = Formula(kind="places", attendance_bonus=5)
    # A: 100 + 80, B: 90 + 90, C: 80 + 100, and 5 for each of the two tournaments played.
    assert table(season_standings(SEASON, formula)) == [
        (1, True, "A", 190),
        (1, True, "B", 190),
        (1, True, "C", 190),
    ]
    formula = Formula(kind="places", place_points=(100, 95, 50))
    assert table(season_standings(SEASON, formula)) == [
        (1, False, "B", 190),
        (2, True, "A", 150),
        (2, True, "C", 150),
    ]


def test_places_beyond_the_table_are_worth_nothing_and_ties_share_the_place():
    formula = Formula(kind="places", place_points=(10, 5))
    results = [
        result(1, "A", 1, 50, tied=True),
        result(1, "B", 1, 50, tied=True),
        result(1, "C", 3, -100),
    ]
    assert table(season_standings(results, formula)) == [
        (1, True, "A", 10),
        (1, True, "B", 10),
        (3, False, "C", 0),
    ]


def test_scaled_by_the_number_of_players():
    formula = Formula(kind="places", scale_to=40)
    assert place_points(formula, 1, 60) == 150  # 100 × 60 ÷ 40
    assert place_points(formula, 2, 30) == 68  # 90 × 30 ÷ 40 = 67.5, halves up
    assert place_points(formula, 11, 60) == 0


def test_bad_formulas_are_refused_with_a_reason():
    for formula, code in [
        (Formula(kind="medals"), "kind"),
        (Formula(place_points=()), "place_points.count"),
        (Formula(place_points=(10, 20)), "place_points.order"),
        (Formula(tie_breaks=("coin",)), "tie_breaks"),
        (Formula(best=-1), "best"),
    ]:
        with pytest.raises(FormulaError) as raised:
            season_standings([], formula)
        assert raised.value.code == code


def test_career_figures_and_progression():
    mine = [r for r in SEASON if r.player == "A"]
    career = Career(tuple(mine))
    assert (career.played, career.total, career.average) == (2, -200, -100)
    assert (career.best_total, career.best_place, career.wins) == (300, 1, 1)
    assert progression(Formula(), mine) == [300, -200]
    assert progression(Formula(best=1), mine) == [300, 300]
    assert progression(Formula(kind="places", attendance_bonus=5), mine) == [105, 190]


# --- invariants ------------------------------------------------------------------------------

formulas = st.builds(
    Formula,
    kind=st.sampled_from(["totals", "places"]),
    best=st.integers(0, 6),
    place_points=st.lists(st.integers(0, 200), min_size=1, max_size=12).map(
        lambda ps: tuple(sorted(ps, reverse=True))
    ),
    scale_to=st.sampled_from([0, 0, 10, 32]),
    attendance_bonus=st.integers(0, 20),
    tie_breaks=st.sampled_from([(), ("best_place",), ("played",), ("best_place", "played")]),
)


@st.composite
def seasons(draw):
    """Tournaments with competition places (ties share), each player at most once in each."""
    players = draw(st.lists(st.sampled_from("ABCDEFGH"), min_size=1, max_size=8, unique=True))
    results = []
    for tournament in range(draw(st.integers(0, 6))):
        field = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        totals = draw(st.lists(st.integers(-900, 900), min_size=len(field), max_size=len(field)))
        ordered = sorted(zip(field, totals, strict=True), key=lambda pt: -pt[1])
        for player, total in ordered:
            place = 1 + sum(1 for _, t in ordered if t > total)
            tied = sum(1 for _, t in ordered if t == total) > 1
            results.append(Result(tournament, player, player, place, total, len(field), tied))
    return results


@given(seasons(), formulas)
def test_every_player_once_ranked_by_decreasing_points(results, formula):
    standings = season_standings(results, formula)
    assert sorted(s.player for s in standings) == sorted({r.player for r in results})
    points = [s.points for s in standings]
    assert points == sorted(points, reverse=True)
    for s in standings:
        higher = sum(1 for o in standings if o.points > s.points)
        assert higher < s.rank <= higher + sum(1 for o in standings if o.points == s.points)
        if not formula.tie_breaks:
            assert s.rank == higher + 1
            assert s.tied == (sum(1 for o in standings if o.points == s.points) > 1)
            assert s.tie_break == ""
        if s.tied:
            assert any(o.rank == s.rank and o.player != s.player for o in standings)


@given(seasons(), formulas)
def test_points_are_the_counted_lines_and_the_bonus(results, formula):
    for s in season_standings(results, formula):
        mine = [r for r in results if r.player == s.player]
        assert s.played == len(mine)
        assert s.points == season_points(formula, mine)
        counted = [line.points for line in s.lines if line.counted]
        assert len(counted) == (min(formula.best, len(mine)) if formula.best else len(mine))
        best = sorted((line.points for line in s.lines), reverse=True)
        assert sorted(counted, reverse=True) == best[: len(counted)]
        assert s.points == sum(counted) + formula.attendance_bonus * len(mine)
        if formula.kind == "totals" and not formula.best and not formula.attendance_bonus:
            assert s.points == sum(r.total for r in mine)


@given(seasons(), formulas, st.randoms(use_true_random=False))
def test_the_order_of_results_changes_nothing(results, formula, rnd):
    shuffled = list(results)
    rnd.shuffle(shuffled)
    first = {s.player: (s.rank, s.points, s.tied) for s in season_standings(results, formula)}
    second = {s.player: (s.rank, s.points, s.tied) for s in season_standings(shuffled, formula)}
    assert first == second


@given(formulas, st.integers(1, 30), st.integers(1, 30), st.integers(1, 200))
def test_a_better_place_is_never_worth_less(formula, place, other, field_size):
    better, worse = sorted((place, other))
    assert place_points(formula, better, field_size) >= place_points(formula, worse, field_size)
    assert place_points(formula, worse, field_size) >= 0


@given(seasons(), formulas, st.integers(1, 50))
def test_the_attendance_bonus_adds_bonus_times_played(results, formula, extra):
    before = {s.player: s for s in season_standings(results, formula)}
    more = replace(formula, attendance_bonus=formula.attendance_bonus + extra)
    for s in season_standings(results, more):
        assert s.points == before[s.player].points + extra * s.played


@given(seasons(), formulas)
def test_progression_ends_on_the_season_points(results, formula):
    for s in season_standings(results, formula):
        mine = [r for r in results if r.player == s.player]
        assert progression(formula, mine)[-1] == s.points


def test_default_table():
    assert DEFAULT_PLACE_POINTS == (100, 90, 80, 70, 60, 50, 40, 30, 20, 10)


# Each limit of a season formula, on the limit and one step beyond it: (the formula, the code
# of its refusal, or None when the club may choose it).
LIMITS = [
    (Formula(best=0), None),
    (Formula(best=1000), None),
    (Formula(best=-1), "best"),
    (Formula(best=1001), "best"),
    (Formula(kind="places", place_points=(5,)), None),
    (Formula(kind="places", place_points=(1,) * 200), None),
    (Formula(kind="places", place_points=()), "place_points.count"),
    (Formula(kind="places", place_points=(1,) * 201), "place_points.count"),
    (Formula(kind="places", place_points=(100_000, 0)), None),
    (Formula(kind="places", place_points=(100_001,)), "place_points.range"),
    (Formula(kind="places", place_points=(10, -1)), "place_points.range"),
    (Formula(kind="places", place_points=(10, 10)), None),  # two places worth the same
    (Formula(kind="places", place_points=(10, 11)), "place_points.order"),
    (Formula(kind="places", scale_to=10_000), None),
    (Formula(kind="places", scale_to=10_001), "scale_to"),
    (Formula(scale_to=-1), "scale_to"),
    (Formula(attendance_bonus=100_000), None),
    (Formula(attendance_bonus=100_001), "attendance_bonus"),
    (Formula(attendance_bonus=-1), "attendance_bonus"),
    (Formula(tie_breaks=("best_place", "played")), None),
    (Formula(tie_breaks=("played", "played")), "tie_breaks"),
    (Formula(tie_breaks=("coin",)), "tie_breaks"),
    (Formula(kind="medals"), "kind"),
]


@pytest.mark.parametrize(("formula", "code"), LIMITS)
def test_each_formula_limit_is_allowed_on_the_limit_and_refused_one_step_beyond(formula, code):
    if code is None:
        formula.check()
        assert season_standings([Result("t", "p", "Paul", 1, 10, 4)], formula)[0].rank == 1
    else:
        with pytest.raises(FormulaError) as raised:
            formula.check()
        assert raised.value.code == code


# --- cases a club's referee would check by hand ----------------------------------------------


def test_more_tournaments_played_decides_on_its_own():
    """Zoé and Anne both end on 100; Zoé played three tournaments, Anne one. Name order would
    put Anne first: only the club's « played » tie-break puts Zoé there."""
    results = [
        result(1, "z", 2, 20),
        result(2, "z", 1, 50),
        result(3, "z", 3, 30),
        result(2, "a", 2, 100),
    ]
    results = [replace(r, name="Zoé" if r.player == "z" else "Anne") for r in results]
    assert [(s.name, s.rank, s.tied) for s in season_standings(results, Formula())] == [
        ("Anne", 1, True),
        ("Zoé", 1, True),
    ]
    played = season_standings(results, Formula(tie_breaks=("played",)))
    assert [(s.name, s.rank, s.tied, s.tie_break, s.played) for s in played] == [
        ("Zoé", 1, False, "played", 3),
        ("Anne", 2, False, "played", 1),
    ]
    # With the best place asked first, Zoé's win decides before « played » is asked.
    best_first = season_standings(results, Formula(tie_breaks=("best_place", "played")))
    assert [(s.name, s.tie_break) for s in best_first] == [
        ("Zoé", "best_place"),
        ("Anne", "best_place"),
    ]


def test_each_standing_names_its_player_and_their_attendance_bonus():
    """Three tournaments at 5 points each for attending: Léa played two, Marc one. The name
    shown is the one of the player's latest result (a spelling corrected during the season)."""
    results = [
        Result(1, "l", "Lea Martin", 1, 120, 8),
        Result(2, "l", "Léa Martin", 3, -40, 8),
        Result(3, "m", "Marc Petit", 2, 60, 8),
    ]
    standings = season_standings(results, Formula(attendance_bonus=5))
    assert [(s.name, s.points, s.bonus, s.played) for s in standings] == [
        ("Léa Martin", 90, 10, 2),
        ("Marc Petit", 65, 5, 1),
    ]


def test_namesakes_level_on_points_keep_one_order_whatever_order_the_results_came_in():
    """Two players called « Martin » (player 3 and player 7) tie on 40: the list shows them in
    the same order on every page, whichever tournament was entered first."""
    three = Result(1, 3, "Martin", 1, 40, 8, tied=True)
    seven = Result(1, 7, "Martin", 1, 40, 8, tied=True)
    for results in ([three, seven], [seven, three]):
        standings = season_standings(results, Formula())
        assert [(s.player, s.rank, s.tied) for s in standings] == [(3, 1, True), (7, 1, True)]

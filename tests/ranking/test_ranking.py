"""The ranking code, with hand-made cases (no database)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.ranking import (
    Entry,
    progression,
    progression_of,
    rank,
    rank_teams,
    standing_of,
)


def names(standings):
    return [(s.rank, s.tied, s.entry.name, s.total) for s in standings]


def test_decreasing_total_and_ties_share_the_rank():
    entries = [
        Entry(1, "Alice", rounds={1: 120, 2: -30}),
        Entry(2, "Bruno", rounds={1: 90}),
        Entry(3, "Chloé", rounds={1: 60, 2: 30}),
        Entry(4, "Denis", rounds={1: -300}),
    ]
    assert names(rank(entries)) == [
        (1, True, "Alice", 90),
        (1, True, "Bruno", 90),
        (1, True, "Chloé", 90),
        (4, False, "Denis", -300),
    ]


def test_penalties_are_included():
    entries = [
        Entry(1, "Alice", rounds={1: 100}, penalties={1: -20}),
        Entry(2, "Bruno", rounds={1: 90}),
    ]
    assert names(rank(entries)) == [(1, False, "Bruno", 90), (2, False, "Alice", 80)]
    assert entries[0].penalty_total == -20


def test_withdrawn_players_keep_their_points_and_rank():
    entries = [Entry(1, "Alice", rounds={1: 50}, withdrawn=True), Entry(2, "Bruno", rounds={1: 10})]
    standings = rank(entries)
    assert standings[0].entry.withdrawn and standings[0].rank == 1


def test_after_a_round():
    entries = [Entry(1, "Alice", rounds={1: 10, 2: 100}), Entry(2, "Bruno", rounds={1: 50, 2: 0})]
    assert names(rank(entries, through=1)) == [(1, False, "Bruno", 50), (2, False, "Alice", 10)]
    assert names(rank(entries)) == [(1, False, "Alice", 110), (2, False, "Bruno", 50)]


def test_best_round_tie_break_is_labelled():
    entries = [Entry(1, "Alice", rounds={1: 50, 2: 50}), Entry(2, "Bruno", rounds={1: 90, 2: 10})]
    standings = rank(entries, tie_breaks=["best_round"])
    assert names(standings) == [(1, False, "Bruno", 100), (2, False, "Alice", 100)]
    assert [s.tie_break for s in standings] == ["best_round", "best_round"]


def test_fewer_fives_tie_break():
    entries = [Entry(1, "Alice", rounds={1: 40}, fives=1), Entry(2, "Bruno", rounds={1: 40})]
    assert [s.entry.name for s in rank(entries, tie_breaks=["fewer_fives"])] == ["Bruno", "Alice"]


def test_head_to_head_counts_rounds_at_the_same_table():
    # Alice and Bruno both total 100; in round 2 they sat together and Bruno did better.
    entries = [
        Entry(1, "Alice", rounds={1: 120, 2: -20}, tables={1: "t1", 2: "t9"}),
        Entry(2, "Bruno", rounds={1: 40, 2: 60}, tables={1: "t2", 2: "t9"}),
        Entry(3, "Chloé", rounds={1: 0, 2: 0}, tables={1: "t1", 2: "t8"}),
    ]
    standings = rank(entries, tie_breaks=["head_to_head"])
    assert [s.entry.name for s in standings[:2]] == ["Bruno", "Alice"]
    assert not standings[0].tied


def test_unresolved_tie_break_still_shares_the_rank():
    entries = [Entry(1, "Alice", rounds={1: 50}), Entry(2, "Bruno", rounds={1: 50})]
    standings = rank(entries, tie_breaks=["best_round"])
    assert [(s.rank, s.tied) for s in standings] == [(1, True), (1, True)]


def test_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="unknown tie-break"):
        rank([], tie_breaks=["coin_toss"])


def test_team_total_is_the_sum_of_members_including_withdrawn():
    entries = [
        Entry(1, "Alice", team="A", rounds={1: 100}),
        Entry(2, "Bruno", team="A", rounds={1: -40}, withdrawn=True),
        Entry(3, "Chloé", team="B", rounds={1: 30}),
        Entry(4, "Denis", team="B", rounds={1: 30}),
        Entry(5, "Émile", team="C", rounds={1: -120}),
    ]
    teams = rank_teams(entries, {"A": "Les Bouts", "B": "L'Excuse", "C": "Garde"})
    assert [(t.rank, t.tied, t.name, t.total) for t in teams] == [
        (1, True, "L'Excuse", 60),
        (1, True, "Les Bouts", 60),
        (3, False, "Garde", -120),
    ]
    les_bouts = teams[1]
    assert [(m.name, m.total) for m in les_bouts.members] == [("Alice", 100), ("Bruno", -40)]


def test_tables_of_five_and_three_rank_like_any_other():
    # Players at a table of 5 sat out a deal (0 points); the ranking only sees round totals.
    entries = [
        Entry(i, f"P{i}", rounds={1: v}, fives=1 if i < 5 else 0)
        for i, v in enumerate([300, -75, -75, -75, -75, 40, -40])
    ]
    assert [s.total for s in rank(entries)] == [300, 40, -40, -75, -75, -75, -75]


def test_progression_gives_total_and_rank_after_each_round():
    entries = [Entry(1, "Alice", rounds={1: 10, 2: 100}), Entry(2, "Bruno", rounds={1: 50})]
    assert progression(entries, [1, 2]) == {
        1: [(1, 10, 2), (2, 110, 1)],
        2: [(1, 50, 1), (2, 50, 2)],
    }


round_points = st.dictionaries(st.integers(1, 6), st.integers(-400, 400), max_size=6)
fields = st.fixed_dictionaries(
    {"rounds": round_points, "penalties": st.dictionaries(st.integers(1, 6), st.integers(-50, 0))}
)


@given(st.lists(fields, max_size=12), st.lists(st.integers(1, 6), unique=True, max_size=6))
def test_progression_is_the_plain_ranking_after_each_round(players, seated):
    """The one-pass "me" chart agrees with ranking the field after each round."""
    entries = [Entry(i, f"P{i}", **p) for i, p in enumerate(players)]
    seated = sorted(set(seated) | {n for p in players for n in p["rounds"]})
    chart = progression(entries, seated)
    for round_number in seated:
        for standing in rank(entries, through=round_number):
            assert (round_number, standing.total, standing.rank) in chart[standing.entry.id]
    assert all(len(points) == len(seated) for points in chart.values())


@given(st.lists(fields, max_size=12), st.sampled_from([(), ("best_round",), ("fewer_fives",)]))
def test_ranking_orders_by_total_and_ties_share_the_rank(players, tie_breaks):
    standings = rank([Entry(i, f"P{i}", **p) for i, p in enumerate(players)], tie_breaks=tie_breaks)
    totals = [s.total for s in standings]
    assert totals == sorted(totals, reverse=True)
    for before, after in itertools.pairwise(standings):
        if before.total != after.total:
            assert after.rank == standings.index(after) + 1
        elif not tie_breaks:
            assert after.rank == before.rank and before.tied and after.tied


# A player's own page ranks only that player: it must say exactly what the standings say.
small_points = st.integers(-3, 3).map(lambda v: v * 20)  # few values: many ties to break
player_fields = st.fixed_dictionaries(
    {
        "rounds": st.dictionaries(st.integers(1, 4), small_points, max_size=4),
        "penalties": st.dictionaries(st.integers(1, 4), st.sampled_from([0, -20]), max_size=2),
        "fives": st.integers(0, 2),
        "tables": st.dictionaries(st.integers(1, 4), st.integers(1, 3), max_size=4),
    }
)
tie_break_choices = st.lists(
    st.sampled_from(["best_round", "fewer_fives", "head_to_head"]), unique=True, max_size=3
)


@given(
    st.lists(player_fields, max_size=14),
    tie_break_choices,
    st.one_of(st.none(), st.integers(1, 4)),
)
def test_one_players_standing_is_theirs_in_the_standings(players, tie_breaks, through):
    entries = [Entry(i, f"P{i % 5}", **p) for i, p in enumerate(players)]
    for standing in rank(entries, tie_breaks=tie_breaks, through=through):
        assert (
            standing_of(entries, standing.entry.id, tie_breaks=tie_breaks, through=through)
            == standing
        )
    assert standing_of(entries, "absent", tie_breaks=tie_breaks) is None


@given(st.lists(fields, max_size=12), st.lists(st.integers(1, 6), unique=True, max_size=6))
def test_one_players_progression_is_theirs_in_the_progression(players, seated):
    entries = [Entry(i, f"P{i}", **p) for i, p in enumerate(players)]
    chart = progression(entries, seated)
    for entry in entries:
        assert progression_of(entries, seated, entry.id) == chart[entry.id]
    assert progression_of(entries, seated, "absent") == []


def test_one_players_standing_after_a_tie_break():
    entries = [
        Entry(1, "Alice", rounds={1: 50, 2: 50}),
        Entry(2, "Bruno", rounds={1: 90, 2: 10}),
        Entry(3, "Chloé", rounds={1: 200}),
    ]
    alice = standing_of(entries, 1, tie_breaks=["best_round"])
    assert (alice.rank, alice.tied, alice.total, alice.tie_break) == (3, False, 100, "best_round")

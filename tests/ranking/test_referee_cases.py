"""Standings a referee would work out by hand: in each case only one tie-break, one round or
one table decides the order, so a tie-break that stopped deciding would show."""

from dataclasses import replace

import pytest

from tournaments.ranking import (
    Entry,
    progression,
    progression_of,
    rank,
    rank_label,
    rank_teams,
    standing_of,
)


def order(standings) -> list[tuple[str, int, bool, str]]:
    return [(s.entry.name, s.rank, s.tied, s.tie_break) for s in standings]


# Alphabetical order would put Anne first: only the tie-break puts Zoé there.
ZOE_BEST = Entry(id="z", name="Zoé", rounds={1: 100, 2: -20})  # 80, best round 100
ANNE_STEADY = Entry(id="a", name="Anne", rounds={1: 40, 2: 40})  # 80, best round 40
BRUNO = Entry(id="b", name="Bruno", rounds={1: 30, 2: 20})  # 50


def test_without_a_tie_break_equal_totals_share_the_rank():
    assert order(rank([BRUNO, ZOE_BEST, ANNE_STEADY])) == [
        ("Anne", 1, True, ""),
        ("Zoé", 1, True, ""),
        ("Bruno", 3, False, ""),
    ]


def test_the_best_round_decides_between_equal_totals():
    assert order(rank([BRUNO, ANNE_STEADY, ZOE_BEST], tie_breaks=["best_round"])) == [
        ("Zoé", 1, False, "best_round"),
        ("Anne", 2, False, "best_round"),
        ("Bruno", 3, False, ""),
    ]


def test_fewer_rounds_at_a_table_of_five_decides_when_the_best_rounds_are_equal():
    yves = Entry(id="y", name="Yves", rounds={1: 50, 2: 30}, fives=0)
    alice = Entry(id="a", name="Alice", rounds={1: 50, 2: 30}, fives=2)
    both = ["best_round", "fewer_fives"]
    assert order(rank([alice, yves], tie_breaks=both)) == [
        ("Yves", 1, False, "fewer_fives"),
        ("Alice", 2, False, "fewer_fives"),
    ]
    # Same best round and same tables of five: still tied, in name order.
    twin = Entry(id="t", name="Anaïs", rounds={1: 50, 2: 30}, fives=2)
    assert order(rank([alice, twin], tie_breaks=both)) == [
        ("Alice", 1, True, ""),
        ("Anaïs", 1, True, ""),
    ]


# Three players on 100. Claire sat with Zacharie in round 1 (table 1), Zacharie with Bertrand in
# round 2 (table 7); Bertrand and Claire never met. David (not tied) sat with Zacharie in round 2.
ZACHARIE = Entry(id="z", name="Zacharie", rounds={1: 40, 2: 60}, tables={1: 1, 2: 7})
BERTRAND = Entry(id="b", name="Bertrand", rounds={1: 160, 2: -60}, tables={1: 2, 2: 7})
CLAIRE = Entry(id="c", name="Claire", rounds={1: 80, 2: 20}, tables={1: 1, 2: 8})
DAVID = Entry(id="d", name="David", rounds={1: 0, 2: 500}, tables={1: 3, 2: 7})


def test_head_to_head_counts_only_the_rounds_shared_with_another_tied_player():
    """Zacharie: 40 with Claire + 60 with Bertrand = 100 (both rounds count). Claire: 80 in
    round 1 with Zacharie. Bertrand: -60 with Zacharie (his 160 of round 1, at another table,
    does not count). David's 500 beside Zacharie is not a tied player's."""
    standings = rank([BERTRAND, DAVID, ZACHARIE, CLAIRE], tie_breaks=["head_to_head"])
    assert order(standings) == [
        ("David", 1, False, ""),
        ("Zacharie", 2, False, "head_to_head"),
        ("Claire", 3, False, "head_to_head"),
        ("Bertrand", 4, False, "head_to_head"),
    ]


def test_head_to_head_between_two_who_never_met_decides_nothing():
    standings = rank([BERTRAND, CLAIRE], tie_breaks=["head_to_head"])
    assert order(standings) == [("Bertrand", 1, True, ""), ("Claire", 1, True, "")]


def test_one_players_standing_is_the_one_of_the_full_standings():
    entries = [BERTRAND, DAVID, ZACHARIE, CLAIRE]
    for tie_breaks in ([], ["head_to_head"], ["best_round", "head_to_head"]):
        full = {s.entry.id: s for s in rank(entries, tie_breaks=tie_breaks)}
        for entry in entries:
            assert standing_of(entries, entry.id, tie_breaks=tie_breaks) == full[entry.id]
    assert standing_of(entries, "nobody") is None


# After round 1 the order is not the final one; a round-2 penalty waits for round 2.
EVE = Entry(id="e", name="Ève", rounds={1: 90, 2: -100}, team="T1")
FANNY = Entry(id="f", name="Fanny", rounds={1: 10, 2: 50}, penalties={2: -20}, team="T2")
GUY = Entry(id="g", name="Guy", rounds={1: -40, 2: 30}, penalties={1: -10}, team="T1")
HUGO = Entry(id="h", name="Hugo", rounds={1: -60, 2: 20}, team="T2")


def test_standings_after_round_one_leave_out_the_later_rounds_and_penalties():
    after_one = rank([EVE, FANNY, GUY, HUGO], through=1)
    assert [(s.entry.name, s.rank, s.total) for s in after_one] == [
        ("Ève", 1, 90),
        ("Fanny", 2, 10),
        ("Guy", 3, -50),
        ("Hugo", 4, -60),
    ]
    final = rank([EVE, FANNY, GUY, HUGO])
    assert [(s.entry.name, s.rank, s.total) for s in final] == [
        ("Fanny", 1, 40),
        ("Ève", 2, -10),
        ("Guy", 3, -20),
        ("Hugo", 4, -40),
    ]


def test_team_standings_after_round_one_are_not_the_final_ones():
    names = {"T1": "Les Bouts", "T2": "Les Rois", "T3": "Absents"}
    after_one = rank_teams([EVE, FANNY, GUY, HUGO], names, through=1)
    assert [(t.name, t.rank, t.tied, t.total) for t in after_one] == [
        ("Les Bouts", 1, False, 40),  # Ève 90, Guy -40 - 10
        ("Absents", 2, False, 0),
        ("Les Rois", 3, False, -50),  # Fanny 10, Hugo -60
    ]
    assert [m.name for m in after_one[0].members] == ["Ève", "Guy"]  # best contribution first
    final = rank_teams([EVE, FANNY, GUY, HUGO], names)
    assert [(t.name, t.rank, t.tied, t.total) for t in final] == [
        ("Absents", 1, True, 0),  # a team with no player counts 0
        ("Les Rois", 1, True, 0),  # Fanny 40, Hugo -40
        ("Les Bouts", 3, False, -30),  # Ève -10, Guy -20
    ]
    assert [m.name for m in final[1].members] == ["Fanny", "Hugo"]


def test_the_players_chart_gives_the_total_and_rank_after_each_round():
    chart = progression([EVE, FANNY, GUY, HUGO], [2, 1])
    assert chart["e"] == [(1, 90, 1), (2, -10, 2)]
    assert chart["g"] == [(1, -50, 3), (2, -20, 3)]
    assert chart["h"] == [(1, -60, 4), (2, -40, 4)]
    for entry in (EVE, FANNY, GUY, HUGO):
        assert progression_of([EVE, FANNY, GUY, HUGO], [1, 2], entry.id) == chart[entry.id]


def test_a_round_being_played_does_not_count_in_head_to_head():
    """Round 2 is seated (Paul and Quentin at table 4) but no deal is scored yet: the three
    players level on 0 who never met stay level."""
    paul = Entry(id="p", name="Paul", rounds={1: 0}, tables={1: 1, 2: 4})
    quentin = Entry(id="q", name="Quentin", rounds={1: 0}, tables={1: 2, 2: 4})
    rose = Entry(id="r", name="Rose", rounds={1: 0}, tables={1: 3, 2: 5})
    standings = rank([paul, quentin, rose], tie_breaks=["head_to_head"])
    assert order(standings) == [
        ("Paul", 1, True, ""),
        ("Quentin", 1, True, ""),
        ("Rose", 1, True, ""),
    ]


def test_a_team_without_a_name_is_ranked_under_its_number():
    names = {"T1": "Les Bouts"}  # team 7 was never named
    seven = [replace(FANNY, team=7), replace(HUGO, team=7)]
    standings = rank_teams([EVE, GUY, *seven], names)
    assert [(t.team, t.name, t.rank, t.total) for t in standings] == [
        (7, "7", 1, 0),
        ("T1", "Les Bouts", 2, -30),
    ]


def test_two_still_tied_after_the_tie_break_are_not_said_to_be_decided_by_it():
    """Three on 80: Anne and Yann have the same best round (100), Bruno a lower one (80)."""
    anne = Entry(id="a", name="Anne", rounds={1: 100, 2: -20})
    yann = Entry(id="y", name="Yann", rounds={1: -20, 2: 100})
    bruno = Entry(id="b", name="Bruno", rounds={1: 80, 2: 0})
    assert order(rank([bruno, yann, anne], tie_breaks=["best_round"])) == [
        ("Anne", 1, True, ""),
        ("Yann", 1, True, ""),
        ("Bruno", 3, False, "best_round"),
    ]


def test_an_unknown_tie_break_names_the_known_ones():
    with pytest.raises(ValueError, match="'coin'; known: best_round, fewer_fives, head_to_head"):
        rank([ANNE_STEADY], tie_breaks=["coin"])


def test_a_shared_rank_prints_with_an_equals_sign_and_a_single_one_as_a_number():
    """Anne and Zoé share 1st place: the standings print « 1= » twice; Bruno's 3rd stays the
    number 3, so that a spreadsheet export can sort on it."""
    standings = rank([BRUNO, ZOE_BEST, ANNE_STEADY])
    assert [rank_label(s.rank, s.tied) for s in standings] == ["1=", "1=", 3]


def test_the_chart_through_round_two_leaves_out_round_three_whatever_order_points_come_in():
    """Round 3 is under way: its points and a penalty given in it are already entered (and
    come first), a penalty of round 1 was entered later. Shown through round 2, the chart
    counts rounds 1 and 2 and the round-1 penalty, nothing of round 3."""
    ines = Entry(id="i", name="Inès", rounds={3: 70, 1: 20, 2: 10}, penalties={3: -30, 1: -5})
    jean = Entry(id="j", name="Jean", rounds={1: 30, 2: -20, 3: 0})
    chart = progression([ines, jean], [1, 2])
    assert chart["i"] == [(1, 15, 2), (2, 25, 1)]
    assert chart["j"] == [(1, 30, 1), (2, 10, 2)]
    assert progression_of([ines, jean], [1, 2], "i") == chart["i"]

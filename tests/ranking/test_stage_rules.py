"""A championship's stage rules (no database): the cut, ties at the cut, carried points, the
snake and the final ranking; and carried points in the tournament ranking."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.championships import rules
from tournaments.championships.rules import (
    Invitation,
    Ranked,
    carried_points,
    cut,
    cut_size,
    final_ranking,
    pool_of,
    snake,
)
from tournaments.ranking import Entry, progression, progression_of, rank, standing_of


def ranked(totals, *, groups=None, series=None, declined=(), tie_breaks=None):
    """Players 1..n with these totals, ranked as the standings rank them (ties share)."""
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    out = []
    for i in order:
        first = next(p for p, j in enumerate(order) if totals[j] == totals[i])
        tied = sum(1 for t in totals if t == totals[i]) > 1
        out.append(
            Ranked(
                id=i + 1,
                rank=first + 1,
                total=totals[i],
                tied=tied,
                group=groups[i] if groups else "",
                series=series[i] if series else "",
                declined=(i + 1) in declined,
                tie_break=(tie_breaks or {}).get(i + 1, ""),
            )
        )
    return out


# --- carried points --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "total, carry, expected",
    [
        (100, "none", 0),
        (100, "all", 100),
        (-100, "all", -100),
        (100, "half", 50),
        (35, "half", 18),
        (-35, "half", -18),
        (34, "half", 17),
        (10, "third", 3),
        (11, "third", 4),
        (-11, "third", -4),
        (2, "third", 1),
        (1, "third", 0),
        (-1, "third", 0),
        (6, "quarter", 2),
        (5, "quarter", 1),
        (-6, "quarter", -2),
        (7, "quarter", 2),
        (0, "half", 0),
    ],
)
def test_carried_points_round_to_the_nearest_point_halves_away_from_zero(total, carry, expected):
    assert carried_points(total, carry) == expected


@given(st.integers(-10_000, 10_000), st.sampled_from(sorted(rules.CARRY)))
def test_carried_points_are_symmetric_and_the_nearest_share(total, carry):
    numerator, denominator = rules.CARRY[carry]
    share = carried_points(total, carry)
    assert carried_points(-total, carry) == -share
    assert abs(share - total * numerator / denominator) <= 0.5
    exact = abs(total) * numerator / denominator
    if exact - math.floor(exact) == 0.5:
        assert abs(share) == math.ceil(exact)


def test_unknown_carry_is_refused():
    with pytest.raises(KeyError):
        carried_points(10, "double")


# --- cut size ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, mode, value, expected",
    [
        (488, "top", 244, 244),
        (10, "top", 12, 10),
        (10, "top", 0, 0),
        (488, "percent", 50, 244),
        (244, "percent", 42, 103),  # 102.48 rounded up
        (10, "percent", 25, 3),  # 2.5 rounded up
        (8, "percent", 25, 2),
        (10, "percent", 100, 10),
        (10, "percent", 150, 10),
        (0, "percent", 50, 0),
        (1, "percent", 1, 1),
    ],
)
def test_cut_size(size, mode, value, expected):
    assert cut_size(size, mode=mode, value=value) == expected


def test_a_bad_cut_is_refused():
    with pytest.raises(ValueError, match=r"^unknown cut mode 'best'; known: top, percent$"):
        cut_size(10, mode="best", value=3)
    with pytest.raises(ValueError, match=r"^a cut is never negative$"):
        cut_size(10, mode="top", value=-1)
    with pytest.raises(ValueError, match=r"^unknown scope 'hall'; known: stage, group, series$"):
        pool_of(Ranked(id=1, rank=1, total=0), "hall")


@given(st.integers(0, 3000), st.integers(0, 100))
def test_percent_is_rounded_up_and_never_more_than_the_field(size, percent):
    n = cut_size(size, mode="percent", value=percent)
    assert n == min(size, math.ceil(size * percent / 100))


# --- the cut -----------------------------------------------------------------------------------


def test_the_top_n_go_on_in_rank_order():
    result = cut(ranked([50, 90, 10, 70]), mode="top", value=2)
    assert result.qualified == (2, 4)
    assert result.places == {"": 2}
    assert result.last_in == {"": 4}
    assert result.ties == ()
    assert result.pools == {2: "", 4: "", 1: "", 3: ""}


def test_a_tie_at_the_cut_is_drawn_reproducibly_and_explained():
    standings = ranked([100, 50, 50, 50, 0])
    first = cut(standings, mode="top", value=2, seed=7)
    again = cut(standings, mode="top", value=2, seed=7)
    assert first == again
    assert first.qualified[0] == 1 and first.qualified[1] in (2, 3, 4)
    (tie,) = first.ties
    assert tie.rank == 2 and tie.decided_by == "draw"
    assert sorted(tie.players) == [2, 3, 4]
    assert tie.qualified == (first.qualified[1],)
    assert tie.players[0] == first.qualified[1]  # the draw's order decides
    winners = {cut(standings, mode="top", value=2, seed=s).qualified[1] for s in range(40)}
    assert winners == {2, 3, 4}  # every tied player can win the draw


def test_the_draw_is_pinned_by_the_seed_and_the_pool_whatever_the_order_given():
    standings = ranked([100, 50, 50, 50, 0])
    assert cut(standings, mode="top", value=2, seed=7).ties == (
        rules.Tie(pool="", rank=2, players=(4, 2, 3), qualified=(4,), decided_by="draw"),
    )
    reordered = [standings[0], standings[3], standings[1], standings[2], standings[4]]
    assert cut(reordered, mode="top", value=2, seed=7).ties[0].players == (4, 2, 3)
    # The pool is part of the draw: the same players in série « P » draw otherwise.
    in_series = ranked([100, 50, 50, 50, 0], series=["P"] * 5)
    assert cut(in_series, mode="top", value=2, seed=7, scope="series").ties == (
        rules.Tie(pool="P", rank=2, players=(3, 2, 4), qualified=(3,), decided_by="draw"),
    )


def test_a_tie_break_at_the_cut_below_a_shared_rank_is_named_not_drawn():
    # B and C share rank 2; D, level on points, was put 4th by the better round.
    standings = [
        Ranked(id="A", rank=1, total=100),
        Ranked(id="B", rank=2, total=50, tied=True),
        Ranked(id="C", rank=2, total=50, tied=True),
        Ranked(id="D", rank=4, total=50, tie_break="best_round"),
    ]
    result = cut(standings, mode="top", value=3)
    assert result.qualified == ("A", "B", "C")
    assert result.ties == (
        rules.Tie(
            pool="",
            rank=2,
            players=("B", "C", "D"),
            qualified=("B", "C"),
            decided_by="best_round",
        ),
    )


def test_the_draw_seed_defaults_to_zero_and_the_winners_go_on_in_the_draw_order():
    standings = ranked([100, 50, 50, 50, 0])
    assert cut(standings, mode="top", value=2).qualified == (1, 4)
    assert cut(standings, mode="top", value=2, seed=1).qualified == (1, 3)
    # Two of the three tied go on: in the order of the draw (4, 2, 3), not of the list.
    assert cut(standings, mode="top", value=3, seed=0).qualified == (1, 4, 2)


def test_a_draw_in_one_serie_beside_a_plain_cut_in_another_at_the_same_rank():
    standings = ranked([100, 50, 50, 50, 90, 50, 0], series=["P", "P", "P", "P", "O", "O", "O"])
    result = cut(standings, mode="top", value=2, scope="series", seed=0)
    (tie,) = result.ties
    assert tie.pool == "P" and tie.rank == 3
    assert set(result.qualified) == {1, 5, 6, *tie.qualified}
    assert result.qualified[:2] == (1, 5)


def test_same_rank_across_series_keeps_the_standings_order_drawn_or_not():
    standings = ranked([90, 90, 0, 90, 50, 90], series=["P", "O", "P", "P", "O", "P"])
    result = cut(standings, mode="top", value=1, scope="series", seed=1)
    assert result.ties[0].qualified == (6,)
    assert result.qualified == (2, 6)  # both first of their série: as the standings list them


def test_a_withdrawal_level_with_the_last_one_in_is_replaced():
    result = cut(ranked([90, 70, 70, 10], declined={2}), mode="top", value=2)
    assert result.qualified == (1, 3)
    assert result.replaced == (2,)
    assert result.ties == ()


def test_a_tie_inside_the_cut_needs_no_draw():
    result = cut(ranked([100, 100, 50, 0]), mode="top", value=2)
    assert result.qualified == (1, 2) and result.ties == ()


def test_a_tie_just_under_the_cut_needs_no_draw():
    result = cut(ranked([100, 50, 0, 0]), mode="top", value=2)
    assert result.qualified == (1, 2) and result.ties == ()


def test_a_tie_decided_by_the_stage_tie_break_is_explained():
    # Totals equal, but the tie-break ranked 3 before 2 (ranks 2 and 3, not shared).
    standings = [
        Ranked(id=1, rank=1, total=100),
        Ranked(id=3, rank=2, total=50, tie_break="best_round"),
        Ranked(id=2, rank=3, total=50, tie_break="best_round"),
        Ranked(id=4, rank=4, total=0),
    ]
    result = cut(standings, mode="top", value=2)
    assert result.qualified == (1, 3)
    (tie,) = result.ties
    assert tie == rules.Tie(
        pool="", rank=2, players=(3, 2), qualified=(3,), decided_by="best_round"
    )


def test_a_tie_break_that_decided_only_the_last_one_in_is_named():
    standings = [
        Ranked(id=1, rank=1, total=100),
        Ranked(id=3, rank=2, total=50, tie_break="head_to_head"),
        Ranked(id=2, rank=3, total=50),
    ]
    assert cut(standings, mode="top", value=2).ties[0].decided_by == "head_to_head"


def test_withdrawals_are_replaced_by_the_next_in_the_standings():
    result = cut(ranked([90, 80, 70, 60, 50], declined={2}), mode="top", value=2)
    assert result.qualified == (1, 3)
    assert result.replaced == (2,)
    assert result.last_in == {"": 3}


def test_a_withdrawal_below_the_cut_replaces_nobody():
    result = cut(ranked([90, 80, 70, 60], declined={4}), mode="top", value=2)
    assert result.qualified == (1, 2) and result.replaced == ()


def test_a_withdrawal_at_the_cut_with_a_tie_below_draws_among_the_tied():
    result = cut(ranked([90, 80, 70, 70, 10], declined={2}), mode="top", value=2, seed=1)
    assert result.qualified[0] == 1 and result.qualified[1] in (3, 4)
    assert result.ties[0].players in ((3, 4), (4, 3))
    assert result.replaced == (2,)


def test_as_many_places_as_players_takes_them_all():
    result = cut(ranked([3, 2, 1]), mode="top", value=3)
    assert result.qualified == (1, 2, 3) and result.ties == ()
    assert result.last_in == {"": 3}


def test_more_places_than_players_takes_everyone_who_plays_on():
    result = cut(ranked([3, 2, 1], declined={3}), mode="top", value=5)
    assert result.qualified == (1, 2) and result.places == {"": 3}


def test_nobody_goes_on_from_a_cut_of_zero_or_an_empty_field():
    assert cut(ranked([3, 2]), mode="top", value=0).qualified == ()
    assert cut([], mode="top", value=4).qualified == ()
    assert cut(ranked([3, 2], declined={1, 2}), mode="top", value=1).qualified == ()


def test_per_group_each_group_has_its_own_cut_and_line():
    standings = ranked([90, 80, 70, 60, 50, 40], groups=["A", "B", "A", "B", "A", "B"])
    standings.sort(key=lambda r: (r.group, r.rank))
    # Ranks come from each group's own standings.
    standings = [
        Ranked(id=r.id, rank=i % 3 + 1, total=r.total, group=r.group)
        for i, r in enumerate(standings)
    ]
    result = cut(standings, mode="top", value=1, scope="group")
    assert set(result.qualified) == {1, 2}
    assert result.places == {"A": 1, "B": 1}
    assert result.last_in == {"A": 1, "B": 2}
    assert result.qualified == (1, 2)  # the group winners, then by rank: 1st of A, 1st of B


def test_per_series_with_a_percentage():
    standings = ranked(
        [90, 80, 70, 60, 50, 40, 30],
        series=["Open", "Open", "Promotion", "Open", "Promotion", "Open", "Promotion"],
    )
    result = cut(standings, mode="percent", value=50, scope="series")
    assert result.places == {"Open": 2, "Promotion": 2}
    assert result.qualified == (1, 2, 3, 5)
    assert result.pools[3] == "Promotion"


def test_invitations_come_on_top_of_the_cut_seeded_first_wildcards_last():
    result = cut(
        ranked([90, 80, 70]),
        mode="top",
        value=1,
        invitations=[
            Invitation(id=50),
            Invitation(id=60, kind=rules.SEEDED),
            Invitation(id=1, kind=rules.SEEDED),  # already in: not twice
        ],
    )
    assert result.qualified == (60, 1, 50)
    assert result.invited == (60, 50)


@st.composite
def fields(draw):
    totals = draw(st.lists(st.integers(-5, 5), min_size=0, max_size=30))
    declined = draw(st.sets(st.integers(1, len(totals) or 1)))
    series = draw(st.lists(st.sampled_from(["O", "P"]), min_size=len(totals), max_size=len(totals)))
    return totals, declined, series


@given(
    fields(),
    st.sampled_from(["top", "percent"]),
    st.integers(0, 40),
    st.sampled_from(["stage", "series"]),
    st.integers(0, 10**6),
)
def test_cut_properties(field, mode, value, scope, seed):
    totals, declined, series = field
    standings = ranked(totals, declined=declined, series=series)
    result = cut(standings, mode=mode, value=value, scope=scope, seed=seed)
    assert result == cut(standings, mode=mode, value=value, scope=scope, seed=seed)
    by_id = {p.id: p for p in standings}
    qualified = set(result.qualified)
    assert len(qualified) == len(result.qualified)
    for pool, places in result.places.items():
        members = [p for p in standings if pool_of(p, scope) == pool]
        playing = [p for p in members if not p.declined]
        ins = [p for p in members if p.id in qualified]
        # As many as the places, or everyone who plays on.
        assert len(ins) == min(places, len(playing))
        assert not any(p.declined for p in ins)
        if ins:
            worst = min(p.total for p in ins)
            # Nobody left out who plays on has a better total than someone in.
            assert all(p.total <= worst for p in playing if p.id not in qualified)
            assert result.last_in[pool] in {p.id for p in ins}
            assert by_id[result.last_in[pool]].total == worst
    for tie in result.ties:
        assert set(tie.qualified) <= set(tie.players)
        assert set(tie.qualified) <= qualified
        assert 0 < len(tie.qualified) < len(tie.players)
        assert len({by_id[p].total for p in tie.players}) == 1


# --- the snake ---------------------------------------------------------------------------------


def test_the_snake_spreads_the_top_players():
    assert snake(list(range(1, 13)), [4, 4, 4]) == [
        [1, 6, 7, 12],
        [2, 5, 8, 11],
        [3, 4, 9, 10],
    ]


def test_the_snake_skips_a_full_table():
    # 11 players: two tables of 4 and one of 3, full after three laps: the fourth skips it.
    assert snake(list(range(1, 12)), [4, 4, 3]) == [[1, 6, 7, 11], [2, 5, 8, 10], [3, 4, 9]]
    assert snake(list(range(1, 10)), [5, 4]) == [[1, 4, 5, 8, 9], [2, 3, 6, 7]]
    assert snake(list(range(1, 7)), [3, 3]) == [[1, 4, 5], [2, 3, 6]]


def test_the_snake_needs_a_seat_for_everyone():
    with pytest.raises(ValueError, match=r"^the tables' seats must match the players$"):
        snake([1, 2, 3], [4])


@given(st.integers(3, 300))
def test_snake_properties(n):
    from tournaments.seating.sizes import table_sizes

    sizes = table_sizes(n)
    tables = snake(list(range(n)), sizes)
    assert [len(t) for t in tables] == sizes
    assert sorted(p for t in tables for p in t) == list(range(n))
    width = len(sizes)
    # The top ``width`` players sit at different tables, in table order.
    assert [t[0] for t in tables] == list(range(width))
    # Each table's first players (four, or three at a table of 3): one of each band of ``width``.
    for table in tables:
        first = min(4, len(table))
        assert [p // width for p in table[:first]] == list(range(first))


# --- the final ranking -------------------------------------------------------------------------


def test_the_final_ranking_is_the_final_then_each_stage_eliminated():
    stage1 = [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5), ("f", 5)]
    stage2 = [("c", 1), ("a", 2), ("b", 3), ("d", 4)]
    final = [("b", 1), ("c", 2)]
    places = final_ranking([stage1, stage2, final])
    assert [(p.position, p.tied, p.id, p.stage, p.stage_rank) for p in places] == [
        (1, False, "b", 2, 1),
        (2, False, "c", 2, 2),
        (3, False, "a", 1, 2),
        (4, False, "d", 1, 4),
        (5, True, "e", 0, 5),
        (5, True, "f", 0, 5),
    ]


def test_the_final_ranking_shares_a_place_in_the_final_too():
    places = final_ranking([[("a", 1), ("b", 1), ("c", 3)], [("a", 1), ("b", 1)]])
    assert [(p.position, p.tied, p.id) for p in places] == [
        (1, True, "a"),
        (1, True, "b"),
        (3, False, "c"),
    ]
    assert final_ranking([]) == []


def test_the_final_ranking_reads_each_stage_by_rank_whatever_the_order_given():
    places = final_ranking([[("z", 3), ("y", 1), ("x", 1), ("w", 4)], [("x", 1)]])
    assert [(p.position, p.tied, p.id) for p in places] == [
        (1, False, "x"),
        (2, False, "y"),
        (3, False, "z"),
        (4, False, "w"),
    ]
    one_stage = final_ranking([[("a", 1), ("b", 1), ("c", 3)]])
    assert [(p.position, p.tied, p.id) for p in one_stage] == [
        (1, True, "a"),
        (1, True, "b"),
        (3, False, "c"),
    ]


@given(st.lists(st.integers(0, 5), min_size=1, max_size=40), st.integers(1, 4))
def test_final_ranking_properties(ranks, stages):
    players = list(range(len(ranks)))
    field = [sorted(((p, r + 1) for p, r in zip(players, ranks, strict=True)), key=lambda x: x[1])]
    for _ in range(stages - 1):
        field.append(field[-1][: max(1, len(field[-1]) // 2)])
    places = final_ranking(field)
    assert sorted(p.id for p in places) == players
    assert [p.position for p in places] == sorted(p.position for p in places)
    for index, place in enumerate(places):
        assert 1 <= place.position <= index + 1
    survivors = {pid for pid, _rank in field[-1]}
    assert {p.id for p in places[: len(survivors)]} == survivors


# --- carried points in the ranking -------------------------------------------------------------


def test_carried_points_enter_the_total_before_round_one():
    entries = [
        Entry(1, "Alice", rounds={1: 10}, carried=50),
        Entry(2, "Bruno", rounds={1: 40}),
        Entry(3, "Chloé", carried=-5),
    ]
    assert [(s.entry.name, s.total) for s in rank(entries)] == [
        ("Alice", 60),
        ("Bruno", 40),
        ("Chloé", -5),
    ]
    assert entries[0].total_through(0) == 50
    assert entries[0].total_through(1) == 60
    assert next((s.entry.name, s.total) for s in rank(entries, through=0)) == ("Alice", 50)
    assert standing_of(entries, 3).total == -5
    assert progression(entries, [1]) == {1: [(1, 60, 1)], 2: [(1, 40, 2)], 3: [(1, -5, 3)]}
    assert progression_of(entries, [1], 3) == [(1, -5, 3)]

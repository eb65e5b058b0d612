"""Who deals and who sits out at a table of 3, 4 or 5, and how many deals a table of 5 plays
(pure: hypothesis over every deals-per-round setting and every run of passed deals)."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.table import (
    MISDEAL,
    PASSED,
    active_positions,
    dealers,
    deals_at_table,
    equal_at_five,
    equal_choices,
    played_at_five,
    sit_outs_at_five,
)

# Written by hand: deals per round -> (deals at a table of 5, deals each seat plays there).
AT_FIVE = {
    1: (1, [0, 1, 1, 1, 1]),
    3: (3, [2, 2, 2, 3, 3]),
    4: (5, [4, 4, 4, 4, 4]),
    5: (6, [4, 5, 5, 5, 5]),
    6: (7, [5, 5, 6, 6, 6]),
    8: (10, [8, 8, 8, 8, 8]),
    12: (15, [12, 12, 12, 12, 12]),
}


def test_a_table_of_five_plays_five_deals_for_every_four():
    for deals_per_round, (deals, played) in AT_FIVE.items():
        assert deals_at_table(5, deals_per_round) == deals
        assert deals_at_table(4, deals_per_round) == deals_per_round
        assert deals_at_table(3, deals_per_round) == deals_per_round
        assert played_at_five(deals_per_round) == played
    assert equal_choices(5) == [4, 8] and equal_choices(6) == [4, 8] and equal_choices(3) == [4]
    assert equal_choices(29) == [28]


@given(st.integers(1, 30))
def test_at_five_everyone_plays_the_same_number_exactly_when_the_count_allows(deals_per_round):
    played = played_at_five(deals_per_round)
    outs = sit_outs_at_five(deals_at_table(5, deals_per_round))
    assert max(outs) - min(outs) <= 1  # nobody sits out more than once more than another
    assert max(played) <= deals_per_round  # nobody plays more than at a table of 4
    assert max(played) - min(played) <= 1
    assert sum(played) == 4 * deals_at_table(5, deals_per_round)
    assert equal_at_five(deals_per_round) == (deals_per_round % 4 == 0)
    for choice in equal_choices(deals_per_round):
        assert equal_at_five(choice) and choice != deals_per_round


@given(st.lists(st.booleans(), min_size=1, max_size=40))
def test_at_five_passed_deals_keep_the_sit_out_turns_spread(passed):
    """The same dealer deals again after a passed deal at a table of 5, so over the deals
    actually played the sitting-out seat goes round: counts differ by at most one."""
    kinds = [PASSED if p else "played" for p in passed]
    outs = [0] * 5
    for kind, dealer in zip(kinds, dealers(5, kinds), strict=True):
        if kind != PASSED:
            assert dealer not in active_positions(5, dealer)
            outs[dealer] += 1
    assert max(outs) - min(outs) <= 1


@given(st.sampled_from([3, 4]), st.lists(st.booleans(), min_size=1, max_size=40))
def test_at_four_or_three_the_deal_moves_on_after_every_deal(size, passed):
    kinds = [PASSED if p else "played" for p in passed]
    assert dealers(size, kinds) == [n % size for n in range(len(kinds))]


def test_a_misdeal_is_dealt_again_by_the_same_dealer_at_every_table():
    # FFT: after a misdeal (wrong count, a card shown while dealing) the same dealer deals
    # again; a passed deal moves on at 3 and 4 players.
    for size in (3, 4, 5):
        assert dealers(size, ["played", MISDEAL, "played", MISDEAL, MISDEAL, "played"]) == [
            0,
            1,
            1,
            2,
            2,
            2,
        ]

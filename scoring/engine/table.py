"""The game at a tournament table of 3, 4 or 5: who deals each deal and who sits it out.

Table positions are 0..size-1 (North, East, South, West, fifth). Plain Python, like the rest of
the engine: the services store the dealer of each deal, the pages and documents read it.
"""

from __future__ import annotations

PASSED = "passed"  # the kind of deal everybody passed: dealt again (see next_dealer)
# A misdeal (mauvaise donne: wrong number of cards, a card shown while dealing): not a deal,
# the same dealer deals again at every table size, and it never counts in the round's deals.
MISDEAL = "misdeal"


def dealers(size: int, kinds: list[str]) -> list[int]:
    """Dealer position of each deal: North deals first, then :func:`next_dealer` after each."""
    dealer, result = 0, []
    for kind in kinds:
        result.append(dealer)
        dealer = next_dealer(size, dealer, kind)
    return result


def next_dealer(size: int, dealer: int, kind: str) -> int:
    """Who deals the deal after one that ``dealer`` dealt (of ``kind``).

    The deal moves on to the next seat (the dealer's right-hand neighbour) after every deal,
    a passed one included, at a table of 4 or 3 (FFT: the next player deals the new hand). At a
    table of 5 a passed deal is dealt again by the same dealer, so the dead seat stays. After a
    misdeal the same dealer deals again at every table (FFT rules).
    """
    if kind == MISDEAL or (kind == PASSED and size == 5):
        return dealer
    return (dealer + 1) % size


def active_positions(size: int, dealer: int) -> list[int]:
    """Table positions that play a deal: at a table of 5 the dealer sits out (le mort)."""
    return [p for p in range(size) if not (size == 5 and p == dealer)]


def game_players(size: int) -> int:
    """Tournament tables of 5 play the 4-player game; tables of 3 the 3-player game."""
    return 4 if size == 5 else size


def deals_at_table(size: int, deals_per_round: int) -> int:
    """Deals a table of ``size`` plays in a round of ``deals_per_round`` (at a table of 4).

    A table of 5 plays 5 deals for every 4, rounded down: each of its players sits out one deal
    in five, so everyone plays ``deals_per_round`` deals when it is a multiple of 4, and nobody
    at a table of 5 ever plays more deals than at a table of 4.
    """
    return deals_per_round * 5 // 4 if size == 5 else deals_per_round


def sit_outs_at_five(deals: int) -> list[int]:
    """How many of ``deals`` (counted, not passed) each position of a table of 5 sits out: the
    dealer sits out and the deal moves on one seat after each, so no count is more than one
    above another."""
    return [len(range(position, deals, 5)) for position in range(5)]


def played_at_five(deals_per_round: int) -> list[int]:
    """Deals each position of a table of 5 plays in a round (North first)."""
    deals = deals_at_table(5, deals_per_round)
    return [deals - out for out in sit_outs_at_five(deals)]


def equal_at_five(deals_per_round: int) -> bool:
    """Whether every player of a table of 5 plays ``deals_per_round`` deals, as at a table of 4."""
    return all(p == deals_per_round for p in played_at_five(deals_per_round))


def equal_choices(deals_per_round: int) -> list[int]:
    """The nearest deals per round (multiples of 4, at most 30) giving everyone the same number
    of played deals at a table of 5: the one below (when there is one) and the one above."""
    below = deals_per_round - deals_per_round % 4
    above = below + 4
    return [n for n in (below, above) if 4 <= n <= 28 and n != deals_per_round]

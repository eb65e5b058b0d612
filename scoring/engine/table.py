"""The game at a tournament table of 3, 4 or 5: who deals each deal and who sits it out.

Table positions are 0..size-1 (North, East, South, West, fifth). Plain Python, like the rest of
the engine: the services store the dealer of each deal, the pages and documents read it.
"""

from __future__ import annotations

PASSED = "passed"  # the kind of deal everybody passed: dealt again (see next_dealer)


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
    table of 5 a passed deal is dealt again by the same dealer, so the dead seat stays.
    """
    if kind == PASSED and size == 5:
        return dealer
    return (dealer + 1) % size


def active_positions(size: int, dealer: int) -> list[int]:
    """Table positions that play a deal: at a table of 5 the dealer sits out (le mort)."""
    return [p for p in range(size) if not (size == 5 and p == dealer)]


def game_players(size: int) -> int:
    """Tournament tables of 5 play the 4-player game; tables of 3 the 3-player game."""
    return 4 if size == 5 else size

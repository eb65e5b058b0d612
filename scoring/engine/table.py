"""The game at a tournament table of 3, 4 or 5: who deals each deal and who sits it out.

Table positions are 0..size-1 (North, East, South, West, fifth). Plain Python, like the rest of
the engine: the services store the dealer of each deal, the pages and documents read it.
"""

from __future__ import annotations

PASSED = "passed"  # the kind of deal everybody passed: dealt again by the same dealer


def dealers(size: int, kinds: list[str]) -> list[int]:
    """Dealer position of each deal: North deals first; the deal moves on after every deal
    except a passed one (it is dealt again by the same dealer, so the dead seat stays)."""
    dealer, result = 0, []
    for kind in kinds:
        result.append(dealer)
        dealer = next_dealer(size, dealer, kind)
    return result


def next_dealer(size: int, dealer: int, kind: str) -> int:
    """Who deals the deal after one that ``dealer`` dealt (of ``kind``): the next seat, or
    the same dealer again after a passed deal."""
    return dealer if kind == PASSED else (dealer + 1) % size


def active_positions(size: int, dealer: int) -> list[int]:
    """Table positions that play a deal: at a table of 5 the dealer sits out (le mort)."""
    return [p for p in range(size) if not (size == 5 and p == dealer)]


def game_players(size: int) -> int:
    """Tournament tables of 5 play the 4-player game; tables of 3 the 3-player game."""
    return 4 if size == 5 else size

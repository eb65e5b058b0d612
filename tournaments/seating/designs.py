"""Known seatings without a repeated meeting, for fields where the search stalls near zero.

Plain Python, standard library only; used by :mod:`tournaments.seating` as a starting plan.

Local search finds a seating with no repeated meeting for almost every field, but for a few
it stalls one or two repeats short, even with ten times the budget: seating 24 players at
tables of 4 for 6 rounds is a "social golfer" instance close to its limit (at most 7 rounds
are possible, since each player meets 3 new opponents a round and has 23).  For those fields
a known combinatorial design gives the seating directly.

The design (24 players, 7 rounds, 6 tables of 4 each round)
===========================================================
Players are pairs ``(a, i)`` with ``a`` in the field GF(8) and ``i`` in {0, 1, 2}, numbered
``3 * a + i``; the three players with the same ``a`` form a *group* and never meet.  Round
``k`` (k = 0..6) is ``BASE_ROUND`` with every ``a`` multiplied by ``w ** k``, where ``w`` is
a primitive element of GF(8) (a "1-rotational" resolvable design, a 4-RGDD of type 3^8).
``BASE_ROUND`` was found by a small exhaustive search so that its 36 pairs lie in 36
different orbits of that multiplication: then every two players of different groups meet in
exactly one of the 7 rounds, and no pair meets twice.  ``tests/seating/test_designs.py``
checks this.

Players left over (25 and 26 players: one or two tables of 5)
=============================================================
An extra player joins one table in each of rounds 1..6; when the six tables he joins are
disjoint (together the 24 players, each once), he meets nobody twice.  ``EXTRA_TABLES``
lists, for each extra player, which table of each round he joins (tables numbered as in
``BASE_ROUND``); the two extra players never join the same table, so they never meet.  This
gives 25 players (tables 5, 4, 4, 4, 4, 4) and 26 players (5, 5, 4, 4, 4, 4) over 6 rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["zero_repeat_rounds"]

#: Round 0 of the 24-player design: six tables of players ``3 * a + i``.
BASE_ROUND = (
    (0, 3, 7, 11),
    (1, 4, 20, 21),
    (2, 5, 12, 16),
    (6, 9, 18, 23),
    (8, 10, 14, 17),
    (13, 15, 19, 22),
)
#: For each extra player, the table (index in ``BASE_ROUND`` order) he joins in rounds 1..6.
EXTRA_TABLES = (
    (2, 1, 4, 0, 3, 5),
    (3, 4, 1, 5, 2, 0),
)
#: Rounds the 24-player design holds; with extra players, rounds 1..6 only.
DESIGN_ROUNDS = 7

_GF8_MODULUS = 0b1011  # x^3 + x + 1, irreducible over GF(2); x (= 2) is primitive
_PRIMITIVE = 2


def _gf8_mul(a: int, b: int) -> int:
    """Product of ``a`` and ``b`` in GF(8), elements written as 3-bit polynomials over GF(2)."""
    product = 0
    for bit in range(3):
        if b >> bit & 1:
            product ^= a << bit
    for bit in (4, 3):  # reduce modulo x^3 + x + 1
        if product >> bit & 1:
            product ^= _GF8_MODULUS << (bit - 3)
    return product


def _design_round(k: int) -> list[list[int]]:
    """Round ``k`` of the 24-player design: ``BASE_ROUND`` with every ``a`` times ``w ** k``."""
    factor = 1
    for _ in range(k):
        factor = _gf8_mul(factor, _PRIMITIVE)
    return [[3 * _gf8_mul(p // 3, factor) + p % 3 for p in table] for table in BASE_ROUND]


def zero_repeat_rounds(sizes: Sequence[int], rounds: int) -> list[list[list[int]]] | None:
    """Up to ``rounds`` rounds of players ``0..n-1`` (``n = sum(sizes)``) at tables of these
    sizes (largest first, as in each returned round), in which no two players meet twice.

    ``None`` when no known design fits the table sizes.  Fewer than ``rounds`` rounds are
    returned when the design holds fewer (7 for 24 players, 6 with extra players).
    """
    extras = sum(sizes) - 24  # players beyond the design's 24, one per table of 5
    if not 0 <= extras <= len(EXTRA_TABLES) or list(sizes) != [5] * extras + [4] * (6 - extras):
        return None
    if extras == 0:
        first, last = 0, DESIGN_ROUNDS
    else:
        first, last = 1, 1 + len(EXTRA_TABLES[0])
    last = min(last, first + max(0, rounds))
    plan = []
    for k in range(first, last):
        tables = _design_round(k)
        for e in range(extras):
            tables[EXTRA_TABLES[e][k - 1]].append(24 + e)
        plan.append(sorted(tables, key=len, reverse=True))
    return plan

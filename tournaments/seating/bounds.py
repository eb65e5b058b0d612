"""Why a seated round still has repeated meetings (pure Python, standard library only).

:func:`unavoidable_repeats` is a lower bound on the repeated meetings of one round, given the
players present, the table sizes and the earlier rounds; :func:`explain_round` compares a
seated round with it, so the round page can say « 18 joueurs, 2e position : 2 rencontres
répétées inévitables avec des tables de 5 ».

The bound is the largest of these counting arguments (each holds for every seating):

* *Pigeonhole on an earlier round.*  The players of one earlier table all met.  A new table
  of ``s`` players drawn from ``k`` earlier tables holds at least the pairs of the most even
  split of ``s`` into ``k`` parts: 18 players at tables 5, 5, 4, 4 in round 1 leave each table
  of 5 of round 2 with two players from the same earlier table, so two repeats at least.
  Counted per new table and, the other way round, per earlier table (its players spread over
  the new tables); the larger total holds.
* *Partners used up.*  A player who has met all but ``u`` of the players present meets at
  least ``s - 1 - u`` of them again at a table of ``s`` (every table-mate is a repeat beyond
  ``u``); half the sum over players counts each pair once.

Team-mates never share a table; the bound ignores that rule, so it stays a lower bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.seating.sizes import FULL_TABLE, PlayerId, rounds_of

__all__ = ["RepeatExplanation", "explain_round", "unavoidable_repeats"]


def _fewest_pairs(count: int, capacities: Sequence[int]) -> int:
    """Fewest pairs inside groups when ``count`` people go into groups of these capacities
    (fill the emptiest group with room first: a person joining ``x`` others adds ``x``
    pairs, and that greedy choice is optimal for this convex cost)."""
    if count <= len(capacities):
        return 0  # one person per group
    filled = [0] * len(capacities)
    pairs = 0
    for _ in range(count):
        best = -1
        for g, cap in enumerate(capacities):
            if filled[g] < cap and (best < 0 or filled[g] < filled[best]):
                best = g
        if best < 0:
            break
        pairs += filled[best]
        filled[best] += 1
    return pairs


def _pigeonhole(present: set, sizes: Sequence[int], earlier: Sequence[Sequence[Any]]) -> int:
    """Lower bound from one earlier round (see the module docstring)."""
    groups = [sum(1 for p in table if p in present) for table in earlier]
    groups = [g for g in groups if g > 1]
    singles = len(present) - sum(groups)
    # per new table: its players come from the earlier tables (or met nobody there)
    per_table = sum(_fewest_pairs(s, [*groups, *([1] * singles)]) for s in sizes)
    # per earlier table: its players spread over the new tables
    per_group = sum(_fewest_pairs(g, sizes) for g in groups)
    return max(per_table, per_group)


def unavoidable_repeats(
    players: Iterable[PlayerId],
    sizes: Sequence[int],
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
) -> int:
    """A lower bound on the repeated meetings of any seating of ``players`` at tables of
    ``sizes`` after the earlier rounds ``history`` (tables of players; absent players may
    appear).  A pair counts once however often it met before."""
    present = set(players)
    rounds = rounds_of(history)
    if not rounds or not sizes:
        return 0
    bound = max(_pigeonhole(present, sizes, rnd) for rnd in rounds)
    met: dict[PlayerId, set] = {p: set() for p in present}
    for rnd in rounds:
        for table in rnd:
            here = [p for p in table if p in present]
            for p in here:
                met[p].update(here)
    team_of = dict(teams or {})
    mates: dict[Any, int] = {}
    for p in present:
        t = team_of.get(p)
        if t is not None:
            mates[t] = mates.get(t, 0) + 1
    need = min(sizes) - 1
    short = 0
    for p in present:
        t = team_of.get(p)
        others = len(present) - 1 - (mates[t] - 1 if t is not None else 0)
        known = len(met[p] - {p})
        if t is not None:
            known -= sum(1 for q in met[p] if q != p and team_of.get(q) == t)
        short += max(0, need - (others - known))
    return max(bound, (short + 1) // 2)


@dataclass(frozen=True)
class RepeatExplanation:
    """A seated round's repeated meetings against what no seating could avoid.

    ``players`` seated in round ``round_number`` (1-based) at tables of ``sizes``;
    ``repeats`` pairs met again, ``unavoidable`` of them at least in any seating (a lower
    bound); ``table_size`` is the odd table size of the round (5 or 3), else 4.
    """

    players: int
    round_number: int
    sizes: tuple[int, ...]
    repeats: int
    unavoidable: int

    @property
    def table_size(self) -> int:
        odd = [s for s in self.sizes if s != FULL_TABLE]
        return odd[0] if odd else FULL_TABLE

    @property
    def all_unavoidable(self) -> bool:
        """Every repeat of the round is forced (and there is at least one)."""
        return 0 < self.repeats <= self.unavoidable


def explain_round(
    tables: Iterable[Iterable[PlayerId]],
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
) -> RepeatExplanation:
    """Repeated meetings of the seated round ``tables`` after ``history``, with the lower
    bound of :func:`unavoidable_repeats` for the same players and table sizes."""
    tabs = [tuple(t) for t in tables]
    rounds = rounds_of(history)
    met: set[frozenset] = set()
    for rnd in rounds:
        for table in rnd:
            for x, a in enumerate(table):
                for b in table[x + 1 :]:
                    met.add(frozenset((a, b)))
    repeats = sum(
        1
        for table in tabs
        for x, a in enumerate(table)
        for b in table[x + 1 :]
        if frozenset((a, b)) in met
    )
    sizes = tuple(len(t) for t in tabs)
    players = [p for t in tabs for p in t]
    return RepeatExplanation(
        players=len(players),
        round_number=len(rounds) + 1,
        sizes=sizes,
        repeats=repeats,
        unavoidable=unavoidable_repeats(players, sizes, rounds, teams),
    )

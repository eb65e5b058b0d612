"""Halls: a tournament's tables split into rooms by ranges of table numbers (pure Python).

A hall is a short name (its key, e.g. ``"pourny"``) and a range of table numbers
``first..last`` (« Salle Pourny : tables 1–60 »); its capacity is that many tables, whatever
their size (a table of 3 or of 5 takes one table like a table of 4). Ranges never overlap.

Two ways to seat a round:

* **Everyone moves** (``keep=False``), and round 1 in any case: the round is seated as one
  field (anyone may meet anyone), and its tables, largest first, fill the halls in their order:
  the first hall's tables (numbered from its first table), then the next hall's. More tables
  than the halls hold is refused.
* **Each player keeps their hall** (``keep=True``, from round 2): a player stays in the hall of
  their last seat; a player without one (a late arrival, a hall that no longer exists) joins
  the hall with the most free seats. Then the counts are repaired, moving as few players as
  this simple rule allows:

  1. a hall with more players than its tables take gives the players it cannot seat to the
     hall with the most free seats;
  2. a hall left with 1 or 2 players (no table possible) receives from the fullest hall the
     players that make a table of 3, when that hall can spare them; otherwise its players join
     the hall with the most free seats that can take them;
  3. what cannot be repaired is refused (:class:`HallError`), never seated half.

  Each hall is then seated on its own, the whole history still counting for repeats.

Which players move is drawn from the seed (reproducible), never the same ones by rule.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.seating.planning import seat_round
from tournaments.seating.sizes import ODD_FIVE, PlayerId, SeatingError, table_sizes

#: Guard against a repair that would not settle (each step moves at least one player).
_MAX_STEPS = 10_000


class HallError(ValueError):
    """Halls that cannot be set, or a round that cannot be seated in them. ``code`` and
    ``params`` let the caller say it in the user's language."""

    def __init__(self, reason: str, code: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Hall:
    key: str
    first: int
    last: int

    @property
    def capacity(self) -> int:
        """Tables in the hall."""
        return self.last - self.first + 1

    def holds(self, number: int) -> bool:
        return self.first <= number <= self.last


@dataclass(frozen=True)
class HallTable:
    number: int
    hall: str
    players: tuple[PlayerId, ...]


def check_halls(halls: Sequence[Hall]) -> None:
    """Raise :class:`HallError` unless every hall has a key, a range from table 1 up, and no
    table belongs to two halls."""
    seen: set[str] = set()
    for hall in halls:
        if not hall.key:
            raise HallError("A hall needs a short name.", "no_key")
        if hall.key in seen:
            raise HallError(f"Two halls are named {hall.key!r}.", "duplicate", hall=hall.key)
        seen.add(hall.key)
        if hall.first < 1 or hall.last < hall.first:
            raise HallError(
                f"Hall {hall.key!r}: tables {hall.first}-{hall.last} is not a range.",
                "bad_range",
                hall=hall.key,
                first=hall.first,
                last=hall.last,
            )
    ordered = sorted(halls, key=lambda h: h.first)
    for before, after in itertools.pairwise(ordered):
        if after.first <= before.last:
            raise HallError(
                f"Halls {before.key!r} and {after.key!r} share table {after.first}.",
                "overlap",
                first=before.key,
                second=after.key,
                table=after.first,
            )


def hall_of_table(halls: Iterable[Hall], number: int) -> str | None:
    """The key of the hall holding table ``number``, or None."""
    for hall in halls:
        if hall.holds(number):
            return hall.key
    return None


def tables_needed(players: int, odd: str = ODD_FIVE) -> int:
    """Tables for ``players`` (0 for none); :class:`SeatingError` for 1 or 2 players."""
    return len(table_sizes(players, odd)) if players else 0


def _fits(players: int, tables: int, odd: str) -> bool:
    """Whether ``players`` can sit at a hall of ``tables`` tables (none is fine)."""
    if players == 0:
        return True
    if players < 3:
        return False
    return tables_needed(players, odd) <= tables


def table_numbers(tables: int, halls: Sequence[Hall]) -> list[tuple[int, str]]:
    """Number ``tables`` tables by filling the halls in their order: (number, hall key) each."""
    capacity = sum(h.capacity for h in halls)
    if tables > capacity:
        raise HallError(
            f"{tables} tables are needed; the halls hold {capacity}.",
            "too_many_tables",
            tables=tables,
            capacity=capacity,
        )
    out: list[tuple[int, str]] = []
    for hall in halls:
        take = min(hall.capacity, tables - len(out))
        out.extend((hall.first + i, hall.key) for i in range(take))
    return out


def split_players(
    players: Iterable[PlayerId],
    halls: Sequence[Hall],
    previous: Mapping[PlayerId, str],
    *,
    odd: str = ODD_FIVE,
    seed: int | str = 0,
) -> dict[str, list[PlayerId]]:
    """Each player's hall when players keep their hall (see the module's rule): hall key ->
    players, in the order given. Raises :class:`HallError` when no repair seats everyone."""
    check_halls(halls)
    if not halls:
        raise HallError("There is no hall.", "no_hall")
    ids = list(players)
    rng = random.Random(f"halls|{seed}|{len(ids)}")
    capacity = {h.key: h.capacity for h in halls}
    order = {h.key: i for i, h in enumerate(halls)}
    members: dict[str, list[PlayerId]] = {h.key: [] for h in halls}
    newcomers = []
    for p in ids:
        key = previous.get(p)
        if key in members:
            members[key].append(p)
        else:
            newcomers.append(p)

    def free(key: str) -> int:
        return 4 * capacity[key] - len(members[key])

    def roomiest(exclude: str | None = None) -> str | None:
        keys = [k for k in members if k != exclude]
        return max(keys, key=lambda k: (free(k), -order[k])) if keys else None

    def move(source: str, target: str, count: int) -> None:
        chosen = rng.sample(range(len(members[source])), count)
        moving = [members[source][i] for i in sorted(chosen)]
        members[source] = [p for i, p in enumerate(members[source]) if i not in set(chosen)]
        members[target].extend(moving)

    for p in newcomers:
        members[roomiest()].append(p)  # type: ignore[index]

    for _step in range(_MAX_STEPS):
        over = [k for k in members if _too_many(len(members[k]), capacity[k], odd)]
        if over:
            source = over[0]
            target = roomiest(exclude=source)
            if target is None or free(target) <= 0:
                raise _refusal(ids, halls, odd)
            keep = len(members[source])
            while keep and not _fits(keep, capacity[source], odd):
                keep -= 1
            move(source, target, min(len(members[source]) - keep, free(target)))
            continue
        stranded = [k for k in members if 0 < len(members[k]) < 3]
        if not stranded:
            break
        key = stranded[0]
        if not _repair_stranded(key, members, capacity, order, odd, move):
            raise _refusal(ids, halls, odd)
    else:  # pragma: no cover - each step moves players towards a fit
        raise _refusal(ids, halls, odd)
    return members


def _too_many(players: int, tables: int, odd: str) -> bool:
    return players >= 3 and tables_needed(players, odd) > tables


def _repair_stranded(key, members, capacity, order, odd, move) -> bool:
    """Give the stranded hall ``key`` players from the fullest hall, or send its players to a
    hall that takes them. False when neither is possible."""
    have = len(members[key])
    others = sorted((k for k in members if k != key), key=lambda k: (-len(members[k]), order[k]))
    if others:
        fullest = others[0]
        spare = len(members[fullest]) - (3 - have)
        if spare >= 3 and _fits(spare, capacity[fullest], odd) and _fits(3, capacity[key], odd):
            move(fullest, key, 3 - have)
            return True
    takers = [k for k in others if _fits(len(members[k]) + have, capacity[k], odd)]
    if takers:
        target = max(takers, key=lambda k: (4 * capacity[k] - len(members[k]), -order[k]))
        move(key, target, have)
        return True
    return False


def _refusal(ids: list, halls: Sequence[Hall], odd: str) -> HallError:
    capacity = sum(h.capacity for h in halls)
    try:
        needed = tables_needed(len(ids), odd)
    except SeatingError:
        needed = 0
    return HallError(
        f"{len(ids)} players cannot be seated in these halls ({capacity} tables).",
        "no_fit",
        players=len(ids),
        tables=needed,
        capacity=capacity,
    )


def seat_in_halls(
    players: Iterable[PlayerId],
    halls: Sequence[Hall],
    *,
    keep: bool = False,
    previous: Mapping[PlayerId, str] | None = None,
    seed: int | str = 0,
    odd: str = ODD_FIVE,
    **seat_kwargs: Any,
) -> list[HallTable]:
    """Seat one round in the halls: the tables with their number and hall, by number.

    ``keep`` keeps each player in their ``previous`` hall (ignored without one: round 1 fills
    the halls); ``seat_kwargs`` go to :func:`~tournaments.seating.seat_round` (teams, history,
    rounds_left, order, variant, priority). Raises :class:`HallError` or
    :class:`~tournaments.seating.SeatingError`.
    """
    check_halls(halls)
    ids = list(players)
    if keep and previous:
        split = split_players(ids, halls, previous, odd=odd, seed=seed)
        out: list[HallTable] = []
        for hall in halls:
            if not split[hall.key]:
                continue
            seated = seat_round(split[hall.key], seed=f"{seed}|{hall.key}", odd=odd, **seat_kwargs)
            out.extend(
                HallTable(hall.first + i, hall.key, table) for i, table in enumerate(seated.tables)
            )
        return out
    if not halls:
        raise HallError("There is no hall.", "no_hall")
    table_numbers(tables_needed(len(ids), odd), halls)  # refused before the search
    seated = seat_round(ids, seed=seed, odd=odd, **seat_kwargs)
    numbers = table_numbers(len(seated.tables), halls)
    return [
        HallTable(number, key, table)
        for (number, key), table in zip(numbers, seated.tables, strict=True)
    ]

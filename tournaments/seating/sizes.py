"""The seating's ground rules: table sizes, the odd tables' and priorities' choices, the
error a rule that cannot be met raises, one seated round, and whether team-mates can be kept
apart at all (:func:`check_feasible`). Pure Python, standard library only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

#: Any hashable player id (int, str, ...); ``Any`` so callers keep their own id type.
PlayerId: TypeAlias = Any


Table: TypeAlias = tuple[PlayerId, ...]

Pair: TypeAlias = tuple[PlayerId, PlayerId]

#: Plain table size; any other size (5 or 3) is an "odd" table.
FULL_TABLE = 4

#: What to do with the players left over when ``n`` is not a multiple of 4: tables of 5 (the
#: dealer sits out in turn) or tables of 3 (the only odd tables the FFT homologates).
ODD_FIVE = "five"


ODD_THREE = "three"

ODD_CHOICES = (ODD_FIVE, ODD_THREE)

#: The trade-off between repeated meetings and fair odd tables: fewest repeated meetings
#: first (the default), or odd tables shared fairly first (nobody at a table of 5 twice
#: while someone has not had one, even if that forces repeated meetings).
PRIORITY_REPEATS = "repeats"


PRIORITY_FAIR = "fair"

PRIORITY_CHOICES = (PRIORITY_REPEATS, PRIORITY_FAIR)

#: ``seat_round`` plans at most this many rounds ahead.
MAX_LOOKAHEAD = 10

#: Cost of one pair of team-mates at the same table (a repeated meeting costs 1).
TEAM_CLASH = 1000


class SeatingError(ValueError):
    """A seating rule cannot be met.

    ``reason`` is a plain-English sentence for people; ``code`` is a stable machine key and
    ``params`` the values quoted in the reason, so that a caller can translate it.
    """

    def __init__(self, reason: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params = params


@dataclass(frozen=True)
class RoundSeating:
    """One seated round.

    ``tables`` lists the tables in table order (largest first), each in seat order.
    ``repeats`` are the pairs seated together who had already met before this round (in the
    history, or in an earlier round of the same plan).  ``teammate_pairs`` are team-mates at
    the same table (always empty when the teams are feasible).
    """

    tables: tuple[Table, ...]
    repeats: tuple[Pair, ...] = ()
    teammate_pairs: tuple[Pair, ...] = ()

    @property
    def teammates_together(self) -> int:
        """Number of team-mate pairs sharing a table (0 whenever the teams are feasible)."""
        return len(self.teammate_pairs)

    @property
    def repeat_count(self) -> int:
        """Number of pairs meeting again."""
        return len(self.repeats)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Table sizes in table order."""
        return tuple(len(t) for t in self.tables)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Every seated player, table after table, in seat order."""
        return tuple(p for t in self.tables for p in t)

    @property
    def odd_table_players(self) -> tuple[PlayerId, ...]:
        """Players seated at a table of 5 or 3."""
        return tuple(p for t in self.tables if len(t) != FULL_TABLE for p in t)

    def table_of(self, player: PlayerId) -> int:
        """Index (0-based) of the table where ``player`` sits; KeyError if not seated."""
        for i, table in enumerate(self.tables):
            if player in table:
                return i
        raise KeyError(player)


def table_sizes(n: int, odd: str = ODD_FIVE) -> list[int]:
    """Sizes of the tables for ``n`` players, largest first.

    ``odd`` says what to do with the players left over by tables of 4:

    * ``"five"``: as many tables of 4 as possible using only 4s and 5s (fewest 5s); when that
      is impossible (n = 3, 6, 7, 11) use 4s and the fewest 3s;
    * ``"three"``: 4s and the fewest 3s; when that is impossible (n = 5) one table of 5.

    Raises :class:`SeatingError` for n < 3 or an unknown ``odd``.
    """
    if odd not in ODD_CHOICES:
        raise SeatingError(f"Unknown choice for odd tables: {odd!r}.", "bad_odd", odd=odd)
    if n < 3:
        raise SeatingError(
            f"At least 3 players are needed to seat a table; there are {n}.",
            "too_few_players",
            n=n,
        )
    threes = (4 - n % 4) % 4
    fives = n % 4
    if odd == ODD_THREE and 3 * threes <= n:
        return [4] * ((n - 3 * threes) // 4) + [3] * threes
    if 5 * fives <= n:
        return [5] * fives + [4] * ((n - 5 * fives) // 4)
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


def present_teams(ids: Sequence[PlayerId], teams: Mapping[Any, Any] | None) -> dict:
    """Team id -> present members (in ``ids`` order), for teams with at least one member."""
    out: dict[Any, list[PlayerId]] = {}
    if not teams:
        return out
    for p in ids:
        t = teams.get(p)
        if t is not None:
            out.setdefault(t, []).append(p)
    return out


def _unique_players(players: Iterable[PlayerId]) -> list[PlayerId]:
    ids = list(players)
    seen: set[PlayerId] = set()
    dups = []
    for p in ids:
        if p in seen:
            dups.append(p)
        seen.add(p)
    if dups:
        raise SeatingError(
            f"Player {dups[0]!r} is listed more than once.", "duplicate_player", player=dups[0]
        )
    return ids


def check_feasible(
    players: Iterable[PlayerId], teams: Mapping[Any, Any] | None = None, odd: str = ODD_FIVE
) -> None:
    """Raise :class:`SeatingError` if these players cannot be seated under the rules.

    Checks: at least 3 distinct players, and that team-mates can all be kept apart.  The
    latter is exact (Gale–Ryser): the ``l`` largest teams can put at most ``min(size, l)``
    players at each table, so their total size must not exceed the sum of those minima.
    """
    ids = _unique_players(players)
    sizes = table_sizes(len(ids), odd)
    n_tables = len(sizes)
    present = present_teams(ids, teams)
    if not present:
        return
    ranked = sorted(present.items(), key=lambda kv: -len(kv[1]))
    team, members = ranked[0]
    if len(members) > n_tables:
        raise SeatingError(
            f"Team {team!r} has {len(members)} players present but there "
            f"{'is only 1 table' if n_tables == 1 else f'are only {n_tables} tables'}, "
            "so two team-mates would have to share a table.",
            "team_too_large",
            team=team,
            members=len(members),
            tables=n_tables,
        )
    team_sizes = [len(m) for _, m in ranked]
    team_sizes += [1] * (len(ids) - sum(team_sizes))
    total = 0
    for ell, size in enumerate(team_sizes[: max(sizes)], start=1):
        total += size
        room = sum(min(s, ell) for s in sizes)
        if total > room:
            raise SeatingError(
                f"The {ell} largest teams have {total} players present, but tables of sizes "
                f"{sizes} can take at most {room} of them without seating team-mates "
                "together.",
                "teams_unseatable",
                teams=ell,
                players=total,
                room=room,
                sizes=list(sizes),
            )


def rounds_of(history: Iterable[Any]) -> list[list[list[PlayerId]]]:
    """Normalise a history: rounds of tables of players (RoundSeating objects accepted)."""
    out = []
    for rnd in history:
        tables = rnd.tables if isinstance(rnd, RoundSeating) else rnd
        out.append([list(t) for t in tables])
    return out


def odd_table_counts_from(history: Iterable[Any]) -> dict[PlayerId, int]:
    """Number of rounds each player of ``history`` spent at a table of 5 or 3."""
    counts: dict[PlayerId, int] = defaultdict(int)
    for rnd in rounds_of(history):
        for table in rnd:
            if len(table) != FULL_TABLE:
                for p in table:
                    counts[p] += 1
    return dict(counts)


def canonical_order(players: Iterable[PlayerId]) -> list[PlayerId]:
    """Players in a canonical order (sorted when comparable) so results ignore input order."""
    ids = _unique_players(players)
    try:
        return sorted(ids)  # type: ignore[type-var]
    except TypeError:
        return ids


def ordered_pair(a: PlayerId, b: PlayerId, rank: Mapping[Any, int]) -> Pair:
    return (a, b) if rank.get(a, 0) <= rank.get(b, 0) else (b, a)

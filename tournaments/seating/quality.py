"""What a seated round is worth, as data: its sizes, repeats, team-mates together and unfair
odd seats (:func:`quality_of`), and what a swap would change (:func:`swap_issues`). The
translated sentences are those of :mod:`tournaments.selectors` and :mod:`tournaments.messages`.
Pure Python."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.seating.sizes import (
    FULL_TABLE,
    ODD_FIVE,
    Pair,
    PlayerId,
    SeatingError,
    Table,
    odd_table_counts_from,
    ordered_pair,
    rounds_of,
    table_sizes,
)


def _describe(
    tables: Sequence[Table],
    met: Mapping[frozenset, int],
    team_of: Mapping[Any, Any],
    rank: Mapping[Any, int],
) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """Repeated pairs and team-mate pairs at the same tables."""
    repeats = []
    clashes = []
    for table in tables:
        for x in range(len(table)):
            for y in range(x + 1, len(table)):
                a, b = table[x], table[y]
                if met.get(frozenset((a, b)), 0):
                    repeats.append(ordered_pair(a, b, rank))
                ta, tb = team_of.get(a), team_of.get(b)
                if ta is not None and ta == tb:
                    clashes.append(ordered_pair(a, b, rank))
    return tuple(repeats), tuple(clashes)


def _meetings(history: Iterable[Any]) -> dict[frozenset, int]:
    met: dict[frozenset, int] = defaultdict(int)
    for rnd in rounds_of(history):
        for table in rnd:
            for x in range(len(table)):
                for y in range(x + 1, len(table)):
                    met[frozenset((table[x], table[y]))] += 1
    return met


def quality_of(
    tables: Iterable[Iterable[PlayerId]],
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
    odd: str = ODD_FIVE,
) -> dict[str, Any]:
    """Summary of a seated round for display.

    Keys: ``sizes``, ``sizes_ok`` (sizes are those of :func:`table_sizes`), ``repeat_count``,
    ``repeats`` (list of ``(a, b, times_met_before)``), ``teammates_together`` (count),
    ``teammate_pairs``, ``odd_table_players`` and ``odd_table_unfair`` (players at a table of
    5/3 having more earlier odd-table rounds than someone seated at a table of 4).
    """
    tabs = [tuple(t) for t in tables]
    history = rounds_of(history)
    met = _meetings(history)
    team_of = dict(teams or {})
    everyone = [p for t in tabs for p in t]
    rank = {p: i for i, p in enumerate(everyone)}
    repeats, clashes = _describe(tabs, met, team_of, rank)
    sizes = [len(t) for t in tabs]
    try:
        sizes_ok = sorted(sizes) == sorted(table_sizes(len(everyone), odd))
    except SeatingError:
        sizes_ok = False
    odd_counts = odd_table_counts_from(history)
    odd_players = [p for t in tabs if len(t) != FULL_TABLE for p in t]
    even_counts = [odd_counts.get(p, 0) for t in tabs if len(t) == FULL_TABLE for p in t]
    floor = min(even_counts, default=None)
    unfair = [p for p in odd_players if floor is not None and odd_counts.get(p, 0) > floor]
    return {
        "sizes": sizes,
        "sizes_ok": sizes_ok,
        "repeat_count": len(repeats),
        "repeats": [(a, b, met[frozenset((a, b))]) for a, b in repeats],
        "teammates_together": len(clashes),
        "teammate_pairs": list(clashes),
        "odd_table_players": odd_players,
        "odd_table_unfair": unfair,
    }


@dataclass(frozen=True)
class SwapIssue:
    """One consequence of a swap, for translation: ``code`` is ``"repeat"``, ``"teammates"``
    or ``"odd_table"``; ``player`` is the one moving, ``other`` the player met (or None);
    ``count`` the earlier meetings or odd-table rounds; ``message`` plain English."""

    code: str
    player: PlayerId
    other: PlayerId | None
    count: int
    message: str


def swap_issues(
    tables: Iterable[Iterable[PlayerId]],
    a: PlayerId,
    b: PlayerId,
    history: Iterable[Any] = (),
    teams: Mapping[Any, Any] | None = None,
) -> list[SwapIssue]:
    """What swapping players ``a`` and ``b`` in a seated round would cause: the repeated
    meetings it would create, team-mates it would seat together, and odd-table unfairness.

    If only one of the two is seated, the other takes that seat (replacement); swapping two
    players of the same table changes nothing. The page's translated sentences are
    :func:`tournaments.selectors.swap_warnings`."""
    tabs = [list(t) for t in tables]
    where = {p: i for i, t in enumerate(tabs) for p in t}
    if a not in where and b not in where:
        raise SeatingError(
            f"Neither {a!r} nor {b!r} is seated in this round.", "not_seated", a=a, b=b
        )
    ta, tb = where.get(a), where.get(b)
    if ta is not None and ta == tb:
        return []
    if ta is not None:
        tabs[ta][tabs[ta].index(a)] = b
    if tb is not None:
        tabs[tb][tabs[tb].index(b)] = a
    history = rounds_of(history)
    met = _meetings(history)
    team_of = dict(teams or {})
    odd_counts = odd_table_counts_from(history)
    issues = []
    for mover, t in ((b, ta), (a, tb)):
        if t is None:
            continue
        for q in tabs[t]:
            if q == mover:
                continue
            times = met.get(frozenset((mover, q)), 0)
            if times:
                issues.append(
                    SwapIssue(
                        "repeat",
                        mover,
                        q,
                        times,
                        f"{mover} would meet {q} again (already met "
                        f"{'once' if times == 1 else f'{times} times'}).",
                    )
                )
            tm = team_of.get(mover)
            if tm is not None and tm == team_of.get(q):
                issues.append(
                    SwapIssue(
                        "teammates",
                        mover,
                        q,
                        0,
                        f"{mover} and {q} are team-mates and would share a table.",
                    )
                )
        size = len(tabs[t])
        if size != FULL_TABLE:
            mine = odd_counts.get(mover, 0)
            others = [odd_counts.get(p, 0) for x in tabs if len(x) == FULL_TABLE for p in x]
            if others and mine > min(others):
                issues.append(
                    SwapIssue(
                        "odd_table",
                        mover,
                        None,
                        mine,
                        f"{mover} would sit at a table of {size} again ({mine} earlier "
                        "odd-table rounds) while another player has had fewer.",
                    )
                )
    return issues

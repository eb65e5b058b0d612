"""Rankings, in plain Python (no Django): players and teams by decreasing total points.

FFT gives no tie-break: tied players share the rank ("ex æquo", competition ranking 1, 2, 2, 4).
A tournament may choose tie-breaks, always labelled as not FFT:

- ``best_round``: the better single round total first;
- ``fewer_fives``: fewer rounds played at a table of 5 first;
- ``head_to_head``: among the tied players, more points scored in the rounds where they sat
  at the same table as another tied player.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

TIE_BREAKS = ("best_round", "fewer_fives", "head_to_head")


@dataclass(frozen=True)
class Entry:
    """One player's results: round totals (deals only), penalties, and counts for the columns."""

    id: Hashable
    name: str
    club: str = ""
    team: Hashable | None = None
    withdrawn: bool = False
    rounds: Mapping[int, int] = field(default_factory=dict)  # round number -> round total
    penalties: Mapping[int, int] = field(default_factory=dict)  # round number -> penalty points
    deals_played: int = 0
    taken: int = 0
    made: int = 0
    fives: int = 0  # rounds at a table of 5
    tables: Mapping[int, Hashable] = field(default_factory=dict)  # round number -> table id
    carried: int = 0  # points carried from a championship's previous stage (before round 1)

    @property
    def penalty_total(self) -> int:
        return sum(self.penalties.values())

    @property
    def total(self) -> int:
        return sum(self.rounds.values()) + self.penalty_total + self.carried

    def total_through(self, last_round: int) -> int:
        return (
            self.carried
            + sum(p for r, p in self.rounds.items() if r <= last_round)
            + sum(p for r, p in self.penalties.items() if r <= last_round)
        )

    @property
    def best_round(self) -> int:
        return max(self.rounds.values(), default=0)


@dataclass(frozen=True)
class Standing:
    rank: int
    tied: bool
    entry: Entry
    total: int
    tie_break: str = ""  # what decided between equal totals, when a tie-break did


def rank_label(rank: int, tied: bool) -> int | str:
    """A rank as the standings print it: « 2= » when it is shared, the number otherwise (kept
    a number, so that exports write a number). The one spelling of a shared rank."""
    return f"{rank}=" if tied else rank


def _competition_ranks(keys: Sequence[tuple]) -> list[tuple[int, bool]]:
    """Ranks for items sorted by ``keys`` (best first): equal keys share the rank."""
    ranks: list[tuple[int, bool]] = []
    for index, key in enumerate(keys):
        if index and key == keys[index - 1]:
            ranks.append((ranks[-1][0], True))
        else:
            ranks.append((index + 1, False))
    for index in range(len(keys) - 1):
        if keys[index] == keys[index + 1]:
            ranks[index] = (ranks[index][0], True)
    return ranks


def _head_to_head(group: list[Entry]) -> dict[Hashable, int]:
    """Points each tied player scored in rounds shared at a table with another of the group."""
    scores = {}
    for entry in group:
        shared = 0
        for other in group:
            if other.id == entry.id:
                continue
            for round_number, table in entry.tables.items():
                if other.tables.get(round_number) == table:
                    shared += entry.rounds.get(round_number, 0)
        scores[entry.id] = shared
    return scores


def _check_tie_breaks(tie_breaks: Sequence[str]) -> None:
    for name in tie_breaks:
        if name not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {name!r}; known: {', '.join(TIE_BREAKS)}")


def rank(
    entries: Iterable[Entry], *, tie_breaks: Sequence[str] = (), through: int | None = None
) -> list[Standing]:
    """Players by decreasing total (through round ``through`` if given), ties sharing the rank
    unless a chosen tie-break separates them."""
    entries = list(entries)
    _check_tie_breaks(tie_breaks)

    totals = {e.id: (e.total if through is None else e.total_through(through)) for e in entries}
    by_total: dict[int, list[Entry]] = {}
    for entry in entries:
        by_total.setdefault(totals[entry.id], []).append(entry)
    extra: dict[Hashable, tuple] = {}
    for group in by_total.values():
        h2h = _head_to_head(group) if "head_to_head" in tie_breaks and len(group) > 1 else {}
        for entry in group:
            key = []
            for name in tie_breaks:
                if name == "best_round":
                    key.append(entry.best_round)
                elif name == "fewer_fives":
                    key.append(-entry.fives)
                elif name == "head_to_head":
                    key.append(h2h.get(entry.id, 0))
            extra[entry.id] = tuple(key)
    ordered = sorted(
        entries,
        key=lambda e: (-totals[e.id], tuple(-k for k in extra[e.id]), e.name.casefold()),
    )
    keys = [(totals[e.id], extra[e.id]) for e in ordered]
    ranks = _competition_ranks(keys)
    standings = []
    for index, (entry, (position, tied)) in enumerate(zip(ordered, ranks, strict=True)):
        total = totals[entry.id]
        decided = ""
        if tie_breaks and not tied:
            level = [
                ordered[i]
                for i in (index - 1, index + 1)
                if 0 <= i < len(ordered) and totals[ordered[i].id] == total
            ]
            if level:
                decided = next(
                    (
                        name
                        for name, mine in zip(tie_breaks, extra[entry.id], strict=True)
                        if any(extra[n.id][tie_breaks.index(name)] != mine for n in level)
                    ),
                    "",
                )
        standings.append(
            Standing(rank=position, tied=tied, entry=entry, total=total, tie_break=decided)
        )
    return standings


def standing_of(
    entries: Iterable[Entry],
    entry_id: Hashable,
    *,
    tie_breaks: Sequence[str] = (),
    through: int | None = None,
) -> Standing | None:
    """One player's standing exactly as :func:`rank` gives it (None if not ranked), without
    ranking the whole field: the players with a higher total come first, and only those level
    with the player are ranked (tie-breaks only ever decide between equal totals). Entries have
    distinct ids, as everywhere in this module."""
    _check_tie_breaks(tie_breaks)
    entries = list(entries)
    me = next((e for e in entries if e.id == entry_id), None)
    if me is None:
        return None

    def total(entry: Entry) -> int:
        return entry.total if through is None else entry.total_through(through)

    mine = total(me)
    higher, level = 0, []
    for entry in entries:
        value = total(entry)
        if value > mine:
            higher += 1
        elif value == mine:
            level.append(entry)
    standing = next(
        s for s in rank(level, tie_breaks=tie_breaks, through=through) if s.entry.id == entry_id
    )
    return replace(standing, rank=standing.rank + higher)


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    tied: bool
    team: Hashable
    name: str
    total: int
    members: tuple[Entry, ...]  # each member's contribution is their own total


def rank_teams(
    entries: Iterable[Entry], team_names: Mapping[Hashable, str], *, through: int | None = None
) -> list[TeamStanding]:
    """Teams by decreasing sum of their members' totals (withdrawn members still count)."""
    members: dict[Hashable, list[Entry]] = {team: [] for team in team_names}
    for entry in entries:
        if entry.team is not None:
            members.setdefault(entry.team, []).append(entry)

    def total(entry: Entry) -> int:
        return entry.total if through is None else entry.total_through(through)

    rows = [
        (team, team_names.get(team, str(team)), sum(total(m) for m in group), group)
        for team, group in members.items()
    ]
    rows.sort(key=lambda row: (-row[2], row[1].casefold()))
    ranks = _competition_ranks([(row[2],) for row in rows])
    return [
        TeamStanding(
            rank=position,
            tied=tied,
            team=team,
            name=name,
            total=team_total,
            members=tuple(sorted(group, key=lambda m: -total(m))),
        )
        for (team, name, team_total, group), (position, tied) in zip(rows, ranks, strict=True)
    ]


def _points_per_round(entries: list[Entry], rounds: list[int]) -> list[list[int]]:
    """Each player's points (round totals and penalties) per listed round, in ``rounds`` order.

    Points of an unlisted round count from the next listed one on (as ``total_through`` counts
    them), points after the last one not at all.
    """
    index_of: dict[int, int] = {}
    for index, number in enumerate(rounds):
        index_of.setdefault(number, index)  # the first of a repeated number, as bisect finds
    per_round = []
    for entry in entries:
        points = [0] * len(rounds)
        for source in (entry.rounds, entry.penalties):
            for number, value in source.items():
                index = index_of.get(number)
                if index is None:
                    index = bisect_left(rounds, number)
                    if index == len(rounds):
                        continue
                points[index] += value
        per_round.append(points)
    return per_round


def progression(entries: Iterable[Entry], rounds: Sequence[int]) -> dict[Hashable, list[tuple]]:
    """For each player, (round, cumulative total, rank) after each round: the "me" chart.

    The rank is the one :func:`rank` gives after that round without tie-breaks (one more than
    the number of players with a higher total), computed in one pass per round.
    """
    entries = list(entries)
    rounds = sorted(rounds)
    result: dict[Hashable, list[tuple]] = {e.id: [] for e in entries}
    per_round = _points_per_round(entries, rounds)
    running = [e.carried for e in entries]
    for index, round_number in enumerate(rounds):
        for player, points in enumerate(per_round):
            running[player] += points[index]
        first_rank: dict[int, int] = {}
        for position, total in enumerate(sorted(running, reverse=True), start=1):
            first_rank.setdefault(total, position)
        for entry, total in zip(entries, running, strict=True):
            result[entry.id].append((round_number, total, first_rank[total]))
    return result


def progression_of(
    entries: Iterable[Entry], rounds: Sequence[int], entry_id: Hashable
) -> list[tuple[int, int, int]]:
    """One player's :func:`progression` (empty if not ranked), without ranking everyone
    after every round: each rank is one more than the number of higher running totals."""
    entries = list(entries)
    me = next((index for index, e in enumerate(entries) if e.id == entry_id), None)
    if me is None:
        return []
    rounds = sorted(rounds)
    per_round = _points_per_round(entries, rounds)
    running = [e.carried for e in entries]
    chart = []
    for index, round_number in enumerate(rounds):
        for player, points in enumerate(per_round):
            running[player] += points[index]
        mine = running[me]
        chart.append((round_number, mine, 1 + sum(1 for total in running if total > mine)))
    return chart

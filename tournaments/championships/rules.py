"""A championship's stage rules, in plain Python (no Django): the cut, ties at the cut, points
carried into the next stage, the snake seeding and the championship's final ranking.

Words (docs/championships.md tells the whole story):

- a *stage* is one tournament, or several played in parallel (its *groups*: halls, regional
  qualifiers); its standings rank each group's players, carried points included;
- the *cut* keeps the top N, or the top X % (rounded up), of a *pool*: the whole stage, each
  group, or each série. Players who decline to go on are skipped: the next in the standings
  takes their place. Invitations (seeded players, wildcards) come on top of the cut;
- a tie at the cut (players level on the cut's last place) is decided by the stage's tie-breaks
  when they separate the players (the ranking already did), otherwise by a draw reproducible
  from the stage's seed; either way it is explained;
- *carried points*: none, all, half, a third or a quarter of a qualifier's stage total, rounded
  to the nearest point (halves away from zero, so that -35 and 35 carry -18 and 18);
- the *snake*: the qualifiers in their previous order go round the tables 1, 2 ... t, then
  back t ... 1, so that the strongest players meet as late as possible;
- the *final ranking*: the last stage's order, then the players eliminated at each stage, the
  latest stage first, by their rank in it.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

#: How much of a qualifier's stage total enters the next stage: numerator, denominator.
CARRY = {"none": (0, 1), "all": (1, 1), "half": (1, 2), "third": (1, 3), "quarter": (1, 4)}
CUT_MODES = ("top", "percent")
SCOPES = ("stage", "group", "series")
SEEDED, WILDCARD = "seeded", "wildcard"


def carried_points(total: int, carry: str) -> int:
    """The points a stage total of ``total`` carries into the next stage under ``carry``."""
    numerator, denominator = CARRY[carry]
    magnitude = abs(total) * numerator
    share, rest = divmod(magnitude, denominator)
    if 2 * rest >= denominator and rest:
        share += 1
    return share if total >= 0 else -share


def cut_size(field_size: int, *, mode: str, value: int) -> int:
    """How many of a pool of ``field_size`` players go on: the top ``value``, or the top
    ``value`` % rounded up; never more than the pool."""
    if mode not in CUT_MODES:
        raise ValueError(f"unknown cut mode {mode!r}; known: {', '.join(CUT_MODES)}")
    if value < 0:
        raise ValueError("a cut is never negative")
    wanted = value if mode == "top" else -(-field_size * value // 100)
    return min(wanted, field_size)


@dataclass(frozen=True)
class Ranked:
    """One player of a stage's standings, in standings order (ties already broken by the
    stage's tie-breaks where they could: ``tie_break`` names the one that decided)."""

    id: Hashable
    rank: int
    total: int
    tied: bool = False
    group: str = ""
    series: str = ""
    tie_break: str = ""
    declined: bool = False  # does not go on: the next in the standings takes the place


@dataclass(frozen=True)
class Tie:
    """A tie at the cut: the players level on ``rank`` of ``pool``, how it was decided
    (``"draw"`` or a tie-break's name) and who of them went on."""

    pool: str
    rank: int
    players: tuple
    qualified: tuple
    decided_by: str


@dataclass(frozen=True)
class Invitation:
    id: Hashable
    kind: str = WILDCARD  # SEEDED go first in the next stage's order, WILDCARD last


@dataclass(frozen=True)
class Cut:
    qualified: tuple  # in the next stage's order: seeded, qualifiers by rank, wildcards
    places: dict  # pool -> number of places
    last_in: dict  # pool -> id of the last qualifier (the line is drawn under that player)
    ties: tuple[Tie, ...] = ()
    invited: tuple = ()
    replaced: tuple = ()  # players who declined a place they had earned
    pools: dict = field(default_factory=dict)  # id -> pool


def pool_of(player: Ranked, scope: str) -> str:
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; known: {', '.join(SCOPES)}")
    if scope == "group":
        return player.group
    if scope == "series":
        return player.series
    return ""


def _draw(players: Sequence[Ranked], seed: int, pool: str) -> list[Ranked]:
    """The tied players in the order of a draw reproducible from the stage's seed."""
    ordered = sorted(players, key=lambda p: str(p.id))
    random.Random(f"{seed}/{pool}/{ordered[0].rank}").shuffle(ordered)
    return ordered


def _cut_pool(
    pool: str, players: list[Ranked], places: int, seed: int
) -> tuple[list[Ranked], list[Tie], list[Ranked]]:
    """The qualifiers of one pool in order, the ties at its cut, the players who declined."""
    candidates = [p for p in players if not p.declined]
    chosen = candidates[:places]
    if not chosen:
        return [], [], []
    ties: list[Tie] = []
    if places < len(candidates):
        border, first_out = candidates[places - 1], candidates[places]
        if first_out.total == border.total and border.tied and first_out.rank == border.rank:
            level = [p for p in candidates if p.rank == border.rank]
            drawn = _draw(level, seed, pool)
            before = [p for p in candidates if p.rank < border.rank]
            chosen = before + drawn[: places - len(before)]
            ties.append(
                Tie(
                    pool=pool,
                    rank=border.rank,
                    players=tuple(p.id for p in drawn),
                    qualified=tuple(p.id for p in chosen[len(before) :]),
                    decided_by="draw",
                )
            )
        elif first_out.total == border.total:
            level = [p for p in candidates if p.total == border.total]
            ties.append(
                Tie(
                    pool=pool,
                    rank=level[0].rank,
                    players=tuple(p.id for p in level),
                    qualified=tuple(p.id for p in level if p in chosen),
                    decided_by=first_out.tie_break or border.tie_break,
                )
            )
    last = chosen[-1]
    return chosen, ties, [p for p in players if p.declined and p.rank <= last.rank]


def cut(
    standings: Iterable[Ranked],
    *,
    mode: str,
    value: int,
    scope: str = "stage",
    seed: int = 0,
    invitations: Sequence[Invitation] = (),
) -> Cut:
    """Who goes on from a stage's standings (given best first)."""
    players = list(standings)
    pools: dict[str, list[Ranked]] = {}
    for player in players:
        pools.setdefault(pool_of(player, scope), []).append(player)
    chosen: list[Ranked] = []
    places, last_in, ties, replaced = {}, {}, [], []
    for pool in sorted(pools):
        members = pools[pool]
        places[pool] = cut_size(len(members), mode=mode, value=value)
        taken, pool_ties, pool_replaced = _cut_pool(pool, members, places[pool], seed)
        chosen.extend(taken)
        ties.extend(pool_ties)
        replaced.extend(p.id for p in pool_replaced)
        if taken:
            last_in[pool] = taken[-1].id
    position = {p.id: index for index, p in enumerate(players)}
    drawn_order = {pid: index for tie in ties for index, pid in enumerate(tie.players)}
    chosen.sort(key=lambda p: (p.rank, drawn_order.get(p.id, 0), position[p.id]))
    ids = [p.id for p in chosen]
    taken_ids = set(ids)
    invited = [i for i in invitations if i.id not in taken_ids]
    seeded = [i.id for i in invited if i.kind == SEEDED]
    wildcards = [i.id for i in invited if i.kind != SEEDED]
    return Cut(
        qualified=tuple(dict.fromkeys(seeded + ids + wildcards)),
        places=places,
        last_in=last_in,
        ties=tuple(ties),
        invited=tuple(dict.fromkeys(seeded + wildcards)),
        replaced=tuple(replaced),
        pools={p.id: pool_of(p, scope) for p in players},
    )


def snake(ranked: Sequence[Hashable], sizes: Sequence[int]) -> list[list[Hashable]]:
    """Players (best first) dealt to tables of ``sizes`` in a snake: tables 1, 2 ... t, then
    t ... 1, then 1 ... t again, a table already full (of 3 beside 4s) being skipped. The t
    best players sit at different tables, and each table gets one player of each band of t."""
    if sum(sizes) != len(ranked):
        raise ValueError("the tables' seats must match the players")
    tables: list[list[Hashable]] = [[] for _ in sizes]
    players = list(ranked)
    lap = 0
    while players:
        indices = range(len(sizes)) if lap % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for index in indices:
            if players and len(tables[index]) < sizes[index]:
                tables[index].append(players.pop(0))
        lap += 1
    return tables


@dataclass(frozen=True)
class FinalPlace:
    position: int
    tied: bool
    id: Hashable
    stage: int  # the index of the last stage the player played
    stage_rank: int


def final_ranking(stages: Sequence[Sequence[tuple[Hashable, int]]]) -> list[FinalPlace]:
    """The championship's ranking from each stage's (player, rank) pairs, first stage first:
    the last stage's order, then those eliminated at each earlier stage (latest first), by
    their rank there. Players sharing a rank at the same stage share their place."""
    seen: set = set()
    places: list[FinalPlace] = []
    for stage_index in range(len(stages) - 1, -1, -1):
        out = [(pid, r) for pid, r in stages[stage_index] if pid not in seen]
        out.sort(key=lambda pair: pair[1])
        offset = len(places)
        for index, (pid, stage_rank) in enumerate(out):
            tied_before = index and out[index - 1][1] == stage_rank
            tied_after = index + 1 < len(out) and out[index + 1][1] == stage_rank
            position = places[-1].position if tied_before else offset + index + 1
            places.append(
                FinalPlace(
                    position=position,
                    tied=bool(tied_before or tied_after),
                    id=pid,
                    stage=stage_index,
                    stage_rank=stage_rank,
                )
            )
            seen.add(pid)
    return places

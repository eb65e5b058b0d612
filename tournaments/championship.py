"""A club's season championship, in plain Python (no Django).

Each counted tournament of the season gives every player ranked in it a :class:`Result` (place,
total, number of players ranked). The season's :class:`Formula` turns each result into season
points, and the players are ranked by decreasing season points:

- ``totals``: a result is worth the tournament total (points scored at the tables, penalties
  included, so it may be negative);
- ``places``: a result is worth the points of the place, from the organiser's table (1st 100,
  2nd 90 ... 10th 10 by default; a place beyond the table is worth 0). Tied players share the
  place and both get its points. Optionally scaled by the field: points × players ÷ ``scale_to``,
  rounded to the nearest whole point (halves up);
- ``best``: when N > 0, only the N best results of each player count (the others are shown, not
  added); 0 counts every result;
- ``attendance_bonus``: points added for every tournament played (counted or not by ``best``).

Ties share the rank (1, 2, 2, 4), as in tournament standings. A season may choose tie-breaks,
always labelled as chosen by the club (FFT has no season ranking):

- ``best_place``: the better single place of the season first;
- ``played``: more tournaments played first.

Which tournaments count (closed and final only) is decided by the caller; this module ranks the
results it is given.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

KINDS = ("totals", "places")
DEFAULT_PLACE_POINTS = (100, 90, 80, 70, 60, 50, 40, 30, 20, 10)
TIE_BREAKS = ("best_place", "played")
MAX_PLACES = 200  # lines of a place-points table
MAX_POINTS = 100_000  # any one number of the formula


class FormulaError(ValueError):
    """A formula that cannot rank; ``code`` names the reason for the caller's message."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Formula:
    kind: str = "totals"
    best: int = 0  # 0: every result counts; N: each player's N best results
    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    scale_to: int = 0  # 0: not scaled; K: place points × players ÷ K
    attendance_bonus: int = 0  # points per tournament played
    tie_breaks: tuple[str, ...] = ()

    def check(self) -> None:
        """Raise :class:`FormulaError` for a formula that cannot rank."""
        if self.kind not in KINDS:
            raise FormulaError("kind")
        if not 0 <= self.best <= 1000:
            raise FormulaError("best")
        if not 1 <= len(self.place_points) <= MAX_PLACES:
            raise FormulaError("place_points.count")
        if any(not 0 <= p <= MAX_POINTS for p in self.place_points):
            raise FormulaError("place_points.range")
        if any(a < b for a, b in zip(self.place_points, self.place_points[1:], strict=False)):
            raise FormulaError("place_points.order")
        if not 0 <= self.scale_to <= 10_000:
            raise FormulaError("scale_to")
        if not 0 <= self.attendance_bonus <= MAX_POINTS:
            raise FormulaError("attendance_bonus")
        if any(t not in TIE_BREAKS for t in self.tie_breaks) or len(set(self.tie_breaks)) != len(
            self.tie_breaks
        ):
            raise FormulaError("tie_breaks")


@dataclass(frozen=True)
class Result:
    """One player's final result in one counted tournament."""

    tournament: Hashable
    player: Hashable
    name: str
    place: int
    total: int
    field: int  # players ranked in that tournament
    tied: bool = False


@dataclass(frozen=True)
class Line:
    """What one result brings to the season: its points, and whether the formula adds them."""

    result: Result
    points: int
    counted: bool


@dataclass(frozen=True)
class SeasonStanding:
    rank: int
    tied: bool
    player: Hashable
    name: str
    points: int  # counted lines plus the attendance bonus
    bonus: int
    lines: tuple[Line, ...] = field(default=())  # in the order the results were given
    tie_break: str = ""  # what decided between equal points, when a tie-break did

    @property
    def played(self) -> int:
        return len(self.lines)

    @property
    def best_place(self) -> int | None:
        return min((line.result.place for line in self.lines), default=None)


def _half_up(numerator: int, denominator: int) -> int:
    """numerator ÷ denominator to the nearest integer, halves away from zero (both >= 0 here)."""
    return (2 * numerator + denominator) // (2 * denominator)


def place_points(formula: Formula, place: int, field_size: int) -> int:
    """The points of a place in a tournament of ``field_size`` players under ``formula``."""
    base = formula.place_points[place - 1] if 1 <= place <= len(formula.place_points) else 0
    if formula.scale_to:
        return _half_up(base * field_size, formula.scale_to)
    return base


def result_points(formula: Formula, result: Result) -> int:
    if formula.kind == "totals":
        return result.total
    return place_points(formula, result.place, result.field)


def player_lines(formula: Formula, results: Sequence[Result]) -> tuple[Line, ...]:
    """Each result's points, the ``best`` N marked counted (the earlier result wins a tie)."""
    points = [result_points(formula, r) for r in results]
    counted = set(range(len(results)))
    if formula.best and len(results) > formula.best:
        by_value = sorted(range(len(results)), key=lambda i: (-points[i], i))
        counted = set(by_value[: formula.best])
    return tuple(
        Line(result=r, points=p, counted=i in counted)
        for i, (r, p) in enumerate(zip(results, points, strict=True))
    )


def _competition_ranks(keys: Sequence[tuple]) -> list[tuple[int, bool]]:
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


def _tie_key(standing: SeasonStanding, tie_breaks: Sequence[str]) -> tuple[int, ...]:
    """Larger is better for each tie-break value."""
    key = []
    for name in tie_breaks:
        if name == "best_place":
            key.append(-(standing.best_place or 10**9))
        elif name == "played":
            key.append(standing.played)
    return tuple(key)


def season_standings(results: Iterable[Result], formula: Formula) -> list[SeasonStanding]:
    """Players by decreasing season points, ties sharing the rank unless a tie-break decides."""
    formula.check()
    by_player: dict[Hashable, list[Result]] = {}
    for result in results:
        by_player.setdefault(result.player, []).append(result)
    unranked = []
    for player, mine in by_player.items():
        lines = player_lines(formula, mine)
        bonus = formula.attendance_bonus * len(lines)
        unranked.append(
            SeasonStanding(
                rank=0,
                tied=False,
                player=player,
                name=mine[-1].name,
                points=sum(line.points for line in lines if line.counted) + bonus,
                bonus=bonus,
                lines=lines,
            )
        )
    tie_breaks = formula.tie_breaks
    extra = {s.player: _tie_key(s, tie_breaks) for s in unranked}
    ordered = sorted(
        unranked,
        key=lambda s: (
            -s.points,
            tuple(-k for k in extra[s.player]),
            s.name.casefold(),
            str(s.player),
        ),
    )
    keys = [(s.points, extra[s.player]) for s in ordered]
    standings = []
    for index, (standing, (position, tied)) in enumerate(
        zip(ordered, _competition_ranks(keys), strict=True)
    ):
        decided = ""
        if tie_breaks and not tied:
            level = [
                ordered[i]
                for i in (index - 1, index + 1)
                if 0 <= i < len(ordered) and ordered[i].points == standing.points
            ]
            if level:
                mine = extra[standing.player]
                decided = next(
                    (
                        name
                        for position_in_key, name in enumerate(tie_breaks)
                        if any(
                            extra[n.player][position_in_key] != mine[position_in_key] for n in level
                        )
                    ),
                    "",
                )
        standings.append(
            SeasonStanding(
                rank=position,
                tied=tied,
                player=standing.player,
                name=standing.name,
                points=standing.points,
                bonus=standing.bonus,
                lines=standing.lines,
                tie_break=decided,
            )
        )
    return standings


@dataclass(frozen=True)
class Career:
    """One player's results over some tournaments: the figures of a career page."""

    results: tuple[Result, ...]

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def total(self) -> int:
        return sum(r.total for r in self.results)

    @property
    def average(self) -> float | None:
        return self.total / self.played if self.results else None

    @property
    def best_total(self) -> int | None:
        return max((r.total for r in self.results), default=None)

    @property
    def best_place(self) -> int | None:
        return min((r.place for r in self.results), default=None)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.place == 1)


def season_points(formula: Formula, results: Sequence[Result]) -> int:
    """One player's season points from their results (they depend on no one else's)."""
    lines = player_lines(formula, results)
    return sum(line.points for line in lines if line.counted) + formula.attendance_bonus * len(
        lines
    )


def progression(formula: Formula, results: Sequence[Result]) -> list[int]:
    """A player's season points after each of their results, in order (the career chart):
    the points the season would give if it stopped there."""
    return [season_points(formula, results[: k + 1]) for k in range(len(results))]

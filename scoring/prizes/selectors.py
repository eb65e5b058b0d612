"""The reads of the prize list: each category's standings and who wins which prize, from the
standings data (:mod:`scoring.standings`) and one query of what the registrations carry.

Both are kept with the standings data they were computed from (``StandingsData.computed``):
every change to the categories or prizes, as to results, moves the tournament's version
(``tournament_touch``), so a page never shows a stale category.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.prizes import rules
from scoring.prizes.models import Category, Prize, PrizeSettings, category_label
from tournaments.models import Registration, Tournament
from tournaments.ranking import rank_label


def scratch_label() -> str:
    return _("Scratch")


@dataclass(frozen=True)
class CategoryRow:
    rank: int
    tied: bool
    id: int
    name: str
    club: str
    scratch_rank: int | str
    total: int

    @property
    def shown_rank(self) -> int | str:
        return rank_label(self.rank, self.tied)


@dataclass(frozen=True)
class CategoryStandings:
    key: int
    kind: str
    age: int | None
    series: str
    rows: list[CategoryRow]
    position: int = 0  # in the order of priority of the prizes

    @property
    def label(self) -> str:
        """In the language of the page asking (the standings data are shared by all)."""
        return category_label(self.kind, self.age, self.series)


@dataclass(frozen=True)
class PrizeLine:
    of: CategoryStandings | None  # None: scratch
    place: int
    description: str
    winner: CategoryRow | None  # None: nobody to take it

    @property
    def category(self) -> str:
        return self.of.label if self.of is not None else scratch_label()


@dataclass(frozen=True)
class PrizeList:
    cumulative: bool
    lines: list[PrizeLine]

    @property
    def rule(self) -> str:
        """The rule in words, as every page and document prints it."""
        return prize_rule_text(self.cumulative)


def people_of(tournament: Tournament) -> dict[int, rules.Person]:
    """What each registration carries for the categories: one query."""
    return {
        pk: rules.Person(pk, sex, birth_year, series)
        for pk, sex, birth_year, series in Registration.objects.filter(tournament=tournament)
        .order_by()
        .values_list("pk", "sex", "birth_year", "series")
    }


def categories_of(tournament: Tournament) -> list[Category]:
    return list(Category.objects.filter(tournament=tournament))


def _rows(data) -> tuple[list[tuple[int, int]], dict[int, tuple]]:
    """The scratch order (id, rank) and each player's columns (kept with the data)."""
    key = ("prizes", "rows")
    if key not in data.computed:
        standings = data.standings()
        scratch = [(s.entry.id, s.rank) for s in standings]
        rows = {
            s.entry.id: (
                s.entry.id,
                s.entry.name,
                s.entry.club,
                rank_label(s.rank, s.tied),
                s.total,
            )
            for s in standings
        }
        data.computed[key] = (scratch, rows)
    return data.computed[key]


def category_standings(tournament: Tournament, data) -> list[CategoryStandings]:
    """Each category's standings (in the organiser's order), from ``data``, the tournament's
    standings data: three queries the first time, none afterwards."""
    key = ("prizes", "categories")
    if key not in data.computed:
        data.computed[key] = _category_standings(tournament, data)
    return data.computed[key]


def _category_standings(tournament: Tournament, data) -> list[CategoryStandings]:
    categories = categories_of(tournament)
    if not categories:
        return []
    people = people_of(tournament)
    scratch, rows = _rows(data)
    year = tournament.date.year
    result = []
    for category in categories:
        placed = rules.category_standings(category.rule(), scratch, people, year)
        members = [CategoryRow(p.rank, p.tied, *rows[p.id]) for p in placed]
        result.append(
            CategoryStandings(
                category.pk,
                category.kind,
                category.age,
                category.series,
                members,
                category.position,
            )
        )
    return result


def prize_rule_text(cumulative: bool) -> str:
    if cumulative:
        return _("Prizes add up: each place of each category wins its prize.")
    return _(
        "One prize per player: the best they qualify for, in the order of this list; the next "
        "player of the category then takes the category's prize."
    )


def prize_list(tournament: Tournament, data) -> PrizeList:
    """Who wins each prize, from the standings ``data`` (withdrawn players win none)."""
    key = ("prizes", "list")
    if key not in data.computed:
        data.computed[key] = _prize_list(tournament, data)
    return data.computed[key]


def _prize_list(tournament: Tournament, data) -> PrizeList:
    settings = PrizeSettings.objects.filter(tournament=tournament).first()
    cumulative = settings.cumulative if settings else False
    scratch_position = settings.scratch_position if settings else 0
    prizes = list(Prize.objects.filter(tournament=tournament))
    standings = category_standings(tournament, data)
    if not prizes:
        return PrizeList(cumulative, [])
    withdrawn = {e.id for e in data.entries if e.withdrawn}
    scratch, rows = _rows(data)
    orders: dict = {None: [pid for pid, _rank in scratch if pid not in withdrawn]}
    of: dict = {None: None}
    positions: list[tuple[int, int, int | None]] = [(scratch_position, -1, None)]
    for index, category in enumerate(standings):
        orders[category.key] = [row.id for row in category.rows if row.id not in withdrawn]
        of[category.key] = category
        positions.append((category.position, index, category.key))
    priority = [key for _position, _index, key in sorted(positions, key=lambda p: p[:2])]
    by_key = {p.pk: p for p in prizes}
    awards = rules.award(
        [rules.Prize(p.pk, p.category_id, p.place) for p in prizes],
        orders,
        priority,
        cumulative=cumulative,
    )
    lines = []
    for awarded in awards:
        prize = by_key[awarded.prize.key]
        winner = (
            CategoryRow(0, False, *rows[awarded.winner]) if awarded.winner is not None else None
        )
        lines.append(PrizeLine(of[prize.category_id], prize.place, prize.description, winner))
    return PrizeList(cumulative, lines)

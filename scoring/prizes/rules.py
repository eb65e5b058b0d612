"""Categories and the prize list, in plain Python (no Django).

A category is a rule the organiser sets on what a registration carries (sex, year of birth,
série): Dames (women), Jeunes (under N years), Seniors (N years and over), or one série.

- **Age** is the age a player reaches during the calendar year of the tournament's date:
  ``tournament year - year of birth``, whatever the day of the tournament and of the birthday
  (a player born in 2008 is 18 all through 2026). Only the year of birth is known.
  Jeunes under 18 takes ages up to 17; Seniors 60 takes 60 and over. No year of birth: in
  neither category.
- **Category standings** keep the scratch standings' order; players tied in the scratch
  standings share their place in the category too.
- **Prizes**: each category has prizes for its first places; scratch is a category of
  everyone. With one prize per player (the default), prizes are handed out category by
  category in the organiser's order of priority, each category's by place: a prize goes to
  the best-placed player of its category who has no prize yet (the one who took a scratch
  prize leaves the category's prize to the next player of the category). With prizes that add
  up, place N of a category wins its prize whatever else they won. A prize nobody can take
  (too few players) stays unawarded.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

WOMEN, YOUTH, SENIOR, SERIES = "women", "youth", "senior", "series"
KINDS = (WOMEN, YOUTH, SENIOR, SERIES)


@dataclass(frozen=True)
class Person:
    """What a category reads of a player."""

    id: Hashable
    sex: str = ""  # "F", "M" or "" (not given)
    birth_year: int | None = None
    series: str = ""


@dataclass(frozen=True)
class Category:
    key: Hashable
    kind: str
    age: int | None = None  # YOUTH: under this age; SENIOR: this age and over
    series: str = ""  # SERIES: the série's name


def age_in(event_year: int, birth_year: int | None) -> int | None:
    """The age reached during ``event_year`` (the tournament's year); None without a year."""
    if birth_year is None:
        return None
    return event_year - birth_year


def belongs(category: Category, person: Person, event_year: int) -> bool:
    """Whether ``person`` is in ``category`` at a tournament of ``event_year``."""
    return matcher(category, event_year)(person)


def matcher(category: Category, event_year: int) -> Callable[[Person], bool]:
    """The test of :func:`belongs` for one category, made once for a whole field."""
    if category.kind == WOMEN:
        return lambda person: person.sex == "F"
    if category.kind == SERIES:
        wanted = category.series.casefold()
        return lambda person: bool(wanted) and person.series.casefold() == wanted
    if category.kind not in (YOUTH, SENIOR):
        raise ValueError(f"unknown kind of category: {category.kind!r}")
    limit = category.age
    if limit is None:
        return lambda person: False
    if category.kind == YOUTH:
        return lambda person: (
            person.birth_year is not None and age_in(event_year, person.birth_year) < limit
        )
    return lambda person: (
        person.birth_year is not None and age_in(event_year, person.birth_year) >= limit
    )


@dataclass(frozen=True)
class Placed:
    """A player's place in a category's standings."""

    rank: int  # shared by players tied in the scratch standings
    tied: bool
    id: Hashable
    scratch_rank: int


def category_standings(
    category: Category,
    scratch: Sequence[tuple[Hashable, int]],
    people: Mapping[Hashable, Person],
    event_year: int,
) -> list[Placed]:
    """The category's players in the scratch order. ``scratch``: (id, scratch rank), best
    first; a player missing from ``people`` is in no category."""
    test = matcher(category, event_year)
    members = [(pid, rank) for pid, rank in scratch if pid in people and test(people[pid])]
    placed: list[Placed] = []
    for index, (pid, rank) in enumerate(members):
        tied_before = index > 0 and members[index - 1][1] == rank
        tied_after = index + 1 < len(members) and members[index + 1][1] == rank
        place = placed[-1].rank if tied_before else index + 1
        placed.append(Placed(place, tied_before or tied_after, pid, rank))
    return placed


@dataclass(frozen=True)
class Prize:
    key: Hashable
    category: Hashable | None  # None: scratch
    place: int


@dataclass(frozen=True)
class Award:
    prize: Prize
    winner: Hashable | None  # None: nobody left to take it


def award(
    prizes: Sequence[Prize],
    orders: Mapping[Hashable | None, Sequence[Hashable]],
    priority: Sequence[Hashable | None],
    *,
    cumulative: bool = False,
) -> list[Award]:
    """Who wins each prize. ``orders``: each category's players, best first (scratch under
    None); ``priority``: the categories (None for scratch) in the organiser's order, a
    category left out coming after those named. Returns the awards by priority, then place."""
    rank_of = {key: index for index, key in enumerate(priority)}
    ordered = sorted(prizes, key=lambda p: (rank_of.get(p.category, len(rank_of)), p.place))
    awards: list[Award] = []
    awarded: set[Hashable] = set()
    for prize in ordered:
        order = orders.get(prize.category, ())
        if cumulative:
            winner = order[prize.place - 1] if prize.place <= len(order) else None
        else:
            winner = next((pid for pid in order if pid not in awarded), None)
            if winner is not None:
                awarded.add(winner)
        awards.append(Award(prize, winner))
    return awards

"""What the pages shown for one hall share (``?salle=<slug>``): the hall asked for (for a
referee assigned to a hall, theirs by default; ``?salle=toutes`` shows every hall), the links to
each hall, and the tables of that hall only. Reads only."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlencode

from tournaments.halls.models import Hall
from tournaments.halls.selectors import ALL_HALLS, halls_of, referee_hall
from tournaments.models import Tournament

T = TypeVar("T")


@dataclass(frozen=True)
class HallChoice:
    hall: Hall | None = None
    halls: list[Hall] = field(default_factory=list)

    @property
    def query(self) -> str:
        """``?salle=<slug>`` for the links of a page shown for one hall ("" for every hall)."""
        return "?" + urlencode({"salle": self.hall.slug}) if self.hall else ""

    def only(self, items: Iterable[T], number: Callable[[T], int]) -> list[T]:
        """The ``items`` (tables, or what holds a table number) of the hall shown."""
        if self.hall is None:
            return list(items)
        return [item for item in items if self.hall.holds(number(item))]


def hall_choice(request: Any, tournament: Tournament, *, staff: bool = False) -> HallChoice:
    """The hall a page shows: ``?salle=<slug>``; on the staff pages, without it, the hall the
    user referees (none: every hall). Two queries at most; one on a staff page without halls,
    none on a public page without ``?salle=``."""
    asked = request.GET.get("salle", "").strip().lower()
    if not staff and not asked:
        return HallChoice()  # a page for every hall: no query
    halls = halls_of(tournament)
    if not halls:
        return HallChoice()
    if asked == ALL_HALLS:
        return HallChoice(None, halls)
    found = next((h for h in halls if h.slug == asked), None)
    if found is None and staff and not asked:
        found = referee_hall(tournament, request.user)
    return HallChoice(found, halls)

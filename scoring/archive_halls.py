"""A tournament archive's halls (``"halls"``: whether players keep their hall, and each hall's
name, short name and tables), beside :mod:`scoring.archive`, which calls these two functions.
An archive without halls has no ``"halls"`` key (older archives import unchanged). Referees'
halls are not archived: staff roles never are (an archive grants no access)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.archive_values import Value, max_length
from tarot_club.errors import ServiceError
from tournaments.halls.models import Hall
from tournaments.halls.selectors import halls_of, keeps_players
from tournaments.halls.services import HallRow, halls_set
from tournaments.models import Tournament


def export_halls(tournament: Tournament) -> dict:
    halls = halls_of(tournament)
    if not halls:
        return {}
    rows = [
        {"name": h.name, "slug": h.slug, "first": h.first_table, "last": h.last_table}
        for h in halls
    ]
    return {"halls": {"keep_players": keeps_players(tournament), "list": rows}}


def import_halls(root: Value, tournament: Tournament) -> None:
    """Set the archive's halls on the tournament being imported (before its rounds)."""
    if "halls" not in root:
        return
    data = root["halls"]
    rows = []
    for hall in data["list"].list(max_items=1_000):
        slug = hall["slug"].text(max_length(Hall, "slug"), blank=False)
        if not slug.replace("-", "").replace("_", "").isalnum() or slug != slug.lower():
            hall["slug"].fail(_("not a short name"))
        rows.append(
            HallRow(
                name=hall["name"].name(max_length(Hall, "name"), blank=False),
                slug=slug,
                first=hall["first"].int(1, 32767),
                last=hall["last"].int(1, 32767),
            )
        )
    try:
        halls_set(tournament=tournament, halls=rows, keep_players=data["keep_players"].bool())
    except ServiceError as error:
        data["list"].fail(str(error))

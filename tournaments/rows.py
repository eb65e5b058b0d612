"""What a player's row may hold: the checks shared by the forms, the import and the services.

No writes here: each check says what is wrong (:func:`row_problems`) or raises the
:class:`ServiceError` a service stops on (:func:`check_length`, :func:`validate_row`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_club.errors import ServiceError
from tournaments.models import (
    Club,
    Player,
    Team,
)
from tournaments.names import clean_name


def check_length(text: str, limit: int, field: str | None = None) -> None:
    """A ServiceError when a typed text is longer than its limit (:mod:`tournaments.limits`):
    the forms say so first; this keeps every other way in (a command, a script) to the same
    limit, so that no database ever refuses, or cuts, what was typed."""
    if len(text) > limit:
        raise ServiceError(
            _("This text is too long: at most %(limit)d characters (it has %(count)d).")
            % {"limit": limit, "count": len(text)},
            field=field,
        )


@dataclass(frozen=True)
class PlayerRow:
    """One player to register, as typed or read from an import file (names cleaned here:
    ``names.clean_name``)."""

    last_name: str
    first_name: str = ""
    club: str = ""
    licence: str = ""
    team: str = ""

    def __post_init__(self):
        for name in ("last_name", "first_name", "club", "team"):
            object.__setattr__(self, name, clean_name(getattr(self, name)))


def _limit(model, field: str) -> int:
    return model._meta.get_field(field).max_length


# What a row's texts may hold: (field, its limit, how the messages name it). The limits are the
# model's: a longer text would be cut by SQLite and refused by PostgreSQL.
ROW_TEXTS = (
    ("last_name", _limit(Player, "last_name"), gettext_lazy("last name")),
    ("first_name", _limit(Player, "first_name"), gettext_lazy("first name")),
    ("club", _limit(Club, "name"), gettext_lazy("club")),
    ("licence", _limit(Player, "licence"), gettext_lazy("licence")),
    ("team", _limit(Team, "name"), gettext_lazy("team name")),
)


_CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode's category Cc


def _has_control_character(text: str) -> bool:
    """A NUL or another control character: PostgreSQL refuses NUL in text, and none belongs
    in a name (tabs and line breaks included: a cell is one line)."""
    return _CONTROL_CHARACTER.search(text) is not None


def text_problems(field: str, text: str) -> list[str]:
    """What is wrong with one text of a player's row (``field`` of :data:`ROW_TEXTS`)."""
    _field, limit, name = next(entry for entry in ROW_TEXTS if entry[0] == field)
    problems = []
    if len(text) > limit:
        problems.append(
            _("%(field)s longer than %(limit)d characters") % {"field": name, "limit": limit}
        )
    if _has_control_character(text):
        problems.append(_("a control character (such as NUL) in the %(field)s") % {"field": name})
    return problems


def row_problems(values: dict[str, str]) -> list[tuple[str, str]]:
    """Everything wrong with one player's texts (typed or read from a file), as (field,
    message): the one place of these rules, for the import preview and the services."""
    problems = []
    if not values.get("last_name", "").strip():
        problems.append(("last_name", _("missing last name")))
    for field, _limit, _name in ROW_TEXTS:
        problems += [(field, message) for message in text_problems(field, values.get(field, ""))]
    return problems


def validate_row(row: PlayerRow) -> None:
    problems = row_problems(
        {
            "last_name": row.last_name,
            "first_name": row.first_name,
            "club": row.club,
            "licence": row.licence,
            "team": row.team,
        }
    )
    if problems:
        field, message = problems[0]
        raise ServiceError(capfirst(message) + ".", field=field)


def other_holder(player_last: str, player_first: str, row: PlayerRow) -> bool:
    """Whether the licence's holder (``player_*``) is someone else than the row's player."""
    return player_last.casefold() != row.last_name.strip().casefold() or bool(
        row.first_name.strip()
        and player_first
        and player_first.casefold() != row.first_name.strip().casefold()
    )

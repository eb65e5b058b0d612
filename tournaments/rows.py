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
from tournaments import limits
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
    # What the categories read: a série of the organiser's list, "F" / "M", a year of birth.
    series: str = ""
    sex: str = ""
    birth_year: int | None = None

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


# --- série, sex and year of birth (what the prize list's categories read) -------------------

#: How a file or a form may write a sex (case and accents as typed are folded first).
SEX_WORDS = {
    "f": "F",
    "femme": "F",
    "dame": "F",
    "d": "F",
    "w": "F",
    "woman": "F",
    "m": "M",
    "h": "M",
    "homme": "M",
    "man": "M",
}


def series_of(series_list: str) -> list[str]:
    """A tournament's séries, in the organiser's order: one a line, blank lines and repeats
    (ignoring case) dropped."""
    seen, series = set(), []
    for line in series_list.splitlines():
        name = clean_name(line)
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            series.append(name)
    return series


def latest_birth_year(tournament) -> int:
    """The latest year of birth a player may have: the tournament's year."""
    return tournament.date.year


def read_details(
    values: dict[str, str], *, series: list[str], latest_year: int
) -> tuple[dict, list[tuple[str, str]]]:
    """A row's série, sex and year of birth as typed (texts, each may be empty): the values to
    store (the série spelt as in the list, "F" / "M", an int or None) and, as (field,
    message), everything wrong with them."""
    problems: list[tuple[str, str]] = []
    typed_series = clean_name(values.get("series", ""))
    known = {name.casefold(): name for name in series}
    found_series = known.get(typed_series.casefold(), "") if typed_series else ""
    if typed_series and not found_series:
        problems.append(
            (
                "series",
                _("Série “%(series)s”: not one of this tournament's séries (%(known)s)")
                % {"series": typed_series, "known": ", ".join(series) or "—"},
            )
        )
    typed_sex = values.get("sex", "").strip()
    sex = SEX_WORDS.get(typed_sex.casefold(), "") if typed_sex else ""
    if typed_sex and not sex:
        problems.append(
            ("sex", _("Sex “%(sex)s”: F (woman) or M (man) expected") % {"sex": typed_sex})
        )
    typed_year = values.get("birth_year", "").strip()
    year = None
    if typed_year.endswith(".0"):  # a spreadsheet's number cell read as text
        typed_year = typed_year[:-2]
    if typed_year:
        if not (typed_year.isascii() and typed_year.isdigit()):
            problems.append(
                (
                    "birth_year",
                    _("Year of birth “%(year)s”: a year such as 1984 is expected")
                    % {"year": typed_year},
                )
            )
        elif not limits.OLDEST_BIRTH_YEAR <= int(typed_year) <= latest_year:
            problems.append(
                (
                    "birth_year",
                    _("Year of birth %(year)s: it must be between %(oldest)d and %(latest)d")
                    % {
                        "year": typed_year,
                        "oldest": limits.OLDEST_BIRTH_YEAR,
                        "latest": latest_year,
                    },
                )
            )
        else:
            year = int(typed_year)
    return {"series": found_series, "sex": sex, "birth_year": year}, problems


def checked_details(row: PlayerRow, tournament) -> dict:
    """The row's série, sex and year of birth as stored (:func:`read_details`); a ServiceError
    when one is not what this tournament takes (the forms and the import say so first, with
    every problem)."""
    values, problems = read_details(
        {
            "series": row.series,
            "sex": row.sex,
            "birth_year": "" if row.birth_year is None else str(row.birth_year),
        },
        series=series_of(tournament.series_list),
        latest_year=latest_birth_year(tournament),
    )
    if problems:
        field, message = problems[0]
        raise ServiceError(message + ".", field=field)
    return values

"""A season's archive: the club, the season and its formula, and every tournament of the season
as its own tournament archive (``scoring.archive``), in one versioned JSON document.

Importing it into another database gives the same season standings: each tournament is imported
with the tournament archive's checks (same standings, same sheet fingerprints), all or nothing.
The club and season texts are checked first (text, no NUL or control character, within
``tournaments.limits``), so a damaged archive is a sentence on every database. The archive's
club is matched on its identity (its short name, or its name): a club already here is merged
into only when the caller says so (``merge_club``); otherwise :class:`ExistingClub` says what
would be merged and nothing is imported.
"""

from __future__ import annotations

import json
from datetime import date

from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.archive import export_tournament, import_json
from scoring.archive_values import Damaged, parse_constant, parse_float, parse_int
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Club, Season
from tournaments.names import clean_name
from tournaments.services import clubs

FORMAT = "tarot-club-season"
VERSION = 1
# The largest season archive read, checked before it is parsed: a season of 40 club
# tournaments of 30 players over 5 rounds is about 20 MB. Each tournament in it is also held to
# the tournament archive's own limit.
MAX_BYTES = 100 * 1024 * 1024
SEASON_FIELDS = ("kind", "best", "place_points", "scale_to", "attendance_bonus", "tie_breaks")


def export_season(season: Season) -> dict:
    club = season.club
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {"name": club.name, "slug": club.slug, "place": club.place},
        "season": {
            "name": season.name,
            "start": season.start.isoformat(),
            "end": season.end.isoformat(),
            **{f: getattr(season, f) for f in SEASON_FIELDS},
        },
        "tournaments": [export_tournament(t) for t in season.tournaments.order_by("date", "pk")],
    }


def export_season_json(season: Season) -> bytes:
    return json.dumps(export_season(season), ensure_ascii=False, indent=1).encode()


class ExistingClub(ServiceError):
    """The archive's club is already here: importing would add its season to it."""

    def __init__(self, club: Club, season_name: str, tournaments: int):
        members, seasons = club.player_set.count(), club.seasons.count()
        super().__init__(
            _(
                "The club “%(club)s” is already here (%(members)s, %(seasons)s): importing "
                "would add to it the season “%(season)s” (%(tournaments)s). Nothing was "
                "imported."
            )
            % {
                "club": club.name,
                "members": ngettext("%(n)d member", "%(n)d members", members) % {"n": members},
                "seasons": ngettext("%(n)d season", "%(n)d seasons", seasons) % {"n": seasons},
                "season": season_name,
                "tournaments": ngettext("%(n)d tournament", "%(n)d tournaments", tournaments)
                % {"n": tournaments},
            }
        )
        self.club = club


def import_season_json(content: bytes | str, organiser=None, merge_club: bool = False) -> Season:
    """Import a season archive, all or nothing; ServiceError says what is wrong.
    ``merge_club``: add the season to the archive's club when it is already here."""
    if len(content) > MAX_BYTES:
        raise ServiceError(too_large_message())
    try:
        archive = json.loads(
            content, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant
        )
    except (Damaged, RecursionError):
        raise ServiceError(
            _("The archive is damaged (%(error)s): nothing was imported.")
            % {"error": _("a number or a nesting no archive holds")}
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ServiceError(_("This file is not a season archive (it is not JSON).")) from None
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ServiceError(_("This file is not a Tarot Club season archive."))
    if not isinstance(archive.get("version"), int) or archive["version"] > VERSION:
        raise ServiceError(
            _("This archive was made by a newer version of the application (format %(v)s).")
            % {"v": archive.get("version")}
        )
    try:
        with transaction.atomic():
            return _import(archive, organiser, merge_club)
    except ServiceError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ServiceError(
            _("The archive is damaged (%(error)s): nothing was imported.") % {"error": error}
        ) from None


def too_large_message() -> str:
    return _(
        "This file is over %(limit)s, the largest season archive this installation reads: "
        "nothing was imported."
    ) % {"limit": filesizeformat(MAX_BYTES)}


def _text(data: dict, key: str, limit: int, what: str, required: bool = True) -> str:
    if not isinstance(data, dict):
        raise TypeError(what)
    if key not in data and not required:
        return ""
    value = data[key]
    if not isinstance(value, str) or (required and not value.strip()):
        raise ServiceError(
            _("The archive is damaged (%(error)s): nothing was imported.")
            % {"error": _("%(what)s is missing or is not a text") % {"what": what}}
        )
    if any(ord(c) < 32 for c in value) or len(value) > limit:
        raise ServiceError(
            _("The archive is damaged (%(error)s): nothing was imported.")
            % {"error": _("%(what)s holds a control character or is too long") % {"what": what}}
        )
    return value.strip()


def _local_club(name: str, slug: str) -> Club | None:
    """The club here that is the archive's: the same short name, else the same name."""
    if slug:
        club = Club.objects.filter(slug=slug).first()
        if club is not None:
            return club
    return Club.objects.filter(name=name).first()


def _import(archive: dict, organiser, merge_club: bool) -> Season:
    data = archive["club"]
    name = clean_name(_text(data, "name", limits.CLUB, _("the club's name")))
    place = _text(data, "place", limits.PLACE, _("the club's place"), required=False)
    slug = _text(data, "slug", 80, _("the club's short name"), required=False)
    season_data = archive["season"]
    season_name = clean_name(_text(season_data, "name", limits.SEASON_NAME, _("the season's name")))
    season_data = {**season_data, "name": season_name}
    club = _local_club(name, slug)
    if club is not None and not merge_club:
        raise ExistingClub(club, season_name, len(archive["tournaments"]))
    if club is None or not club.slug:
        club = clubs.club_create(
            name=club.name if club else name, place=place, organiser=organiser, ask=False
        )
    elif organiser is not None:
        club.organisers.add(organiser)
    if Season.objects.filter(club=club, name=season_data["name"]).exists():
        raise ServiceError(
            _("The season “%(name)s” of this club already exists here: nothing was imported.")
            % {"name": season_data["name"]}
        )
    season = clubs.season_create(
        club=club,
        name=season_data["name"],
        start=date.fromisoformat(season_data["start"]),
        end=date.fromisoformat(season_data["end"]),
        **{f: season_data[f] for f in SEASON_FIELDS},
    )
    for tournament_archive in archive["tournaments"]:
        tournament = import_json(json.dumps(tournament_archive))
        clubs.tournament_season_set(user=None, tournament=tournament, season=season)
    return Season.objects.get(pk=season.pk)

"""Services importing a tournament's players from CSV or Excel: a preview that writes nothing,
then the import of every row or none, in bulk.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_club.errors import ServiceError
from tournaments.files import read_table as _read_table
from tournaments.licensees.selectors import import_warnings, listed_details, listed_for
from tournaments.models import (
    Club,
    Player,
    Registration,
    Team,
    Tournament,
)
from tournaments.names import clean_name
from tournaments.rows import (
    PlayerRow,
    latest_birth_year,
    other_holder,
    read_details,
    row_problems,
    series_of,
)
from tournaments.selectors import name_key
from tournaments.services.tournaments import tournament_touch

COLUMN_ALIASES = {
    "last_name": {"nom", "last name", "last_name", "surname", "name", "nom de famille"},
    "first_name": {"prénom", "prenom", "first name", "first_name", "given name"},
    "club": {"club"},
    "licence": {
        "licence",
        "license",
        "licence fft",
        "n° licence",
        "numéro de licence",
        "no licence",
    },
    "team": {"équipe", "equipe", "team"},
    "series": {"série", "serie", "series", "catégorie fft"},
    "sex": {"sexe", "sex", "genre", "h/f", "f/h"},
    "birth_year": {
        "année de naissance",
        "annee de naissance",
        "naissance",
        "né en",
        "year of birth",
        "birth year",
        "birth_year",
    },
}
# Columns holding a name: cleaned as every name coming in (names.clean_name).
NAME_COLUMNS = ("last_name", "first_name", "club", "team")


@dataclass
class ImportRow:
    line: int
    values: dict[str, str]
    errors: list[str]
    # Not errors: a likely duplicate (a player already registered, or another line, with the
    # same name ignoring case and accents) is imported, and flagged on the players list.
    warnings: list[str] = dataclass_field(default_factory=list)
    # The série, sex and year of birth as stored (tournaments.rows.read_details).
    details: dict = dataclass_field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class ImportPreview:
    rows: list[ImportRow]
    file_errors: list[str]

    @property
    def ok(self) -> bool:
        return not self.file_errors and all(r.ok for r in self.rows) and bool(self.rows)

    @property
    def bad_rows(self) -> list[ImportRow]:
        return [r for r in self.rows if not r.ok]


def players_import_preview(
    *, tournament: Tournament, filename: str, content: bytes
) -> ImportPreview:
    """Read the file and check every row; writes nothing."""
    table = [row for row in _read_table(filename, content) if any(cell for cell in row)]
    if not table:
        return ImportPreview(rows=[], file_errors=[_("The file is empty.")])
    header = [cell.strip().casefold() for cell in table[0]]
    known = "nom, prénom, club, licence, série, sexe, année de naissance" + (
        ", équipe" if tournament.is_team_event else ""
    )
    series = series_of(tournament.series_list)
    latest_year = latest_birth_year(tournament)
    columns: dict[int, str] = {}
    file_errors: list[str] = []
    for index, title in enumerate(header):
        field = next((f for f, names in COLUMN_ALIASES.items() if title in names), None)
        if field is None:
            if title:
                file_errors.append(
                    _("Unknown column “%(column)s”. Known columns: %(known)s.")
                    % {"column": table[0][index], "known": known}
                )
            continue
        columns[index] = field
    if "last_name" not in columns.values():
        file_errors.append(_("The file needs a “nom” (last name) column."))
    if tournament.is_team_event and "team" not in columns.values():
        file_errors.append(_("A team tournament needs an “équipe” (team) column."))

    rows: list[ImportRow] = []
    licences: dict[str, int] = {}
    teams: dict[str, list[ImportRow]] = defaultdict(list)
    existing_licences = {
        licence: (last, first)
        for licence, last, first in Player.objects.exclude(licence="").values_list(
            "licence", "last_name", "first_name"
        )
    }
    registered: set[str] = set()
    registered_names: dict[str, tuple[str, str]] = {}  # folded name -> (name, details)
    for first, last, club, licence in Registration.objects.filter(
        tournament=tournament
    ).values_list("first_name", "last_name", "club_name", "licence"):
        if licence:
            registered.add(licence)
        details = " · ".join(text for text in (club, licence) if text)
        registered_names.setdefault(name_key(first, last), (Player.name_of(first, last), details))
    lines_by_name: dict[str, int] = {}
    existing_teams = set(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    for line, cells in enumerate(table[1:], start=2):
        values = dict.fromkeys(COLUMN_ALIASES, "")
        for index, field in columns.items():
            values[field] = cells[index].strip() if index < len(cells) else ""
            if field in NAME_COLUMNS:
                values[field] = clean_name(values[field])
        row = ImportRow(line=line, values=values, errors=[])
        if not tournament.is_team_event:
            values["team"] = ""  # not read: an individual tournament has no teams
        row.errors.extend(message for _field, message in row_problems(values))
        row.details, problems = read_details(values, series=series, latest_year=latest_year)
        row.errors.extend(message for _field, message in problems)
        licence = values["licence"]
        if licence:
            if licence in licences:
                row.errors.append(
                    _("duplicate licence %(licence)s (also on line %(line)d)")
                    % {"licence": licence, "line": licences[licence]}
                )
            elif licence in registered:
                row.errors.append(
                    _("licence %(licence)s is already registered") % {"licence": licence}
                )
            elif licence in existing_licences and other_holder(
                *existing_licences[licence], _row(row)
            ):
                # (Never the holder's name: a licence typed here tells no more than that.)
                row.errors.append(
                    _("licence %(licence)s belongs to another player: check the number or the name")
                    % {"licence": licence}
                )
            licences.setdefault(licence, line)
        folded = name_key(values["first_name"], values["last_name"])
        if folded and folded in registered_names:
            name, details = registered_names[folded]
            row.warnings.append(
                _("likely already registered: %(name)s") % {"name": name}
                + (f" ({details})" if details else "")
            )
        if folded and folded in lines_by_name:
            row.warnings.append(
                _("same name as line %(line)d: the same person?") % {"line": lines_by_name[folded]}
            )
        lines_by_name.setdefault(folded, line)
        if tournament.is_team_event:
            if not values["team"]:
                row.errors.append(_("missing team"))
            elif values["team"] in existing_teams:
                row.errors.append(_("team “%(team)s” already exists") % {"team": values["team"]})
            else:
                teams[values["team"]].append(row)
        rows.append(row)
    for index, warning in import_warnings([row.values for row in rows]).items():
        rows[index].warnings.append(warning)
    for team, members in teams.items():
        if len(members) != tournament.team_size:
            for row in members:
                row.errors.append(
                    ngettext(
                        "team “%(team)s” has %(count)d player, not %(size)d",
                        "team “%(team)s” has %(count)d players, not %(size)d",
                        len(members),
                    )
                    % {"team": team, "count": len(members), "size": tournament.team_size}
                )
    if not rows and not file_errors:
        file_errors.append(_("The file has a header but no player."))
    return ImportPreview(rows=rows, file_errors=file_errors)


def players_import(*, tournament: Tournament, filename: str, content: bytes) -> int:
    """Import every row, or none: the preview must be clean. Returns the number of players.

    In bulk: a fixed number of queries whatever the number of lines (the clubs, the players
    holding the file's licences, new clubs, new players, teams, registrations and their
    history, each in one statement), checked again inside the transaction, with the
    tournament's row locked so that two imports do not interleave.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        preview = players_import_preview(tournament=tournament, filename=filename, content=content)
        if not preview.ok:
            raise ServiceError(_("The file has errors: correct them and import it again."))
        rows = [_row(row) for row in preview.rows]
        try:
            with transaction.atomic():
                _register_in_bulk(tournament, rows)
        except IntegrityError:  # someone registered the same licence meanwhile
            raise ServiceError(
                _("The players changed while importing: upload the file again.")
            ) from None
        tournament_touch(tournament_id=tournament.pk)
    return len(rows)


def _register_in_bulk(tournament: Tournament, rows: list[PlayerRow]) -> None:
    """Write the rows of a clean preview (what :func:`player_register` and
    :func:`team_register` do one by one): clubs, players, teams, registrations."""
    clubs = {club.name: club for club in Club.objects.all()}
    new_clubs = sorted({row.club.strip() for row in rows if row.club.strip()} - set(clubs))
    for club in Club.objects.bulk_create([Club(name=name) for name in new_clubs]):
        clubs[club.name] = club
    licensed = {
        player.licence: player
        for player in Player.objects.filter(licence__in=[r.licence for r in rows if r.licence])
    }
    players, new_players = [], []
    for row in rows:
        club = clubs.get(row.club.strip())
        player = licensed.get(row.licence)
        if player is None:
            player = Player(
                first_name=row.first_name.strip(),
                last_name=row.last_name.strip(),
                club=club,
                licence=row.licence.strip(),
            )
            new_players.append(player)
        # (An existing player's shared record is not this tournament's to change.)
        players.append(player)
    Player.objects.bulk_create(new_players)
    club_names = {club.pk: name for name, club in clubs.items()}
    listed = listed_for([row.licence for row in rows])  # série, sex, year of birth
    teams: dict[str, Team] = {}
    if tournament.is_team_event:
        names = list(dict.fromkeys(row.team for row in rows))
        created = Team.objects.bulk_create([Team(tournament=tournament, name=n) for n in names])
        teams = {team.name: team for team in created}
    _registrations_with_history(
        [
            Registration(
                tournament=tournament,
                player=player,
                team=teams.get(row.team),
                status=Registration.Status.REGISTERED,
                first_name=row.first_name.strip() or player.first_name,
                last_name=row.last_name.strip() or player.last_name,
                licence=player.licence,
                club_name=row.club.strip() or club_names.get(player.club_id, ""),
                # What the file gives, else what the licensee list gives.
                **listed_details(listed.get(player.licence)),
                **{
                    name: value
                    for name, value in (
                        ("series", row.series),
                        ("sex", row.sex),
                        ("birth_year", row.birth_year),
                    )
                    if value not in ("", None)
                },
            )
            for row, player in zip(rows, players, strict=True)
        ]
    )


def _registrations_with_history(registrations: list[Registration]) -> None:
    """Insert the registrations, then their history rows copied by the database itself
    (``INSERT ... SELECT``), as ``bulk_create_with_history`` would write them: one « + »
    record each, by whoever is importing, at this moment. Building the history objects in
    Python first took about half the import's time (``bench/figures.md``)."""
    created = Registration.objects.bulk_create(registrations)
    if not created:
        return
    History = Registration.history.model
    user = History.get_default_history_user(created[0])  # the request's user, if any
    quote = connection.ops.quote_name
    columns = [quote(f.column) for f in History.tracked_fields]
    extra = [
        History._meta.get_field(f).column for f in ("history_date", "history_type", "history_user")
    ]
    target = [*columns, *map(quote, extra)]
    insert = (
        f"INSERT INTO {quote(History._meta.db_table)} ({', '.join(target)}) "
        f"SELECT {', '.join(columns)}, %s, '+', %s FROM {quote(Registration._meta.db_table)} "
    )
    ids = [r.pk for r in created]
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    head = [now, user.pk if user is not None else None]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(insert + f"WHERE {quote('id')} = ANY(%s)", [*head, ids])
            return
        size = (connection.features.max_query_params or 999) - len(head)
        for start in range(0, len(ids), size):
            chunk = ids[start : start + size]
            where = f"WHERE {quote('id')} IN ({', '.join(['%s'] * len(chunk))})"
            cursor.execute(insert + where, [*head, *chunk])


def _row(row: ImportRow) -> PlayerRow:
    v = row.values
    return PlayerRow(
        last_name=v["last_name"],
        first_name=v["first_name"],
        club=v["club"],
        licence=v["licence"],
        team=v["team"],
        series=row.details.get("series", ""),
        sex=row.details.get("sex", ""),
        birth_year=row.details.get("birth_year"),
    )

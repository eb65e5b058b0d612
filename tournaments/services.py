"""The work of running a tournament day, in short transactions.

Every function here is a service: keyword-only arguments, validation before any write, one
``transaction.atomic`` block, and a :class:`ServiceError` with a translated message when the
user asked for something impossible — in which case nothing was written.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import date as date_type

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, OuterRef, Subquery
from django.utils import timezone
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.documents import data as doc
from scoring.engine import RULE_SETS
from tarot_club.errors import ServiceError
from tournaments import folding, limits, seating, seating_bounds
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Seat,
    StaffMember,
    Table,
    Team,
    Tournament,
)
from tournaments.names import clean_name
from tournaments.signals import registration_correcting, round_closing, round_seated

# ---------------------------------------------------------------------------------------------
# Tournaments and staff
# ---------------------------------------------------------------------------------------------


def _unique_slug(name: str, day: date_type) -> str:
    base = slugify(f"{name}-{day:%Y-%m-%d}")[:70] or "tournoi"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def tournament_create(
    *,
    created_by: AbstractBaseUser | None,
    name: str,
    date: date_type,
    place: str = "",
    format: str = Tournament.Format.INDIVIDUAL,
    rounds: int = 5,
    deals_per_round: int = 4,
    passed_deals_count: bool = False,
    timed_rounds: bool = False,
    rule_set: str = "fft",
    visibility: str = Tournament.Visibility.DURING_PLAY,
    tie_breaks: str = "",
    seed: int | None = None,
    odd_tables: str = Tournament.OddTables.FIVE,
    seating_priority: str = Tournament.SeatingPriority.REPEATS,
) -> Tournament:
    if rule_set not in RULE_SETS:
        raise ServiceError(_("Unknown rule set."), field="rule_set")
    tournament = Tournament(
        slug=_unique_slug(name, date),
        name=name,
        date=date,
        place=place,
        format=format,
        rounds=rounds,
        deals_per_round=deals_per_round,
        passed_deals_count=passed_deals_count,
        timed_rounds=timed_rounds,
        rule_set=rule_set,
        visibility=visibility,
        tie_breaks=tie_breaks,
        odd_tables=odd_tables,
        seating_priority=seating_priority,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 10**6),
        created_by=created_by,
    )
    tournament.full_clean()
    tournament.save()
    if created_by is not None:
        StaffMember.objects.create(
            tournament=tournament, user=created_by, role=StaffMember.Role.ORGANISER
        )
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament) -> None:
    """Delete a tournament and everything in it (results first: registrations are protected
    against deletion while any result refers to them). Players stay in the register."""
    Round.objects.filter(tournament=tournament).delete()  # tables, seats, sheets, deals...
    Registration.objects.filter(tournament=tournament).delete()
    tournament.delete()


LOCKED_ONCE_SEATED = (
    "format",
    "deals_per_round",
    "passed_deals_count",
    "timed_rounds",
    "rule_set",
)


@transaction.atomic
def tournament_update(*, tournament: Tournament, **changes) -> Tournament:
    """Change a tournament's settings; what the seated rounds depend on is locked once seated."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    seated = tournament.round_set.count()
    for field, value in changes.items():
        if field in LOCKED_ONCE_SEATED and seated and getattr(tournament, field) != value:
            raise ServiceError(_("This setting cannot change once a round is seated."), field=field)
        setattr(tournament, field, value)
    if tournament.rounds < seated:
        raise ServiceError(_("%(n)d rounds are already seated.") % {"n": seated}, field="rounds")
    tournament.full_clean()
    tournament.save()  # bumps changed_at: public pages show the new settings at once
    return tournament


@transaction.atomic
def referee_add(
    *, tournament: Tournament, username: str, password: str = "", role: str = "referee"
) -> StaffMember:
    """Name a referee (or co-organiser): an existing account, or a new one with a password."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        if not password:
            raise ServiceError(
                _("No account named “%(username)s”: give a password to create it.")
                % {"username": username},
                field="password",
            )
        user = User(username=username)
        _validate_new_account(user, password)
        user.set_password(password)
        user.save()
    staff, created = StaffMember.objects.get_or_create(
        tournament=tournament, user=user, defaults={"role": role}
    )
    if not created:
        raise ServiceError(
            _("%(username)s is already on this tournament's staff.") % {"username": username},
            field="username",
        )
    return staff


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


def _validate_new_account(user, password: str) -> None:
    """Django's username and password validators (settings.AUTH_PASSWORD_VALIDATORS): a new
    account's name is letters, digits and @ . + - _ only, its password is not "1"."""
    check_length(password, limits.PASSWORD, "password")
    username_field = user._meta.get_field(user.USERNAME_FIELD)
    try:
        username_field.clean(user.get_username(), user)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages), field="username") from None
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages), field="password") from None


# ---------------------------------------------------------------------------------------------
# Players and registration
# ---------------------------------------------------------------------------------------------


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


def _other_holder(player_last: str, player_first: str, row: PlayerRow) -> bool:
    """Whether the licence's holder (``player_*``) is someone else than the row's player."""
    return player_last.casefold() != row.last_name.strip().casefold() or bool(
        row.first_name.strip()
        and player_first
        and player_first.casefold() != row.first_name.strip().casefold()
    )


def _check_licence(tournament: Tournament, row: PlayerRow) -> Player | None:
    """The existing player holding this licence, or None; a ServiceError when it conflicts."""
    if not row.licence:
        return None
    player = Player.objects.filter(licence=row.licence).first()
    if player is None:
        return None
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ServiceError(
            _("Licence %(licence)s is already registered in this tournament (%(name)s).")
            % {"licence": row.licence, "name": player.full_name},
            field="licence",
        )
    if _other_holder(player.last_name, player.first_name, row):
        raise ServiceError(
            _("Licence %(licence)s belongs to another player: check the number or the name.")
            % {"licence": row.licence},
            field="licence",
        )
    return player


def _player_for(tournament: Tournament, row: PlayerRow) -> Player:
    player = _check_licence(tournament, row)
    club = Club.objects.get_or_create(name=row.club.strip())[0] if row.club.strip() else None
    if player is None:
        player = Player.objects.create(
            first_name=row.first_name.strip(),
            last_name=row.last_name.strip(),
            club=club,
            licence=row.licence.strip(),
        )
    # An existing player's shared record is not this tournament's to change: the club typed
    # here is this tournament's record of them only (``_snapshot``).
    return player


def _snapshot(registration: Registration, player: Player, row: PlayerRow) -> Registration:
    """This tournament's record of the player: the name as typed (the licence's holder has
    the same name, ignoring case), the club typed or else the player's, the licence."""
    registration.first_name = row.first_name.strip() or player.first_name
    registration.last_name = row.last_name.strip() or player.last_name
    registration.licence = player.licence
    registration.club_name = row.club.strip() or (player.club.name if player.club_id else "")
    return registration


def _touch(tournament: Tournament) -> None:
    """Mark the tournament as changed (public pages are cached on this)."""
    Tournament.objects.filter(pk=tournament.pk).update(changed_at=timezone.now())


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


def _validate_row(row: PlayerRow) -> None:
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


@transaction.atomic
def player_register(
    *, tournament: Tournament, row: PlayerRow, present: bool = False, team: Team | None = None
) -> Registration:
    """Register one player (a late player on the day is registered ``present``)."""
    _validate_row(row)
    if tournament.is_team_event and team is None:
        raise ServiceError(
            _("In a team tournament, players register with their team."), field="team"
        )
    player = _player_for(tournament, row)
    registration = _snapshot(
        Registration(
            tournament=tournament,
            player=player,
            team=team,
            status=Registration.Status.PRESENT if present else Registration.Status.REGISTERED,
        ),
        player,
        row,
    )
    registration.save()
    _touch(tournament)
    return registration


@transaction.atomic
def team_register(
    *, tournament: Tournament, name: str, members: list[PlayerRow], present: bool = False
) -> Team:
    """A team's members register together: exactly the format's team size."""
    if not tournament.is_team_event:
        raise ServiceError(_("This tournament is individual: it has no teams."))
    name = name.strip()
    if not name:
        raise ServiceError(_("The team name is missing."), field="name")
    problems = text_problems("team", name)
    if problems:
        raise ServiceError(capfirst(problems[0]) + ".", field="name")
    if len(members) != tournament.team_size:
        raise ServiceError(
            _("A team has %(size)d players; %(count)d were given.")
            % {"size": tournament.team_size, "count": len(members)},
            field="members",
        )
    if Team.objects.filter(tournament=tournament, name=name).exists():
        raise ServiceError(
            _("A team named “%(name)s” already exists.") % {"name": name}, field="name"
        )
    team = Team.objects.create(tournament=tournament, name=name)
    for row in members:
        player_register(tournament=tournament, row=row, present=present, team=team)
    return team


@transaction.atomic
def registration_set_status(*, registration: Registration, status: str) -> Registration:
    """Check-in on the day: present / absent; withdraw between rounds."""
    if status not in Registration.Status.values:
        raise ServiceError(_("Unknown status."))
    tournament = registration.tournament
    if status == Registration.Status.WITHDRAWN:
        # The last round the player took part in: a seated round that has not started yet
        # does not count (the organiser swaps someone in or seats it again).
        registration.withdrawn_after_round = (
            Round.objects.filter(tournament=tournament).exclude(status=Round.Status.SEATED).count()
            or None
        )
    elif registration.status == Registration.Status.WITHDRAWN:
        registration.withdrawn_after_round = None
    registration.status = status
    registration.save(update_fields=["status", "withdrawn_after_round"])
    _touch(tournament)
    return registration


# ---------------------------------------------------------------------------------------------
# Importing players from CSV or Excel
# ---------------------------------------------------------------------------------------------

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


def _read_table(filename: str, content: bytes) -> list[list[str]]:
    """Rows of cells as text, from a CSV (comma or semicolon, UTF-8 or Latin-1) or an xlsx."""
    import csv
    import io

    lower = filename.lower()
    if lower.endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
            try:
                sheet = workbook.worksheets[0]
                return [
                    ["" if cell is None else str(cell).strip() for cell in row]
                    for row in sheet.iter_rows(values_only=True)
                ]
            finally:
                workbook.close()
        except Exception:  # openpyxl raises many kinds for a damaged or foreign file
            raise ServiceError(
                _("“%(name)s” is not a readable Excel workbook (.xlsx).") % {"name": filename}
            ) from None
    if lower.endswith((".csv", ".txt")):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = content.decode("cp1252", errors="replace")
        try:
            dialect = csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        try:
            # newline="" lets the csv module read every line ending: \n, \r\n and old Mac \r.
            reader = csv.reader(io.StringIO(text, newline=""), dialect)
            return [[cell.strip() for cell in row] for row in reader]
        except csv.Error as error:
            raise ServiceError(
                _("“%(name)s” cannot be read as CSV (%(error)s).")
                % {"name": filename, "error": error}
            ) from None
    raise ServiceError(
        _("Import a CSV file (.csv) or an Excel file (.xlsx); “%(name)s” is neither.")
        % {"name": filename}
    )


def players_import_preview(
    *, tournament: Tournament, filename: str, content: bytes
) -> ImportPreview:
    """Read the file and check every row; writes nothing."""
    table = [row for row in _read_table(filename, content) if any(cell for cell in row)]
    if not table:
        return ImportPreview(rows=[], file_errors=[_("The file is empty.")])
    header = [cell.strip().casefold() for cell in table[0]]
    known = "nom, prénom, club, licence" + (", équipe" if tournament.is_team_event else "")
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
            elif licence in existing_licences and _other_holder(
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
    for team, members in teams.items():
        if len(members) != tournament.team_size:
            for row in members:
                row.errors.append(
                    _("team “%(team)s” has %(count)d players, not %(size)d")
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
        _touch(tournament)
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
            )
            for row, player in zip(rows, players, strict=True)
        ]
    )


def _registrations_with_history(registrations: list[Registration]) -> None:
    """Insert the registrations, then their history rows copied by the database itself
    (``INSERT ... SELECT``), as ``bulk_create_with_history`` would write them: one « + »
    record each, by whoever is importing, at this moment. Building 5,000 history objects in
    Python first took about half the import's time."""
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
    )


# ---------------------------------------------------------------------------------------------
# Rounds and seating
# ---------------------------------------------------------------------------------------------

SEATING_MESSAGES = {
    "too_few_players": lambda p: (
        _("At least 3 present players are needed to seat a round; there are %(n)d.")
        % {"n": p.get("n", 0)}
    ),
    "team_too_large": lambda p: (
        _(
            "Team “%(team)s” has %(members)d players present but there are only %(tables)d "
            "tables: two team-mates would have to share a table."
        )
        % {
            "team": p.get("team_name", "?"),
            "members": p.get("members", 0),
            "tables": p.get("tables", 0),
        }
    ),
    "teams_unseatable": lambda p: (
        _(
            "With these teams and %(tables)s, team-mates cannot all be kept apart. Check in more "
            "players or withdraw one from a large team."
        )
        % {"tables": _("tables of sizes %(sizes)s") % {"sizes": p.get("sizes", "?")}}
    ),
    "bad_order": lambda p: _("The seating order must list every present player exactly once."),
}


def _seating_error(error: seating.SeatingError) -> ServiceError:
    params = dict(error.params)
    if "team" in params:
        team = Team.objects.filter(pk=params["team"]).first()
        params["team_name"] = team.name if team else params["team"]
    message = SEATING_MESSAGES.get(error.code)
    return ServiceError(message(params) if message else error.reason)


def seating_history(tournament: Tournament, before: int | None = None) -> list[list[list[int]]]:
    """Earlier rounds as lists of tables of registration ids, in round order."""
    seats = Seat.objects.filter(round__tournament=tournament)
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    rounds: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for round_number, table_number, registration_id in seats.order_by(
        "round__number", "table__number", "position"
    ).values_list("round__number", "table__number", "registration_id"):
        rounds[round_number][table_number].append(registration_id)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def _teams_of(tournament: Tournament) -> dict[int, int] | None:
    if not tournament.is_team_event:
        return None
    return dict(
        Registration.objects.filter(tournament=tournament, team__isnull=False).values_list(
            "pk", "team_id"
        )
    )


def present_registrations(tournament: Tournament) -> list[int]:
    return list(
        Registration.objects.filter(
            tournament=tournament, status=Registration.Status.PRESENT
        ).values_list("pk", flat=True)
    )


def next_round_check(tournament: Tournament) -> None:
    """Raise ServiceError when the next round cannot be seated, saying why — before trying."""
    rounds = list(tournament.round_set.order_by("number"))
    if len(rounds) >= tournament.rounds:
        raise ServiceError(_("All %(rounds)d rounds are seated.") % {"rounds": tournament.rounds})
    if rounds and rounds[-1].status != Round.Status.CLOSED:
        raise ServiceError(
            _("Close round %(number)d before seating the next one.") % {"number": rounds[-1].number}
        )
    players = present_registrations(tournament)
    try:
        seating.check_feasible(players, _teams_of(tournament), tournament.odd_tables)
    except seating.SeatingError as error:
        raise _seating_error(error) from None


def round_seat_next(
    *, tournament: Tournament, seed: int | None = None, order: list[int] | None = None
) -> Round:
    """Seat the next round with the present players (round 1: random from a seed, or in order)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        next_round_check(tournament)
        number = tournament.round_set.count() + 1
        if order is not None and number > 1:
            raise ServiceError(
                _("Only round 1 can be seated in the order of the list; later rounds are drawn.")
            )
        if seed is None:
            seed = tournament.seed if number == 1 else random.SystemRandom().randrange(1, 10**6)
        return _seat(tournament, number, seed, order)


def _seat(
    tournament: Tournament, number: int, seed: int, order: list[int] | None, variant: int = 0
) -> Round:
    players = present_registrations(tournament)
    history = seating_history(tournament, before=number)
    try:
        result = seating.seat_round(
            players,
            teams=_teams_of(tournament),
            history=history,
            seed=seed,
            rounds_left=max(1, tournament.rounds - number + 1),
            order=order,
            # Seating again asks for a different plan, not just other seat numbers.
            variant=variant,
            odd=tournament.odd_tables,
            priority=tournament.seating_priority,
        )
    except seating.SeatingError as error:
        raise _seating_error(error) from None
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
    tables = Table.objects.bulk_create(
        [Table(round=round_, number=i) for i in range(1, len(result.tables) + 1)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, round=round_, registration_id=reg_id, position=position)
            for table, players_at in zip(tables, result.tables, strict=True)
            for position, reg_id in enumerate(players_at)
        ]
    )
    round_seated.send(sender=Round, round_=round_, tables=tables)
    _touch(tournament)
    return round_


def _round_started(round_: Round) -> bool:
    """A round has started once anything was recorded on one of its sheets (a deal, a penalty,
    paper totals, a signature): the scoring services then mark it playing. Its seating is then
    fixed."""
    return round_.status != Round.Status.SEATED


def round_regenerate(*, round_: Round, seed: int | None = None) -> Round:
    """Seat a round again (a new seed) while no deal has been entered and it is the last one."""
    with transaction.atomic():
        round_ = lock_round(round_.pk)  # the round first, as every service of its sheets
        tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        if _round_started(round_):
            raise ServiceError(_("This round has started: it can no longer be seated again."))
        if tournament.round_set.filter(number__gt=round_.number).exists():
            raise ServiceError(_("Only the last round can be seated again."))
        number = round_.number
        round_.tables.all().delete()
        round_.delete()
        new_seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**6)
        try:
            seating.check_feasible(
                present_registrations(tournament), _teams_of(tournament), tournament.odd_tables
            )
        except seating.SeatingError as error:
            raise _seating_error(error) from None
        return _seat(tournament, number, new_seed, None, variant=new_seed)


def _round_tables(round_: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = defaultdict(list)
    for table_number, reg_id in round_.seats.order_by("table__number", "position").values_list(
        "table__number", "registration_id"
    ):
        tables[table_number].append(reg_id)
    return [tables[n] for n in sorted(tables)]


@dataclass(frozen=True)
class RoundQuality:
    sizes: list[int]
    repeats: list[tuple[str, str, int]]  # names, and how often they had met before
    teammates_together: list[tuple[str, str]]
    odd_table_unfair: list[str]
    #: One sentence saying how many repeats no seating could avoid ("" without a repeat).
    explanation: str = ""

    @property
    def repeat_count(self) -> int:
        return len(self.repeats)


def repeats_sentence(explained: seating_bounds.RepeatExplanation, seats_changed: int = 0) -> str:
    """« 18 joueurs, 2e position : 2 rencontres répétées inévitables avec des tables de 5 »;
    after swaps by hand (``seats_changed``), that the seats are not all the seating's."""
    if not explained.repeats:
        return ""
    values = {
        "players": explained.players,
        "number": explained.round_number,
        "count": explained.repeats,
        "unavoidable": explained.unavoidable,
        "size": explained.table_size,
    }
    if seats_changed and explained.unavoidable and not explained.all_unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d, with seats changed "
                "by hand since the draw.",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d, with seats changed "
                "by hand since the draw.",
                explained.unavoidable,
            )
            % values
        )
    if seats_changed and not explained.all_unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meeting, with seats "
                "changed by hand since the draw.",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, with seats "
                "changed by hand since the draw.",
                explained.repeats,
            )
            % values
        )
    if explained.all_unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meeting, "
                "unavoidable with tables of %(size)d.",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "unavoidable with tables of %(size)d.",
                explained.repeats,
            )
            % values
        )
    if explained.unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d; the others are "
                "not proved unavoidable (the seating also weighs the rounds still to play, and "
                "the organiser's priority).",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d; the others are "
                "not proved unavoidable (the seating also weighs the rounds still to play, and "
                "the organiser's priority).",
                explained.unavoidable,
            )
            % values
        )
    return (
        ngettext(
            "%(players)d players, round %(number)d: %(count)d repeated meeting, not proved "
            "unavoidable (the seating also weighs the rounds still to play, and the "
            "organiser's priority).",
            "%(players)d players, round %(number)d: %(count)d repeated meetings, none proved "
            "unavoidable (the seating also weighs the rounds still to play, and the "
            "organiser's priority).",
            explained.repeats,
        )
        % values
    )


def round_quality(round_: Round) -> RoundQuality:
    tournament = round_.tournament
    tables = _round_tables(round_)
    history = seating_history(tournament, before=round_.number)
    teams = _teams_of(tournament)
    quality = seating.round_quality(tables, history, teams, tournament.odd_tables)
    names = {r.pk: r.full_name for r in Registration.objects.filter(tournament=tournament)}
    return RoundQuality(
        sizes=quality["sizes"],
        repeats=[(names[a], names[b], times) for a, b, times in quality["repeats"]],
        teammates_together=[(names[a], names[b]) for a, b in quality["teammate_pairs"]],
        odd_table_unfair=[names[p] for p in quality["odd_table_unfair"]],
        explanation=repeats_sentence(
            seating_bounds.explain_round(tables, history, teams), round_.seats_changed
        ),
    )


@dataclass(frozen=True)
class SwapWarnings:
    repeats: list[str]
    teammates: list[str]

    @property
    def all(self) -> list[str]:
        return self.teammates + self.repeats


def swap_warnings(*, round_: Round, first: Registration, second: Registration) -> SwapWarnings:
    """What swapping two players would cause: new repeated meetings, team-mates together."""
    tables = _round_tables(round_)
    swapped = [
        [second.pk if r == first.pk else first.pk if r == second.pk else r for r in table]
        for table in tables
    ]
    history = seating_history(round_.tournament, before=round_.number)
    teams = _teams_of(round_.tournament)
    before = seating.round_quality(tables, history, teams)
    after = seating.round_quality(swapped, history, teams)
    names = {r.pk: r.full_name for r in Registration.objects.filter(tournament=round_.tournament)}
    warnings = SwapWarnings(repeats=[], teammates=[])
    old_repeats = {frozenset((a, b)) for a, b, _ in before["repeats"]}
    for a, b, times in after["repeats"]:
        if frozenset((a, b)) not in old_repeats:
            warnings.repeats.append(
                ngettext(
                    "%(a)s and %(b)s have already played at one table (once).",
                    "%(a)s and %(b)s have already played at one table (%(times)d times).",
                    times,
                )
                % {"a": names[a], "b": names[b], "times": times}
            )
    old_clashes = {frozenset(p) for p in before["teammate_pairs"]}
    for a, b in after["teammate_pairs"]:
        if frozenset((a, b)) not in old_clashes:
            warnings.teammates.append(
                _("%(a)s and %(b)s are team-mates: they must not share a table.")
                % {"a": names[a], "b": names[b]}
            )
    return warnings


def seats_swap(
    *, round_: Round, first: Registration, second: Registration, confirmed: bool = False
) -> list[str]:
    """Swap two players' seats in a round not yet started (or put a present player in a seat).

    Returns the repeated meetings it creates; unless ``confirmed``, such a swap is not made
    (the caller shows the warnings and asks again). Team-mates at one table are refused.
    """
    if first.pk == second.pk:
        raise ServiceError(_("Choose two different players."))
    if first.tournament_id != round_.tournament_id or second.tournament_id != round_.tournament_id:
        raise ServiceError(_("Both players must be registered in this tournament."))
    with transaction.atomic():
        round_ = lock_round(round_.pk)  # the round first, as every service of its sheets
        Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        if _round_started(round_):
            raise ServiceError(_("This round has started: seats can no longer be swapped."))
        warnings = swap_warnings(round_=round_, first=first, second=second)
        if warnings.teammates:
            raise ServiceError(" ".join(warnings.teammates))
        if warnings.repeats and not confirmed:
            return warnings.repeats
        seats = {
            s.registration_id: s for s in round_.seats.filter(registration__in=[first, second])
        }
        if first.pk not in seats and second.pk not in seats:
            raise ServiceError(_("Neither player is seated in this round."))
        if first.pk in seats and second.pk in seats:
            a, b = seats[first.pk], seats[second.pk]
            # Swap through a temporary removal to respect the unique (table, position) rule.
            a_table, a_pos, b_table, b_pos = a.table_id, a.position, b.table_id, b.position
            b.delete()
            a.table_id, a.position = b_table, b_pos
            a.save(update_fields=["table", "position"])
            Seat.objects.create(table_id=a_table, round=round_, registration=second, position=a_pos)
        else:
            seated, newcomer = (
                (seats[first.pk], second)
                if first.pk in seats
                else (
                    seats[second.pk],
                    first,
                )
            )
            if newcomer.status != Registration.Status.PRESENT:
                raise ServiceError(_("%(name)s is not checked in.") % {"name": newcomer.full_name})
            seated.registration = newcomer
            try:
                seated.save(update_fields=["registration"])
            except IntegrityError:
                raise ServiceError(_("This player already has a seat.")) from None
        Round.objects.filter(pk=round_.pk).update(seats_changed=F("seats_changed") + 1)
        _touch(round_.tournament)
    return warnings.repeats


def lock_round(round_id: int | None = None, **lookup) -> Round:
    """The round (by id, or by ``lookup`` such as ``tables__sheet=...``), locked until the end
    of the transaction. Raises ``Round.DoesNotExist``.

    The one lock of a round's life, taken first by everything that changes the round or its
    score sheets: every sheet service (then the sheet), closing and reopening (then the sheets,
    by id), swapping and seating again, and any later action on a round (a referee calling
    time). Taken in that order (round, then its sheets by id, then the tournament's row), no two
    of them wait for each other in a circle, and none sees the round change under it: a deal
    saved while the round closes is either in before the close checks the sheets, or refused.
    ``FOR NO KEY UPDATE`` on PostgreSQL (rows that refer to the round are not blocked); SQLite
    serialises every writer anyway.
    """
    if round_id is not None:
        lookup["pk"] = round_id
    return Round.objects.select_for_update(no_key=True, of=("self",)).get(**lookup)


def round_close(*, round_: Round, reason: str = "") -> Round:
    """Close a round. The apps built on this one may refuse (:data:`round_closing`): scoring
    does while a sheet is unsigned and no reason is given. Once closed, nothing changes the
    round's sheets until it is reopened (scoring's services refuse)."""
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        if round_.status == Round.Status.CLOSED:
            raise ServiceError(_("This round is already closed."))
        check_length(reason, limits.REASON, "reason")
        round_closing.send(sender=Round, round_=round_, reason=reason)
        round_.status = Round.Status.CLOSED
        round_.closed_at = timezone.now()
        round_.close_reason = reason
        round_.save(update_fields=["status", "closed_at", "close_reason"])
        _touch(round_.tournament)
    return round_


def round_reopen(*, round_: Round) -> Round:
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.CLOSED:
            raise ServiceError(_("This round is not closed."))
        if round_.tournament.round_set.filter(number__gt=round_.number).exists():
            raise ServiceError(_("A later round is already seated."))
        round_.status = Round.Status.PLAYING
        round_.closed_at = None
        round_.save(update_fields=["status", "closed_at"])
    return round_


SEARCH_RESULTS = 20


def registrations_matching(tournament: Tournament, query: str) -> list[Registration]:
    """The registrations whose name (first and last, any order) holds every word of ``query``,
    ignoring case and accents, or whose licence is ``query``: at most :data:`SEARCH_RESULTS`,
    by name. Two queries whatever the field; the typed text never reaches the database."""
    folded = folding.fold(query)
    if len(folded) < 2:
        return []
    found = [
        pk
        for pk, first_name, last_name, licence in Registration.objects.filter(
            tournament=tournament
        ).values_list("pk", "first_name", "last_name", "licence")
        if folding.matches(folded, first_name, last_name)
        or (licence and folding.fold(licence) == folded)
    ]
    return list(Registration.objects.filter(pk__in=found[:SEARCH_RESULTS]))


def registrations_for_page(tournament: Tournament):
    """The registrations of a tournament with what the players page shows, in one query,
    by last name (explicitly: a counted query drops the model's default ordering).

    ``waiting_round`` / ``waiting_table``: where the player is seated in a round seated but
    not started, if anywhere (a player withdrawn or absent there must be swapped or the round
    seated again)."""
    waiting = Seat.objects.filter(
        registration=OuterRef("pk"), round__status=Round.Status.SEATED
    ).order_by("-round__number")
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("team")
        .annotate(
            seat_count=Count("seats"),
            waiting_round=Subquery(waiting.values("round__number")[:1]),
            waiting_table=Subquery(waiting.values("table__number")[:1]),
        )
        .order_by("last_name", "first_name", "pk")
    )


def pin_slips(tournament: Tournament, registrations=None) -> doc.PinSlips:
    """The plain data of the PIN slips: one per registration (every registration of the
    tournament when ``registrations`` is None), by last name. The only document with PINs."""
    if registrations is None:
        registrations = Registration.objects.filter(tournament=tournament)
    rows = registrations.select_related("team").order_by("last_name", "first_name", "pk")
    return doc.PinSlips(
        tournament=tournament.name,
        tournament_date=tournament.date,
        slips=tuple(
            doc.PinSlip(
                name=r.full_name,
                pin=r.pin,
                club=r.club_name,
                team=r.team.name if r.team else "",
            )
            for r in rows
        ),
    )


# ---------------------------------------------------------------------------------------------
# Correcting, removing and merging a tournament's players
# ---------------------------------------------------------------------------------------------


def name_key(first_name: str, last_name: str) -> str:
    """A name as duplicates are found: case, accents and punctuation ignored."""
    return folding.fold(clean_name(f"{first_name} {last_name}"))


def likely_duplicates(registrations) -> dict[int, list[Registration]]:
    """For each registration that is likely the same person as another of the list (the same
    licence, or the same name ignoring case and accents), those others. No query: the caller
    reads the registrations once (the players page does)."""
    groups: dict[tuple[str, str], list[Registration]] = defaultdict(list)
    for r in registrations:
        groups[("name", name_key(r.first_name, r.last_name))].append(r)
        if r.licence:
            groups[("licence", r.licence)].append(r)
    found: dict[int, list[Registration]] = defaultdict(list)
    for group in groups.values():
        for r in group:
            for other in group:
                if other.pk != r.pk and other not in found[r.pk]:
                    found[r.pk].append(other)
    return {pk: others for pk, others in found.items() if others}


def duplicates_of(registration: Registration) -> list[Registration]:
    """The other registrations of its tournament that are likely the same person."""
    others = Registration.objects.filter(tournament_id=registration.tournament_id)
    return likely_duplicates(list(others)).get(registration.pk, [])


@transaction.atomic
def registration_correct(*, registration: Registration, row: PlayerRow) -> Registration:
    """The organiser corrects this tournament's record of a player (name, club, licence).

    Other tournaments keep theirs. Refused once a sheet the player sat at was signed: what
    the players signed and the seal holds does not change afterwards. A licence held by
    another player of the register links the registration to that player (same name only).
    """
    _validate_row(row)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    registration_correcting.send(sender=Registration, registration=registration)
    licence = row.licence.strip()
    player = registration.player
    if licence and licence != registration.licence:
        twin = (
            Registration.objects.filter(tournament_id=registration.tournament_id, licence=licence)
            .exclude(pk=registration.pk)
            .first()
        )
        if twin is not None:
            raise ServiceError(
                _(
                    "Licence %(licence)s is already registered in this tournament (%(name)s): "
                    "merge the two players instead."
                )
                % {"licence": licence, "name": twin.full_name},
                field="licence",
            )
        holder = Player.objects.filter(licence=licence).first()
        if holder is not None and _other_holder(holder.last_name, holder.first_name, row):
            raise ServiceError(
                _("Licence %(licence)s belongs to another player: check the number or the name.")
                % {"licence": licence},
                field="licence",
            )
        if holder is None and player.licence and player.registrations.count() > 1:
            holder = Player.objects.create(  # the register's player keeps their licence
                first_name=row.first_name.strip(), last_name=row.last_name.strip(), licence=licence
            )
        if holder is not None:
            player = holder
        else:
            player.licence = licence
            player.save(update_fields=["licence"])
    registration.player = player
    registration.first_name = row.first_name.strip()
    registration.last_name = row.last_name.strip()
    registration.club_name = row.club.strip()
    registration.licence = licence
    registration.save()
    _touch(registration.tournament)
    return registration


def _played(registration: Registration) -> bool:
    return Seat.objects.filter(registration=registration).exists()


@transaction.atomic
def registration_remove(*, registration: Registration) -> None:
    """Remove a player registered by mistake, who has not been seated yet (a player who
    played, or is seated, is withdrawn instead: their results stay)."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if _played(registration):
        raise ServiceError(
            _("%(name)s is already seated: withdraw them instead.")
            % {"name": registration.full_name}
        )
    if registration.team_id is not None:
        raise ServiceError(
            _("%(name)s belongs to a team: correct their name instead.")
            % {"name": registration.full_name}
        )
    tournament = registration.tournament
    registration.delete()
    _touch(tournament)


@transaction.atomic
def registration_merge(*, registration: Registration, into: Registration) -> Registration:
    """Two registrations of the same person: keep ``into``, remove ``registration`` (never
    seated). What only the removed one knew (first name, club, licence) and its presence
    pass to the kept one."""
    pair = {
        r.pk: r
        for r in Registration.objects.select_for_update().filter(pk__in=[registration.pk, into.pk])
    }
    if registration.pk == into.pk or len(pair) != 2:
        raise ServiceError(_("Choose two different players."))
    gone, kept = pair[registration.pk], pair[into.pk]
    if gone.tournament_id != kept.tournament_id:
        raise ServiceError(_("Choose two different players."))
    if _played(gone):
        raise ServiceError(
            _("%(name)s is already seated: merge the other one into them.")
            % {"name": gone.full_name}
        )
    if gone.team_id is not None and gone.team_id != kept.team_id:
        raise ServiceError(_("They belong to different teams: correct the teams first."))
    kept.first_name = kept.first_name or gone.first_name
    kept.club_name = kept.club_name or gone.club_name
    if not kept.licence and gone.licence:
        kept.licence = gone.licence
        kept.player = gone.player  # the register's licensed player
    if gone.status == Registration.Status.PRESENT:
        kept.status = Registration.Status.PRESENT
    gone.delete()
    kept.save()
    _touch(kept.tournament)
    return kept

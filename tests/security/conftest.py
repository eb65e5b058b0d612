"""Shared world for the security tests: a played tournament (create_demo) and a user per role.

The tournament: 8 players (two tables of 4), 3 rounds of 2 deals; round 1 is played, signed and
closed; round 2 is seated and table 1 has entered its first deal. A second tournament gives the
"staff of another tournament" roles something to work on.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client

from scoring.demo import create_demo
from scoring.engine.sampling import random_legal_deal
from scoring.jobs.models import Job
from scoring.management.commands.setup_demo import organiser_group
from scoring.models import (
    Deal,
    Penalty,
    PinAttempt,
    Score,
    ScoreSheet,
    SheetEvent,
    SheetSeal,
    Signature,
)
from scoring.services import Actor, deal_record
from tournaments import services
from tournaments.championships import services as championship_services
from tournaments.championships.models import Championship, Stage
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Season,
    Seat,
    SeatRequest,
    StaffMember,
    Table,
    Team,
    Tournament,
)
from tournaments.services import clubs

LOGIN_PREFIX = "/connexion/?next="

# Every model a request could write to; counted before and after each refused request.
COUNTED_MODELS = (
    Tournament,
    Season,
    SeatRequest,
    StaffMember,
    Registration,
    Player,
    Club,
    Team,
    Round,
    Table,
    Seat,
    ScoreSheet,
    Deal,
    Score,
    Penalty,
    Signature,
    SheetEvent,
    SheetSeal,
    PinAttempt,
    Job,
)


# The fields a request could flip without adding a row, per model.
WATCHED_FIELDS = {
    Club: ("name", "slug", "place"),
    Season: ("name", "kind", "place_points"),
    Tournament: ("name", "rounds", "visibility", "finished", "changed_at"),
    Registration: ("status", "withdrawn_after_round"),
    Round: ("status", "close_reason"),
    Seat: ("table_id", "registration_id", "position"),
    ScoreSheet: ("status", "version", "paper_mode"),
    Deal: ("version", "kind", "points"),
    Job: ("status", "task_id"),
}


def _column_list(model, fields) -> str:
    """Every row's watched values as one text (id:value:value,...), in one SQL expression."""
    q = connection.ops.quote_name
    columns = [q(model._meta.get_field(f).column) for f in fields]
    row = " || ':' || ".join(
        ["CAST(id AS TEXT)", *(f"COALESCE(CAST({c} AS TEXT), '~')" for c in columns)]
    )
    table = q(model._meta.db_table)
    if connection.vendor == "postgresql":
        return f"(SELECT string_agg({row}, ',' ORDER BY id) FROM {table})"
    return f"(SELECT group_concat(r, ',') FROM (SELECT {row} AS r FROM {table} ORDER BY id))"


def _state_sql() -> tuple[list[str], str]:
    q = connection.ops.quote_name
    names, parts = [], []
    for model in (*COUNTED_MODELS, get_user_model()):
        names.append(model.__name__)
        parts.append(f"(SELECT COUNT(*) FROM {q(model._meta.db_table)})")
    for model, fields in WATCHED_FIELDS.items():
        names.append(f"{model.__name__}.{'/'.join(fields)}")
        parts.append(_column_list(model, fields))
    return names, "SELECT " + ", ".join(parts)


def db_state() -> dict:
    """Row counts of every model, plus the fields a request could flip without adding a row.

    One query, so that it can run around each of the hundreds of requests of the matrix.
    """
    names, sql = _state_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(zip(names, cursor.fetchone(), strict=True))


@dataclass
class World:
    tournament: Tournament
    other: Tournament
    users: dict  # role name -> user (None for the anonymous roles)
    closed_round: Round  # round 1: played, signed, closed
    open_round: Round  # round 2: seated, table 1 has one deal
    open_table: Table  # round 2, table 1 (its token is "the player's table link")
    other_open_table: Table  # round 2, table 2
    closed_table: Table  # round 1, table 1 (signed, sealed)
    seal: SheetSeal
    registration: Registration  # seated at open_table
    other_registration: Registration  # seated at other_open_table
    club: Club | None = None  # organised by "orga-ici"; its season holds the tournament
    season: Season | None = None
    championship: object = None  # its first stage is the tournament (a championship's stage)
    stage: object = None
    job: Job | None = None  # the tournament's round-1 PDF, started by "orga-ici", failed


def make_user(username: str, *, group=None, superuser: bool = False):
    User = get_user_model()
    if superuser:
        return User.objects.create_superuser(username, password="pw-" + username)
    user = User.objects.create_user(username, password="pw-" + username)
    if group is not None:
        user.groups.add(group)
    return user


ROLE_USERS = {
    "referee": "arbitre-ici",
    "referee_elsewhere": "arbitre-ailleurs",
    "organiser": "orga-ici",
    "organiser_elsewhere": "orga-ailleurs",
    "superuser": "admin",
}


def build_world() -> dict:
    """Create the world through the real services; return the keys to load it again."""
    group = organiser_group()
    organiser = make_user("orga-ici", group=group)
    other_organiser = make_user("orga-ailleurs", group=group)
    referee = make_user("arbitre-ici")
    other_referee = make_user("arbitre-ailleurs")
    make_user("admin", superuser=True)

    tournament = create_demo(
        players=8, rounds=3, deals=2, seed=5, play_rounds=1, created_by=organiser
    ).tournament
    StaffMember.objects.create(tournament=tournament, user=referee, role=StaffMember.Role.REFEREE)
    open_round = services.round_seat_next(tournament=tournament, seed=77)
    deal_record(
        sheet=open_round.tables.get(number=1).sheet,
        number=1,
        kind="played",
        deal=random_legal_deal(random.Random(3), 4),
        actor=Actor.table(page="/test"),
    )
    other = services.tournament_create(
        created_by=other_organiser, name="Tournoi voisin", date=date(2026, 5, 1), rounds=2
    )
    StaffMember.objects.create(tournament=other, user=other_referee, role=StaffMember.Role.REFEREE)
    club = clubs.club_create(name="Club d'ici", organiser=organiser)
    season = clubs.season_create(
        club=club, name="Saison 2025-2026", start=date(2025, 9, 1), end=date(2026, 8, 31)
    )
    clubs.tournament_season_set(user=None, tournament=tournament, season=season)
    # Online registration: both offer seats; only the other one (not started) takes requests.
    services.tournament_update(tournament=tournament, capacity=12)
    services.tournament_update(tournament=other, capacity=12)
    championship = championship_services.championship_create(
        name="Championnat", seed=3, created_by=organiser
    )
    stage = championship_services.stage_add(
        championship=championship, name="Étape 1", tournaments=[(tournament, "")], cut_value=4
    )
    job = Job.objects.create(
        kind=Job.Kind.SHEETS_PDF,
        tournament=tournament,
        started_by=organiser,
        params={"round": 1},
        status=Job.Status.FAILED,
        error="Aucune table ne correspond.",
    )
    return {
        "tournament": tournament.pk,
        "other": other.pk,
        "club": club.pk,
        "season": season.pk,
        "championship": championship.pk,
        "stage": stage.pk,
        "job": job.pk,
    }


def load_world(keys: dict) -> World:
    """Fresh instances of the world for one test (tests may change them freely)."""
    User = get_user_model()
    tournament = Tournament.objects.get(pk=keys["tournament"])
    closed_round = tournament.round_set.get(number=1)
    open_round = tournament.round_set.get(number=2)
    open_table = open_round.tables.select_related("sheet").get(number=1)
    other_open_table = open_round.tables.select_related("sheet").get(number=2)
    closed_table = closed_round.tables.select_related("sheet").get(number=1)

    def first_seated(table):
        return table.seats.order_by("position").select_related("registration")[0].registration

    users = dict.fromkeys(("anonymous", "table_link"))
    users.update({role: User.objects.get(username=name) for role, name in ROLE_USERS.items()})
    return World(
        tournament=tournament,
        other=Tournament.objects.get(pk=keys["other"]),
        users=users,
        closed_round=closed_round,
        open_round=open_round,
        open_table=open_table,
        other_open_table=other_open_table,
        closed_table=closed_table,
        seal=SheetSeal.objects.filter(sheet=closed_table.sheet).latest("sealed_at"),
        registration=first_seated(open_table),
        other_registration=first_seated(other_open_table),
        club=Club.objects.get(pk=keys["club"]),
        season=Season.objects.get(pk=keys["season"]),
        championship=Championship.objects.get(pk=keys["championship"]),
        stage=Stage.objects.get(pk=keys["stage"]),
        job=Job.objects.get(pk=keys["job"]),
    )


def _integer_pk_models():
    from django.apps import apps

    for model in apps.get_models(include_auto_created=True):
        integer_pk = model._meta.pk.get_internal_type() in {"AutoField", "BigAutoField"}
        if model._meta.managed and not model._meta.proxy and integer_pk:
            yield model


def _high_water_marks() -> dict:
    from django.db.models import Max

    return {
        model: model._default_manager.aggregate(top=Max("pk"))["top"] or 0
        for model in _integer_pk_models()
    }


def _rows_since(marks: dict):
    return {
        model: model._default_manager.filter(pk__gt=top)
        for model, top in marks.items()
        if model._default_manager.filter(pk__gt=top).exists()
    }


def _delete_since(marks: dict) -> None:
    """Delete every row created after ``marks``, whatever the order the foreign keys need."""
    from django.db.models import ProtectedError, RestrictedError
    from django.db.utils import IntegrityError

    for _ in range(10):
        leftovers = _rows_since(marks)
        if not leftovers:
            return
        for queryset in leftovers.values():
            try:
                with transaction.atomic():
                    queryset.delete()
            except (ProtectedError, RestrictedError, IntegrityError):
                continue  # another model must go first: next pass
    leftovers = _rows_since(marks)
    assert not leftovers, f"the security tests left rows behind: {list(leftovers)}"


@pytest.fixture(scope="module")
def world_keys(django_db_setup, django_db_blocker):
    """The world is built once per module and committed, then removed after the module.

    Every test runs in its own transaction (the ``db`` fixture), rolled back at its end, so each
    test still sees the world exactly as built; other test modules never see it.
    """
    from django.core.cache import cache

    with django_db_blocker.unblock():
        marks = _high_water_marks()
        try:
            keys = build_world()
        except BaseException:
            _delete_since(marks)
            raise
    yield keys
    with django_db_blocker.unblock():
        _delete_since(marks)
        cache.clear()


@pytest.fixture
def world(world_keys, db) -> World:
    return load_world(world_keys)


def client_for(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


class _Rollback(Exception):
    pass


@contextmanager
def rolled_back():
    """Run the block in a savepoint and undo everything it wrote."""
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass

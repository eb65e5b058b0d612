"""Shared builders for the tournament tests: users in each role, tournaments with players, a
seated round — all made through the real services, as a referee's actions would make them.

Every test runs in English (``translation.override`` here, ``Accept-Language: en`` on the test
clients) so that messages can be asserted whatever the French catalogue holds today.
"""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import translation

from scoring.engine import Contract, Deal
from scoring.models import ScoreSheet
from scoring.services import Actor, deal_record
from tournaments import services
from tournaments.models import Registration, Round, StaffMember, Tournament

DAY = date(2026, 3, 14)
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def en_client(user=None) -> Client:
    """A test client asking for English pages, logged in as ``user`` when given."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def make_user(username: str, *, organiser: bool = False, **extra):
    user = get_user_model().objects.create_user(
        username=username, password="pw-" + username, **extra
    )
    if organiser:
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def make_tournament(
    players: int = 0,
    *,
    organiser=None,
    present: bool = True,
    format: str = Tournament.Format.INDIVIDUAL,
    rounds: int = 5,
    deals: int = 4,
    seed: int = 42,
    name: str | None = None,
    prefix: str = "Joueur",
    **settings,
) -> Tournament:
    """A tournament with ``players`` individual players (present unless told otherwise);
    ``settings`` are more fields of the tournament (odd_tables=...)."""
    tournament = services.tournament_create(
        created_by=organiser,
        name=name or f"Tournoi {next(_names)}",
        date=DAY,
        format=format,
        rounds=rounds,
        deals_per_round=deals,
        seed=seed,
        **settings,
    )
    add_players(tournament, players, present=present, prefix=prefix)
    return tournament


def add_players(tournament, count, *, present=True, prefix="Joueur", start=0):
    return [
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"{prefix}{i:02d}", first_name="Ana"),
            present=present,
        )
        for i in range(start, start + count)
    ]


def add_teams(tournament, teams, *, present=True, prefix="Equipe"):
    """``teams`` teams of the tournament's team size; returns the Team objects."""
    size = tournament.team_size
    return [
        services.team_register(
            tournament=tournament,
            name=f"{prefix} {t}",
            members=[
                services.PlayerRow(last_name=f"{prefix}{t}m{m}", first_name="Bo")
                for m in range(size)
            ],
            present=present,
        )
        for t in range(teams)
    ]


def tables_of(round_: Round) -> list[list[int]]:
    """The round's tables as lists of registration ids in seat order, table after table."""
    out: dict[int, list[int]] = {}
    for table in round_.tables.order_by("number"):
        out[table.number] = list(
            table.seats.order_by("position").values_list("registration_id", flat=True)
        )
    return [out[n] for n in sorted(out)]


def names_of(round_: Round) -> list[list[str]]:
    names = {r.pk: r.full_name for r in Registration.objects.filter(tournament=round_.tournament)}
    return [[names[r] for r in table] for table in tables_of(round_)]


def legal_deal(taker: int = 0, players: int = 4) -> Deal:
    """Garde, 2 oudlers, 49 points: a deal the FFT rules accept."""
    return Deal(
        players=players, taker=taker, contract=Contract.GARDE, oudlers=2, points=Decimal(49)
    )


def enter_first_deal(round_: Round) -> None:
    """Table 1 reports its first deal through the table link (the round has started)."""
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=1)
    size = sheet.table.seats.count()
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal_deal(players=4 if size == 5 else size),
        actor=Actor.table(page="/test"),
    )


def close(round_: Round) -> Round:
    return services.round_close(round_=round_, reason="Feuilles papier (test)")


@pytest.fixture
def organiser(db):
    return make_user("orga", organiser=True)


@pytest.fixture
def referee(db):
    return make_user("arbitre")


@pytest.fixture
def outsider_referee(db):
    """A referee of another tournament only."""
    return make_user("arbitre-ailleurs")


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("admin", password="pw-admin")


@pytest.fixture
def tournament(organiser, referee):
    """Tournament A: 8 present players, ``organiser`` organises it, ``referee`` referees it.

    One round only, so that seating plans no rounds ahead and is instant.
    """
    t = make_tournament(8, organiser=organiser, name="Tournoi A", rounds=1)
    StaffMember.objects.create(tournament=t, user=referee, role=StaffMember.Role.REFEREE)
    return t


@pytest.fixture
def other_tournament(outsider_referee):
    """Tournament B: another organiser, ``outsider_referee`` referees it."""
    other_organiser = make_user("orga-b", organiser=True)
    t = make_tournament(8, organiser=other_organiser, name="Tournoi B", prefix="Autre", rounds=1)
    StaffMember.objects.create(tournament=t, user=outsider_referee, role=StaffMember.Role.REFEREE)
    return t


@pytest.fixture
def seated_round(tournament):
    """Round 1 of tournament A, seated (two tables of 4)."""
    return services.round_seat_next(tournament=tournament)


@pytest.fixture
def organiser_client(organiser):
    return en_client(organiser)


@pytest.fixture
def referee_client(referee):
    return en_client(referee)


@pytest.fixture
def outsider_client(outsider_referee):
    return en_client(outsider_referee)


@pytest.fixture
def anonymous_client():
    return en_client()


def snapshot(tournament: Tournament) -> dict:
    """Everything a staff action on ``tournament`` could change, to compare before/after."""
    from django.contrib.auth import get_user_model

    from scoring.models import Deal
    from tournaments.models import Player, Seat, Team

    return {
        "tournament": list(
            Tournament.objects.filter(pk=tournament.pk).values_list(
                "name", "format", "rounds", "deals_per_round", "visibility", "finished"
            )
        ),
        "registrations": sorted(
            Registration.objects.filter(tournament=tournament).values_list(
                "pk", "status", "withdrawn_after_round", "team_id"
            )
        ),
        "rounds": sorted(
            Round.objects.filter(tournament=tournament).values_list("pk", "number", "status")
        ),
        "seats": sorted(
            Seat.objects.filter(round__tournament=tournament).values_list(
                "pk", "table_id", "position", "registration_id"
            )
        ),
        "deals": Deal.objects.filter(sheet__table__round__tournament=tournament).count(),
        "staff": sorted(tournament.staff.values_list("user_id", "role")),
        "teams": sorted(Team.objects.filter(tournament=tournament).values_list("pk", "name")),
        "players": Player.objects.count(),
        "users": get_user_model().objects.count(),
    }

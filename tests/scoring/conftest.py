"""A seated tournament round, built through the real services."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from scoring.engine import Contract, Deal
from scoring.models import ScoreSheet
from scoring.services import Actor
from tournaments import services
from tournaments.models import StaffMember


def make_tournament(players: int, *, deals: int = 4, passed_count: bool = False, user=None):
    tournament = services.tournament_create(
        created_by=user,
        name=f"Test {players}",
        date=date(2026, 11, 30),
        rounds=3,
        deals_per_round=deals,
        passed_deals_count=passed_count,
        seed=11,
    )
    for i in range(players):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(
                last_name=f"Joueur{i:02d}", first_name="Ève", licence=f"L{i:04d}"
            ),
            present=True,
        )
    round_ = services.round_seat_next(tournament=tournament)
    return tournament, round_


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")


@pytest.fixture
def seated(db, referee):
    """4 players at one table, the referee on the staff."""
    tournament, round_ = make_tournament(4)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    sheet = ScoreSheet.objects.get(table__round=round_)
    return tournament, round_, sheet


def legal(taker=0, points=49, oudlers=2, contract=Contract.GARDE, players=4, **kw) -> Deal:
    return Deal(
        players=players,
        taker=taker,
        contract=contract,
        oudlers=oudlers,
        points=Decimal(points),
        **kw,
    )


TABLE = Actor.table(page="/test")


def staff(user) -> Actor:
    return Actor.staff(user, page="/test")

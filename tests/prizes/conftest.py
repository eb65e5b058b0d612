"""A played tournament whose players carry a sex, a year of birth and a série, with the
categories and prizes an open's organiser would set."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation

from scoring.demo import create_demo
from scoring.prizes import services as prize_services
from scoring.standings import forget_standings
from tests.tournaments.conftest import en_client, make_user
from tournaments.models import Registration, Tournament

DAY = date(2026, 3, 14)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def organiser(db):
    return make_user("orga-prix", organiser=True)


@pytest.fixture
def organiser_client(organiser):
    return en_client(organiser)


def give_details(tournament: Tournament) -> list[Registration]:
    """Every other player a woman; years of birth from 2012 (a youth) to 1950 (a senior);
    séries in turn. Returns the registrations in the scratch order's ids."""
    registrations = list(Registration.objects.filter(tournament=tournament).order_by("pk"))
    series = ["Open", "1re série", "Promotion"]
    for index, registration in enumerate(registrations):
        registration.sex = "F" if index % 2 else "M"
        registration.birth_year = [2012, 1990, 1950, 1985, 2010, 1960][index % 6]
        registration.series = series[index % 3]
        registration.save()
    return registrations


def build_open(organiser=None) -> Tournament:
    """12 players, 2 rounds played, with categories Dames, Jeunes under 18, Seniors 60 and
    Promotion, and prizes for scratch 1-3 and the first of each category."""
    tournament = create_demo(
        players=12, rounds=2, deals=2, seed=7, play_rounds=2, created_by=organiser
    ).tournament
    Tournament.objects.filter(pk=tournament.pk).update(date=DAY)
    tournament.refresh_from_db()
    give_details(tournament)
    for position, (kind, age, series) in enumerate(
        [("women", None, ""), ("youth", 18, ""), ("senior", 60, ""), ("series", None, "Promotion")],
        start=1,
    ):
        category = prize_services.category_add(
            tournament=tournament, kind=kind, age=age, series=series, position=position
        )
        prize_services.prizes_add(
            tournament=tournament, category=category, first_place=1, description=f"Coupe {kind}"
        )
    prize_services.prizes_add(
        tournament=tournament, category=None, first_place=1, last_place=3, description="50 €"
    )
    forget_standings()
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def played(db, organiser):
    return build_open(organiser)

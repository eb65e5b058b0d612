"""A small club season, built through the real services (the demo season's builder)."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.demo import create_demo_season
from tests.tournaments.conftest import en_client, make_user  # noqa: F401


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def organiser(db):
    return make_user("club-organiser", organiser=True)


@pytest.fixture
def season_of(organiser):
    """``season_of(tournaments, players=8)``: a season of played, closed tournaments."""

    def build(tournaments: int = 2, players: int = 8, **options):
        options.setdefault("rounds", 1)
        options.setdefault("deals", 1)
        return create_demo_season(
            tournaments=tournaments, players=players, organiser=organiser, **options
        )

    return build

"""A job's page leads back to where it was started: the tournament's dashboard, the
championship's page (its results report), the club's season (its archive)."""

from __future__ import annotations

import pytest
from django.urls import resolve, reverse

from tests.championships.conftest import make_championship
from tests.tournaments.conftest import make_user

from .conftest import french_client

pytestmark = pytest.mark.django_db


def _job_page(client, start_url: str) -> str:
    job_id = resolve(client.post(start_url)["Location"]).kwargs["job_id"]
    return client.get(reverse("jobs:job", args=[job_id])).content.decode()


def test_the_championship_report_leads_back_to_the_championship():
    by = make_user("orga-retour", organiser=True)
    championship, _stages = make_championship(8, cut=4, next_sizes=(4,), by=by)
    page = _job_page(
        french_client(by), reverse("jobs:championship_report", args=[championship.slug, "csv"])
    )
    assert f'href="{reverse("championships:staff", args=[championship.slug])}"' in page


def test_the_season_archive_leads_back_to_the_season(season_of, organiser):
    demo = season_of(1, players=8)
    page = _job_page(
        french_client(organiser),
        reverse("jobs:season_archive", args=[demo.club.slug, demo.season.pk]),
    )
    assert f'href="{reverse("tournaments:season", args=[demo.club.slug, demo.season.pk])}"' in page

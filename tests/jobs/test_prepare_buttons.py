"""The « Préparer » buttons say what they make and appear where there is something to make:
no score sheets to prepare before a round is seated, and the round's blank sheets named as a
document of their own (not a fragment, « vierges pour … », under the workbook)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.scoring.conftest import make_tournament
from tournaments import services
from tournaments.models import StaffMember

from .conftest import french_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")


def test_no_score_sheets_to_prepare_before_a_round_is_seated(referee):
    tournament = services.tournament_create(
        created_by=referee, name="Sans tables", date=date(2026, 11, 30), seed=1
    )
    client = french_client(referee)
    sheets = reverse("jobs:sheets_tournament", args=[tournament.slug, "pdf"])
    page = client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content.decode()
    assert sheets not in page and "Préparer le PDF" not in page

    seated, _round = make_tournament(12)
    StaffMember.objects.create(tournament=seated, user=referee, role="referee")
    page = client.get(reverse("tournaments:dashboard", args=[seated.slug])).content.decode()
    assert reverse("jobs:sheets_tournament", args=[seated.slug, "pdf"]) in page


def test_the_blank_sheets_button_names_its_document(referee):
    tournament, _round = make_tournament(12)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    french = french_client(referee).get(url).content.decode()
    assert ">PDF vierge pour les tables sur papier</button>" in french
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(referee)
    assert ">Blank PDF for paper tables</button>" in english.get(url).content.decode()


def test_a_tournament_without_a_place_has_no_empty_item_in_its_summary(referee):
    tournament = services.tournament_create(
        created_by=referee, name="Sans lieu", date=date(2026, 11, 30), seed=1
    )
    page = french_client(referee).get(reverse("tournaments:dashboard", args=[tournament.slug]))
    summary = re.search(r'<p class="muted">(.*?)</p>', page.content.decode(), re.S).group(1)
    assert not re.search(r"·\s*·", summary), summary

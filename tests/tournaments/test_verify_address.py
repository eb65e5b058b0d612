"""Issue 27, the address printed on signed sheets: the tournament set-up asks for the public
address where sheets are verified after the day (saying what happens without one, refusing the
room's own addresses), the sheets' QR code and printed address use it, and /verifier/ takes the
printed code typed by hand."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.demo import create_demo
from scoring.models import ScoreSheet, SheetSeal
from tests.jobs.worker import job_document
from tournaments.models import Tournament

from .conftest import en_client, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def signed(organiser):
    """A tournament whose one table signed its sheet."""
    return create_demo(
        players=4, rounds=1, deals=2, seed=21, play_rounds=1, created_by=organiser
    ).tournament


def printed_addresses(client, tournament) -> list[str]:
    url = reverse("jobs:sheets_tournament", args=[tournament.slug, "pdf"])
    reader = PdfReader(io.BytesIO(job_document(client, url)))
    text = "".join(page.extract_text() for page in reader.pages).replace("\n", "")
    return re.findall(r"https?://[^\s]*?/verifier/[A-Z0-9-]+/", text)


def settings_url(tournament) -> str:
    return reverse("tournaments:settings", args=[tournament.slug])


def settings_data(tournament, **changes) -> dict:
    values = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "place": tournament.place,
        "format": tournament.format,
        "rounds": tournament.rounds,
        "deals_per_round": tournament.deals_per_round,
        "odd_tables": tournament.odd_tables,
        "seating_priority": tournament.seating_priority,
        "passed_deals_count": "on" if tournament.passed_deals_count else "",
        "timed_rounds": "on" if tournament.timed_rounds else "",
        "rule_set": tournament.rule_set,
        "visibility": tournament.visibility,
        "tie_breaks": tournament.tie_breaks,
        "capacity": "",
    }
    return {k: v for k, v in {**values, **changes}.items() if v != ""}


def test_the_set_up_asks_for_the_public_verify_address_and_says_what_happens_without(
    organiser, signed
):
    client = en_client(organiser)
    for url in (reverse("tournaments:create"), settings_url(signed)):
        page = client.get(url).content.decode()
        assert 'name="verify_url"' in page
        assert "nobody can reach once the day is over" in page


def test_the_rooms_own_addresses_are_refused_with_what_was_typed_kept(organiser, signed):
    client = en_client(organiser)
    for typed in ("http://192.168.1.20:8000", "http://127.0.0.1:8000/", "http://localhost"):
        response = client.post(settings_url(signed), settings_data(signed, verify_url=typed))
        assert response.status_code == 422, typed
        text = response.content.decode()
        assert "only reachable on this computer or the room" in text
        assert f'value="{typed}"' in text
    assert Tournament.objects.get(pk=signed.pk).verify_url == ""


def test_sheets_point_at_the_public_verify_address_once_given(organiser, signed):
    client = en_client(organiser)
    seal = SheetSeal.objects.get(sheet=ScoreSheet.objects.get(table__round__tournament=signed))
    assert printed_addresses(client, signed) == [f"http://testserver/verifier/{seal.code}/"]

    response = client.post(
        settings_url(signed), settings_data(signed, verify_url="https://tarot.example.org/")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get(pk=signed.pk).verify_url == "https://tarot.example.org"
    assert printed_addresses(client, signed) == [f"https://tarot.example.org/verifier/{seal.code}/"]


def test_the_verify_page_takes_the_printed_code_typed_by_hand(signed):
    seal = SheetSeal.objects.get(sheet=ScoreSheet.objects.get(table__round__tournament=signed))
    client = en_client()
    form = client.get(reverse("verify")).content.decode()
    assert 'name="code"' in form
    typed = seal.code.lower().replace("-", " ")
    page = client.get(reverse("verify"), {"code": typed}, follow=True)
    assert page.redirect_chain[-1][0] == reverse("verify_code", args=[seal.code])
    assert "Genuine: this document matches the current record." in page.content.decode()

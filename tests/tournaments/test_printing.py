"""Printed documents of a round: the seating plan and the table cards (PDF)."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.jobs.worker import job_document
from tournaments import services
from tournaments.models import Registration

from .conftest import add_players, en_client, make_tournament, names_of

pytestmark = pytest.mark.django_db


def pdf_pages(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


def pdf_url(tournament, kind, number=1):
    return reverse("tournaments:round_pdf", args=[tournament.slug, number, kind])


def blocks(text: str, marker: str) -> dict[int, str]:
    """The text of each table, cut at ``marker`` followed by the table number."""
    parts = re.split(rf"{marker}\s*(\d+)\n", text)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@pytest.fixture
def round_of_nine(tournament):
    """Tournament A plus a player with accents: a table of 5 and one of 4; known PINs."""
    add_players(tournament, 1, prefix="Lefèvre-Œuvray")
    for i, registration in enumerate(tournament.registrations.order_by("pk")):
        Registration.objects.filter(pk=registration.pk).update(pin=f"{8100 + i * 7}")
    return services.round_seat_next(tournament=tournament)


def test_seating_plan_lists_every_player_at_their_table(tournament, round_of_nine, referee_client):
    response = referee_client.get(pdf_url(tournament, "plan"))
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-position-1-plan.pdf"'
    )
    by_table, alphabetical = pdf_pages(response)
    seating = names_of(round_of_nine)
    assert [len(t) for t in seating] == [5, 4]

    # Page 1: each table with its players in seat order.
    tables = blocks(by_table, "Table ")
    assert sorted(tables) == [1, 2]
    for number, names in enumerate(seating, start=1):
        assert re.findall(r"Ana [^\n]+", tables[number]) == names

    # Page 2: every player in alphabetical order of last names, last name first, with the table
    # number (every first name is Ana here).
    table_of = {name: n for n, names in enumerate(seating, start=1) for name in names}
    listed = re.findall(r"([^\n]+) Ana\n(\d+)\n", alphabetical)
    assert [f"Ana {last}" for last, _ in listed] == sorted(table_of)
    assert {f"Ana {last}": int(n) for last, n in listed} == table_of

    # No PIN on a plan pinned to the wall.
    for pin in tournament.registrations.values_list("pin", flat=True):
        assert pin not in by_table + alphabetical


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text))


def test_table_cards_print_no_pin(tournament, round_of_nine, referee_client):
    """The card lies on the table beside its QR code: with the PINs on it, North could sign for
    the whole table. It names the players by seat; each has their own PIN slip."""
    response = referee_client.get(pdf_url(tournament, "cards"))
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-position-1-cartes.pdf"'
    )
    pages = pdf_pages(response)
    assert len(pages) == 1  # two cards per A4 page
    cards = blocks(pages[0], "TABLE\n")
    assert sorted(cards) == [1, 2]
    for number, names in enumerate(names_of(round_of_nine), start=1):
        assert re.findall(r"(Ana [^\n]+)\n", cards[number]) == names
    printed = words(pages[0])
    for pin in tournament.registrations.values_list("pin", flat=True):
        assert pin not in printed
    assert "no-store" in response["Cache-Control"]  # it carries the table links


def test_no_shared_document_prints_a_pin(tournament, round_of_nine, referee_client):
    """Seating plan, table cards and score sheets (blank and filled, PDF and Excel)."""
    from openpyxl import load_workbook

    pins = set(tournament.registrations.values_list("pin", flat=True))
    for url in (pdf_url(tournament, "plan"), pdf_url(tournament, "cards")):
        printed = words("\n".join(pdf_pages(referee_client.get(url))))
        assert not pins & printed, url
    # The round's and the tournament's sheets are jobs: started, run, read back.
    round_pdf = reverse("jobs:sheets_round", args=[tournament.slug, 1, "pdf"])
    documents = [
        (round_pdf, {}),
        (round_pdf, {"vierge": "1"}),
        (reverse("jobs:sheets_tournament", args=[tournament.slug, "pdf"]), {}),
    ]
    for url, data in documents:
        content = job_document(referee_client, url, data)
        printed = words("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages))
        assert not pins & printed, (url, data)
    workbook = job_document(
        referee_client, reverse("jobs:sheets_round", args=[tournament.slug, 1, "xlsx"])
    )
    book = load_workbook(io.BytesIO(workbook))
    cells = {
        str(cell)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for cell in row
        if cell is not None
    }
    assert not pins & cells


def test_pin_slips_give_each_player_their_own_pin(tournament, round_of_nine, referee_client):
    """One small slip per player (name, tournament, PIN), by last name, to hand out at
    check-in; referees print them too (they run the check-in)."""
    response = referee_client.get(reverse("tournaments:pin_slips", args=[tournament.slug]))
    (page,) = pdf_pages(response)  # 9 players: one page of 24 slips
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-codes-pin.pdf"'
    )
    assert "no-store" in response["Cache-Control"]
    registrations = list(tournament.registrations.order_by("last_name", "first_name"))
    lines = page.split("\n")
    for registration in registrations:
        name = registration.full_name
        i = lines.index(name)
        slip = "\n".join(lines[i : i + 6])
        assert registration.pin in words(slip), name
        assert page.count(registration.pin) == 1
    assert page.count("PERSONAL PIN") == len(registrations)
    assert page.count(tournament.name) == len(registrations)
    shown = [line for line in lines if line in {r.full_name for r in registrations}]
    assert shown == [r.full_name for r in registrations]  # by last name


def test_one_players_slip(tournament, round_of_nine, referee_client):
    """A late arrival or a lost slip: that player's slip alone."""
    registration = tournament.registrations.first()
    url = reverse("tournaments:pin_slips", args=[tournament.slug])
    (page,) = pdf_pages(referee_client.get(url, {"joueur": registration.pk}))
    assert registration.full_name in page and registration.pin in words(page)
    assert page.count("PERSONAL PIN") == 1
    for other in tournament.registrations.exclude(pk=registration.pk):
        assert other.pin not in words(page) or other.pin == registration.pin
    for wrong in ("0", "999999", "x", "9" * 30, "-1"):
        assert referee_client.get(url, {"joueur": wrong}).status_code == 404, wrong


def test_the_players_page_shows_no_pin_but_links_each_slip(
    tournament, round_of_nine, referee_client
):
    page = referee_client.get(reverse("tournaments:players", args=[tournament.slug]))
    html = page.content.decode()
    for registration in tournament.registrations.all():
        assert f"?joueur={registration.pk}" in html
        assert f"<code>{registration.pin}</code>" not in html
    assert reverse("tournaments:pin_slips", args=[tournament.slug]) in html


def test_every_table_of_a_large_round_is_printed(superuser):
    tournament = make_tournament(30, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    client = en_client(superuser)
    by_table = pdf_pages(client.get(pdf_url(tournament, "plan")))[0:2]
    numbers = set()
    for page in by_table:
        numbers |= set(blocks(page, "Table "))
    assert numbers == set(range(1, round_.tables.count() + 1)) == set(range(1, 8))
    cards = pdf_pages(client.get(pdf_url(tournament, "cards")))
    assert len(cards) == 4  # 7 cards, two per page


def test_printing_a_round_that_does_not_exist_is_404(tournament, referee_client):
    assert referee_client.get(pdf_url(tournament, "plan")).status_code == 404


def test_cards_of_another_tournament_are_404(tournament, other_tournament, referee_client):
    services.round_seat_next(tournament=other_tournament)
    assert referee_client.get(pdf_url(other_tournament, "cards")).status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Placement — position 1", "Liste alphabétique", "CODE PIN PERSONNEL", "POSITION"]),
        ("en", ["Seating — round 1", "Alphabetical list", "PERSONAL PIN", "ROUND"]),
    ],
)
def test_printed_documents_follow_the_language_of_whoever_asks(
    tournament, round_of_nine, referee, language, words
):
    # The English interface printed French documents: now each document is in the language
    # of the page that asked for it.
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(referee)
    with translation.override(language):  # restores the active language for the next tests
        plan = " ".join(pdf_pages(client.get(pdf_url(tournament, "plan"))))
        cards = " ".join(pdf_pages(client.get(pdf_url(tournament, "cards"))))
        slips = " ".join(
            pdf_pages(client.get(reverse("tournaments:pin_slips", args=[tournament.slug])))
        )
    assert words[0] in plan and words[1] in plan
    assert words[2] in slips
    assert words[3] in cards
    other = "en" if language == "fr" else "fr"
    assert ("Seating" in plan) == (other == "fr")

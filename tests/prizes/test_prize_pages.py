"""The categories and the prize list as people read them: the public category standings, the
prize list PDF for the ceremony (read back with pypdf), the standings' exports (CSV, Excel,
PDF) carrying each category and the prize list, and the organiser's page saying what is wrong."""

from __future__ import annotations

import csv
import html
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.prizes import rules
from scoring.prizes import services as prize_services
from scoring.prizes.models import Category, Prize, PrizeSettings
from scoring.prizes.selectors import category_standings, prize_list
from scoring.standings import forget_standings, standings_data
from tests.tournaments.conftest import en_client
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def expected_members(tournament, kind_test) -> list[str]:
    data = standings_data(tournament)
    people = {r.pk: r for r in Registration.objects.filter(tournament=tournament)}
    return [s.entry.name for s in data.standings() if kind_test(people[s.entry.id])]


def test_category_standings_keep_the_scratch_order(played):
    data = standings_data(played)
    found = {c.label: [r.name for r in c.rows] for c in category_standings(played, data)}
    assert list(found) == [
        "Women",
        "Young players (under 18)",
        "Seniors (60 and over)",
        "Promotion",
    ]
    assert found["Women"] == expected_members(played, lambda r: r.sex == "F")
    # 2012 and 2010 are 14 and 16 in 2026; 1950 and 1960 are 76 and 66.
    assert found["Young players (under 18)"] == expected_members(
        played, lambda r: r.birth_year in (2012, 2010)
    )
    assert found["Seniors (60 and over)"] == expected_members(
        played, lambda r: r.birth_year in (1950, 1960)
    )
    assert found["Promotion"] == expected_members(played, lambda r: r.series == "Promotion")


def test_one_prize_per_player_by_default_and_prizes_that_add_up(played):
    data = standings_data(played)
    lines = prize_list(played, data).lines
    assert [(line.category, line.place) for line in lines] == [
        ("Scratch", 1),
        ("Scratch", 2),
        ("Scratch", 3),
        ("Women", 1),
        ("Young players (under 18)", 1),
        ("Seniors (60 and over)", 1),
        ("Promotion", 1),
    ]
    winners = [line.winner.name for line in lines]
    assert len(set(winners)) == len(winners)  # one prize each
    scratch = [s.entry.name for s in data.standings()]
    assert winners[:3] == scratch[:3]
    women = expected_members(played, lambda r: r.sex == "F")
    assert winners[3] == next(name for name in women if name not in winners[:3])

    PrizeSettings.objects.create(tournament=played, cumulative=True)
    forget_standings()
    lines = prize_list(played, standings_data(played)).lines
    assert lines[3].winner.name == women[0]


def test_the_category_page_on_a_phone_reads_every_category(played):
    client = en_client()
    response = client.get(reverse("public:categories", args=[played.slug]))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    for label in ("Women", "Young players (under 18)", "Seniors (60 and over)", "Promotion"):
        assert label in page
    assert "Prize list" in page and "One prize per player" in page


def test_the_category_page_costs_a_fixed_number_of_queries(played):
    client = en_client()
    forget_standings()
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("public:categories", args=[played.slug]))
    # Every player a woman: the categories hold more players, and as many queries are made.
    Registration.objects.filter(tournament=played).update(sex="F")
    prize_services.category_add(tournament=played, kind="series", series="Open", position=5)
    forget_standings()
    with CaptureQueriesContext(connection) as more:
        client.get(reverse("public:categories", args=[played.slug]))
    assert len(more) == len(few)


def read_pdf(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_prize_list_pdf_for_the_ceremony(played):
    client = en_client()
    response = client.get(reverse("public:prizes_export", args=[played.slug, "pdf"]))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.pdf"')
    text = read_pdf(response.content)
    assert "Prize list" in text
    assert "One prize per player" in text
    lines = prize_list(played, standings_data(played)).lines
    for line in lines:
        assert line.winner.name in text
    assert "Coupe women" in text and "50 €" in text


def test_every_standings_export_carries_the_categories_and_the_prize_list(played):
    client = en_client()
    url = reverse("public:standings_export", args=[played.slug, "csv"])
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode())))
    flat = ["|".join(row) for row in rows]
    assert any("Category: Women" in line for line in flat)
    assert any("Prize list" in line for line in flat)
    url = reverse("public:standings_export", args=[played.slug, "xlsx"])
    workbook = load_workbook(io.BytesIO(client.get(url).content))
    titles = workbook.sheetnames
    assert any("Women" in title for title in titles)
    assert any(title.startswith("Prize list") for title in titles)
    prizes = workbook[next(t for t in titles if t.startswith("Prize list"))]
    cells = [value for row in prizes.iter_rows(values_only=True) for value in row]
    assert "Coupe women" in cells and "50 €" in cells
    url = reverse("public:standings_export", args=[played.slug, "pdf"])
    text = read_pdf(client.get(url).content)
    assert "Category: Seniors (60 and over)" in text and "Prize list" in text


def test_the_tv_shows_each_category_in_turn(played):
    client = en_client()
    response = client.get(reverse("public:tv", args=[played.slug]))
    page = html.unescape(response.content.decode())
    assert page.count('class="tv-view tv-category"') == 4
    assert 'data-title="Women"' in page


def test_organiser_page_says_what_is_wrong_and_keeps_what_was_typed(organiser_client, played):
    url = reverse("tournaments:prizes", args=[played.slug])
    assert organiser_client.get(url).status_code == 200
    before = Category.objects.count()
    response = organiser_client.post(url, {"action": "category", "kind": "youth", "position": "7"})
    assert response.status_code == 422
    page = html.unescape(response.content.decode())
    assert "Give the age" in page
    assert 'value="7"' in page
    assert Category.objects.count() == before
    response = organiser_client.post(url, {"action": "category", "kind": "women", "position": "1"})
    assert response.status_code == 422
    assert "already exists" in html.unescape(response.content.decode())
    response = organiser_client.post(
        url,
        {
            "action": "prizes",
            "category": "",
            "first_place": "2",
            "last_place": "5",
            "description": "Bon",
        },
    )
    assert response.status_code == 422
    assert "Scratch already has a prize for place 2" in html.unescape(response.content.decode())
    assert Prize.objects.filter(tournament=played, category=None).count() == 3
    response = organiser_client.post(
        url,
        {
            "action": "prizes",
            "category": "",
            "first_place": "4",
            "last_place": "5",
            "description": "Bon",
        },
    )
    assert response.status_code == 302
    assert Prize.objects.filter(tournament=played, category=None).count() == 5
    response = organiser_client.post(
        url, {"action": "category", "kind": "series", "series": "Open", "position": "9"}
    )
    assert response.status_code == 302
    assert Category.objects.filter(tournament=played, kind=rules.SERIES, series="Open").exists()
    response = organiser_client.post(
        url, {"action": "settings", "cumulative": "on", "scratch_position": "3"}
    )
    assert response.status_code == 302
    assert PrizeSettings.objects.get(tournament=played).cumulative


def test_each_language_reads_its_own_labels_from_the_same_standings(played):
    url = reverse("public:categories", args=[played.slug])
    english = page_text(en_client().get(url))
    french = page_text(Client(HTTP_ACCEPT_LANGUAGE="fr").get(url))
    assert "Young players (under 18)" in english and "One prize per player" in english
    assert "Jeunes (moins de 18 ans)" in french and "Un seul prix par joueur" in french
    assert "Young players" not in french


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_phone_page_shows_the_category_asked_for(played):
    client = en_client()
    categories = category_standings(played, standings_data(played))
    url = reverse("public:categories", args=[played.slug])
    first = page_text(client.get(url))
    assert f'id="categorie-{categories[0].key}"' in first
    seniors = categories[2]
    text = page_text(client.get(url, {"categorie": seniors.key}))
    assert f'id="categorie-{seniors.key}"' in text
    for row in seniors.rows:
        assert f"/joueur/{row.id}/" in text
    # An unknown category shows the first one.
    assert f'id="categorie-{categories[0].key}"' in page_text(client.get(url, {"categorie": "x"}))

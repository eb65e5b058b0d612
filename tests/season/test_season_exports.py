"""The season standings exported, read back as a club secretary opens them: Excel (openpyxl),
CSV, CSV for French Excel, PDF (pypdf); each names the formula in words."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.season import season_data
from tournaments import services

pytestmark = pytest.mark.django_db


def expected_rows(demo):
    data = season_data(demo.season)
    return data, [
        [f"{s.rank}=" if s.tied else s.rank, s.name, s.points, s.played] for s in data.standings()
    ]


def get(demo, fmt):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        reverse("public:season_export", args=[demo.club.slug, demo.season.pk, fmt])
    )
    assert response.status_code == 200
    return response


def test_excel(season_of):
    demo = season_of(2, players=8)
    data, rows = expected_rows(demo)
    workbook = load_workbook(io.BytesIO(get(demo, "xlsx").content))
    standings, formula = workbook.worksheets
    values = [list(r) for r in standings.iter_rows(values_only=True)]
    assert values[0][:4] == ["Rank", "Player", "Points", "Played"]
    assert len(values[0]) == 4 + len(data.counted)
    assert [v[:4] for v in values[1:]] == rows
    # Each tournament's column holds the player's points for it, in brackets when not counted.
    for standing, line in zip(data.standings(), values[1:], strict=True):
        shown = [c for c in line[4:] if c is not None]
        assert shown == [p.points if p.counted else f"({p.points})" for p in standing.lines]
    words = [r[0] for r in formula.iter_rows(values_only=True)]
    assert "Only closed, final tournaments count." in words


@pytest.mark.parametrize(("fmt", "delimiter", "bom"), [("csv", ",", False), ("csv-fr", ";", True)])
def test_csv(season_of, fmt, delimiter, bom):
    demo = season_of(2, players=8)
    _, rows = expected_rows(demo)
    content = get(demo, fmt).content
    assert content.startswith("\ufeff".encode()) == bom
    lines = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=delimiter))
    assert lines[0][:4] == ["Rank", "Player", "Points", "Played"]
    assert [line[:4] for line in lines[1 : 1 + len(rows)]] == [[str(v) for v in r] for r in rows]
    assert ["Only closed, final tournaments count."] in lines


def test_pdf(season_of):
    demo = season_of(2, players=8)
    _, rows = expected_rows(demo)
    text = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(get(demo, "pdf").content)).pages
    )
    assert demo.club.name in text and demo.season.name in text
    assert "Only closed, final tournaments count." in " ".join(text.split())
    for row in rows:
        assert row[1] in text


def test_unknown_format_is_404(season_of):
    demo = season_of(1, players=8)
    url = reverse("public:season_export", args=[demo.club.slug, demo.season.pk, "docx"])
    assert Client().get(url).status_code == 404


def test_every_export_marks_a_provisional_tournament(season_of):
    demo = season_of(2, players=8)
    services.tournament_update(tournament=demo.tournaments[1], finished=False)
    data = season_data(demo.season)
    assert len(data.counted) == 1 and len(data.provisional) == 1
    words = "Provisional: 1 tournament played is not closed yet and does not count."
    for fmt in ("csv", "csv-fr"):
        content = get(demo, fmt).content.decode("utf-8-sig")
        assert words in content
        assert "Tournoi n° 2" not in content  # no column for it: it adds nothing
    workbook = load_workbook(io.BytesIO(get(demo, "xlsx").content))
    standings, formula = workbook.worksheets
    assert [words] in [list(r) for r in formula.iter_rows(values_only=True)]
    assert len(next(standings.iter_rows(values_only=True))) == 4 + 1
    pdf = PdfReader(io.BytesIO(get(demo, "pdf").content))
    assert words in " ".join(" ".join(page.extract_text() for page in pdf.pages).split())

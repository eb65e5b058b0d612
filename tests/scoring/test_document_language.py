"""The score sheet PDF follows the language of whoever asks for it (the page's language)."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import ScoreSheet
from scoring.services import deal_record
from tournaments.models import StaffMember

from .conftest import TABLE, legal, make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "expected", "absent"),
    [
        ("fr", ["FEUILLE DE MARQUE", "Donneur", "Bilan de la position"], ["SCORE SHEET"]),
        ("en", ["SCORE SHEET", "Dealer", "Round total", "Round 1"], ["FEUILLE", "Donneur"]),
    ],
)
def test_the_score_sheet_pdf_is_printed_in_the_askers_language(
    client, referee, language, expected, absent
):
    tournament, round_ = make_tournament(4)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    client.force_login(referee)
    url = reverse("sheet_document", args=[tournament.slug, 1, sheet.table.number, "pdf"])
    with translation.override(language):  # restores the active language for the next tests
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
    for words in expected:
        assert words in text, words
    for words in absent:
        assert words not in text, words


@pytest.mark.parametrize(("language", "word"), [("fr", "Donneur"), ("en", "Dealer")])
def test_the_score_sheet_workbook_is_in_the_askers_language(client, referee, language, word):
    from openpyxl import load_workbook

    tournament, round_ = make_tournament(4)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    client.force_login(referee)
    url = reverse("sheet_document", args=[tournament.slug, 1, sheet.table.number, "xlsx"])
    with translation.override(language):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    content = b"".join(response.streaming_content) if response.streaming else response.content
    book = load_workbook(io.BytesIO(content))
    values = {c.value for ws in book.worksheets for row in ws.iter_rows() for c in row}
    assert word in values

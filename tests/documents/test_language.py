"""Documents print in the language of whoever asks for them: French by default (the FFT's),
English for an English interface; every fixed text a document prints has its English."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pdfplumber
import pytest

from scoring.documents.language import ENGLISH, printed_in, tr
from scoring.documents.pdf import pin_slips_pdf, score_sheet_pdf, seating_plan_pdf, table_cards_pdf

from .every_deal import every_deal_sheet, every_deal_sheets
from .layout import layout_faults
from .test_layout import _plan

DOCUMENTS = Path(__file__).resolve().parents[2] / "scoring" / "documents"


def _text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in document.pages)


def test_every_fixed_text_a_document_prints_has_its_english():
    missing = []
    for path in DOCUMENTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "tr"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and node.args[0].value not in ENGLISH
            ):
                missing.append(f"{path.name}:{node.lineno}: {node.args[0].value!r}")
    assert missing == []


def test_the_language_is_french_unless_english_is_asked_and_is_restored():
    assert tr("Donnes jouées") == "Donnes jouées"
    with printed_in("en-gb"):
        assert tr("Donnes jouées") == "Deals played"
        with printed_in("fr"):
            assert tr("Position {n}", n=2) == "Position 2"
        assert tr("Position {n}", n=2) == "Round 2"
    assert tr("Position {n}", n=2) == "Position 2"


def test_an_english_score_sheet_reads_english_and_prints_clean():
    sheet = every_deal_sheet(4)
    with printed_in("en"):
        pdf = score_sheet_pdf([sheet])
    text = _text(pdf)
    for english in ("SCORE SHEET", "Round 2", "Dealer", "Taker", "Contract", "Oudlers", "Slam"):
        assert english in text, english
    for english in ("Round total", "Deals played", "Total after penalties", "Signed on"):
        assert english in text, english
    assert "Saturday May 17, 2025" in text
    for french in ("FEUILLE DE MARQUE", "Donneur", "Preneur", "Bilan", "jouées", "Signé le"):
        assert french not in text, french
    assert layout_faults(pdf) == []
    french = _text(score_sheet_pdf([sheet]))
    assert "FEUILLE DE MARQUE" in french and "SCORE SHEET" not in french


def test_english_seating_plan_table_cards_and_pin_slips():
    with printed_in("en"):
        plan_pdf, cards_pdf = seating_plan_pdf(_plan()), table_cards_pdf(_plan())
        sheets = score_sheet_pdf(every_deal_sheets())
    plan, cards = _text(plan_pdf), _text(cards_pdf)
    assert layout_faults(plan_pdf) == [] and layout_faults(cards_pdf) == []
    assert "Seating — round 2" in plan and "Alphabetical list — round 2" in plan
    assert "North" in plan and "Nord" not in plan
    assert "ROUND" in cards and "Scan with a phone" in cards and "Saisie" not in cards
    assert layout_faults(sheets) == []


@pytest.mark.parametrize("language", ["fr", "en"])
def test_pin_slips_in_either_language(language):
    from datetime import date

    from scoring.documents.data import PinSlip, PinSlips

    slips = PinSlips("Open", date(2025, 5, 17), (PinSlip("Léa Martin", "1234"),))
    with printed_in(language):
        text = _text(pin_slips_pdf(slips))
    assert ("PERSONAL PIN" in text) == (language == "en")
    assert ("CODE PIN PERSONNEL" in text) == (language == "fr")


def test_an_english_workbook_reads_english_and_its_formulas_still_check():
    from openpyxl import load_workbook

    from scoring.documents.xlsx import score_sheets_workbook

    sheets = every_deal_sheets()
    ranking = (["Rank", "Player", "Total"], [[1, "Léa", 10]])
    with printed_in("en"):
        raw = score_sheets_workbook(sheets, ranking)
    book = load_workbook(io.BytesIO(raw))
    assert book.sheetnames[0] == "Provisional standings"
    values = {c.value for ws in book.worksheets for row in ws.iter_rows() for c in row}
    for english in ("Dealer", "Taker", "Round total", "Deals played", "Total after penalties"):
        assert english in values, english
    for french in ("Donneur", "Preneur", "Bilan de la position", "Donnes jouées", "Tournoi"):
        assert french not in values, french
    formulas = [v for v in values if isinstance(v, str) and v.startswith("=IF(")]
    assert formulas and all("ERROR: the totals do not sum to zero" in f for f in formulas)

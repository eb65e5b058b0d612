"""Nothing printed over anything: every PDF the app makes, read back word by word (pdfplumber),
has no two words overlapping and no word running across the side of its cell.

The score sheets hold a deal of every kind (every contract, each slam, handfuls, petit au bout
by either camp, a passed deal, a referee's deal and ruling, penalties of both signs) at tables
of 3, 4 and 5, one table alone, a round and the whole tournament; and each deal alone on a
sheet, where it prints in the largest type (« Garde contre » was cut at 9 points).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from scoring.documents.data import PinSlip, PinSlips, SeatingPlan, SeatingTable, StandingsSection
from scoring.documents.pdf import (
    pin_slips_pdf,
    score_sheet_pdf,
    seating_plan_pdf,
    standings_pdf,
    table_cards_pdf,
)

from .every_deal import NAMES, every_deal_sheet, every_deal_sheets
from .layout import layout_faults, page_words

SIZES = {"3": (3, False), "4": (4, False), "5-dead": (5, False), "5-called": (5, True)}


@pytest.mark.parametrize("size", SIZES)
def test_one_tables_sheet_with_every_kind_of_deal_prints_clean(size):
    players, called = SIZES[size]
    sheet = every_deal_sheet(players, called=called)
    pdf = score_sheet_pdf([sheet])
    assert layout_faults(pdf) == []
    words = " ".join(page_words(pdf)[0])
    # Long values wrap, whole: nothing is cut.
    for whole in ("Garde", "contre", "Attaque,", "annoncé", "Annoncé,", "chuté", "Défense"):
        assert whole in words.split(), whole


@pytest.mark.parametrize("size", SIZES)
def test_each_deal_alone_prints_clean_in_the_largest_type(size):
    players, called = SIZES[size]
    sheet = every_deal_sheet(players, called=called)
    alone = [replace(sheet, deals=(deal,), deals_expected=4) for deal in sheet.deals]
    pdf = score_sheet_pdf(alone)
    assert layout_faults(pdf) == []
    for words, deal in zip(page_words(pdf), sheet.deals, strict=True):
        if deal.contract == "garde_contre":
            assert "contre" in words and "contr" not in words


def test_a_round_and_the_whole_tournament_print_clean():
    sheets = every_deal_sheets()
    assert layout_faults(score_sheet_pdf(sheets)) == []
    blank = [replace(s, blank=True, deals=(), signatures=(), penalties=()) for s in sheets]
    assert layout_faults(score_sheet_pdf(blank)) == []


def _plan() -> SeatingPlan:
    return SeatingPlan(
        tournament="Open de Saint-Germain-en-Laye « Printemps des Tarotistes » — 5 €",
        tournament_date=date(2025, 5, 17),
        round_number=2,
        tables=tuple(
            SeatingTable(
                number,
                sheet.players,
                f"https://tarot.example.org/t/{number:016d}abcdef/saisie/",
            )
            for number, sheet in enumerate(every_deal_sheets(), start=1)
        ),
    )


def test_seating_plan_and_table_cards_print_clean():
    plan, cards = seating_plan_pdf(_plan()), table_cards_pdf(_plan())
    assert layout_faults(plan) == []
    assert layout_faults(cards) == []
    # A long name is printed whole (smaller), never cut with "…", on the wall or the table.
    for pdf in (plan, cards):
        words = [w for page in page_words(pdf) for w in page]
        assert "Delacroix-Vandenberghe" in words
        assert [w for w in words if w.endswith("…")] == []


def test_pin_slips_print_clean():
    slips = PinSlips(
        tournament="Open de Saint-Germain-en-Laye « Printemps des Tarotistes » — 5 €",
        tournament_date=date(2025, 5, 17),
        slips=tuple(
            PinSlip(name, f"{1000 + i * 37:04d}", club="Tarot Club de Saint-Germain-en-Laye")
            for i, name in enumerate(NAMES * 6)
        ),
    )
    assert layout_faults(pin_slips_pdf(slips)) == []


def test_standings_print_clean():
    headers = ["Rang", "Joueur", "Club", "P1", "P2", "P3", "P4", "Total"]
    rows = [
        [i, NAMES[i % 5], "Tarot Club de Saint-Germain-en-Laye", 1260, -2640, 318, -93, 4000 - i]
        for i in range(1, 60)
    ]
    teams = StandingsSection(
        "Classement par équipes",
        ["Rang", "Équipe", "Total"],
        [[1, f"{NAMES[0]} & {NAMES[1]}", 2500]],
    )
    pdf = standings_pdf("Classement provisoire", "Après 4 positions", headers, rows, more=[teams])
    assert layout_faults(pdf) == []

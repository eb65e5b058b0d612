"""Names are never cut: a very long name or club (« Jean-Christophe-Édouard de La
Tour-Montaigne ») is printed whole in every PDF, read back word by word (pdfplumber): every word
of every name is there, no two words overlap, none leaves its cell (crosses a cell's rule).

Long values wrap within their cell or are printed smaller; a deal's cells may shorten a name
to its seat and a short name (« N Jean-Christophe-Édouard T. ») because the players' block
above the deals, the sheet's legend, gives every name in full.
"""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import date

import pdfplumber
import pytest

from scoring.documents.data import (
    PinSlip,
    PinSlips,
    SeatingPlan,
    SeatingTable,
    SheetAmendment,
    SheetData,
    SheetHandful,
    StandingsSection,
)
from scoring.documents.pdf import (
    pin_slips_pdf,
    score_sheet_pdf,
    seating_plan_pdf,
    standings_pdf,
    table_cards_pdf,
)

from .every_deal import NAMES, every_deal_sheet, every_deal_sheets
from .layout import layout_faults

LONG = [
    "Jean-Christophe-Édouard de La Tour-Montaigne",
    "Marie-Christine Delacroix-Vandenberghe de Saint-Exupéry",
    "Anne-Sophie-Bérengère Lemaire-Œuvray-Duchâteau",
    "Maximilien-Alexandre Wojciechowski-Szczepanski",
    "Éloïse-Apolline de La Rochefoucauld-Montbazon",
]
CLUB = "Association du Tarot Club des Amis du Petit au Bout de Saint-Germain-en-Laye et Environs"
TOURNAMENT = "Grand Open de Saint-Germain-en-Laye « Printemps des Tarotistes » — 5 €"
RENAMED = dict(zip(NAMES, LONG, strict=True))


def _renamed(sheet: SheetData) -> SheetData:
    """``sheet`` with every player's name made long, and a long club."""

    def new(name: str) -> str:
        return RENAMED.get(name, name)

    return replace(
        sheet,
        players=tuple(replace(p, name=new(p.name), club=CLUB) for p in sheet.players),
        deals=tuple(
            replace(
                d,
                dealer=new(d.dealer),
                sitting_out=new(d.sitting_out),
                taker=new(d.taker),
                partner=new(d.partner),
                handfuls=tuple(SheetHandful(new(h.player), h.size) for h in d.handfuls),
            )
            for d in sheet.deals
        ),
        penalties=tuple(
            replace(p, player=new(p.player), given_by="referee") for p in sheet.penalties
        ),
        signatures=tuple(replace(s, player=new(s.player)) for s in sheet.signatures),
        amendments=(
            SheetAmendment(
                at=sheet.signatures[0].signed_at,
                by="l’arbitre",
                reason="Erreur de comptage",
                summary=(
                    f"Donne 1 corrigée par l’arbitre à 15:20 : preneur {LONG[0]} → {LONG[1]} "
                    "(motif : erreur de comptage des points du chien, "
                    + "recomptés devant les quatre joueurs de la table " * 4
                    + ")"
                ),
                after_signature=True,
            ),
        ),
        status="amended",
    )


def _words(pdf: bytes) -> list[set[str]]:
    """The words of each page, a word broken after its hyphen at the end of a line joined
    again (« Delacroix- » + « Vandenberghe »)."""
    pages = []
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            words = [w["text"] for w in page.extract_words(y_tolerance=1, extra_attrs=["size"])]
            found = set(words)
            for i, word in enumerate(words):
                joined = word
                for following in words[i + 1 : i + 4]:
                    if not joined.endswith("-"):
                        break
                    joined += following
                    found.add(joined)
            pages.append(found)
    return pages


def _whole(names, words: set[str]) -> list[str]:
    """Each name's space-separated words, each printed whole as one word of the page (or
    broken after one of its own hyphens), and no « … » anywhere."""
    missing = [
        w
        for name in names
        for w in name.split()
        if w not in words and not any(x.replace("-", "") == w.replace("-", "") for x in words)
    ]
    return missing + [w for w in words if "…" in w]


@pytest.mark.parametrize("size", [3, 4, 5])
def test_one_tables_sheet_prints_every_long_name_whole_and_clean(size):
    sheet = _renamed(every_deal_sheet(size, called=size == 5))
    pdf = score_sheet_pdf([sheet])
    assert layout_faults(pdf) == []
    (words,) = _words(pdf)
    # The players' block, the legend of the deal table: every name and the club whole.
    assert _whole([p.name for p in sheet.players] + [CLUB], words) == []
    # A deal's cell that cannot hold a name gives the seat and a short name.
    assert "T." in words and "Jean-Christophe-Édouard" in words


def test_a_round_and_the_whole_tournament_print_every_long_name_whole():
    sheets = [_renamed(s) for s in every_deal_sheets()]
    for bundle in (sheets, sheets * 3):
        pdf = score_sheet_pdf(bundle)
        assert layout_faults(pdf) == []
        for sheet, words in zip(bundle, _words(pdf), strict=True):
            assert _whole([p.name for p in sheet.players] + [CLUB], words) == []


def _plan() -> SeatingPlan:
    return SeatingPlan(
        tournament=TOURNAMENT,
        tournament_date=date(2025, 5, 17),
        round_number=2,
        tables=tuple(
            SeatingTable(
                number,
                tuple(replace(p, club=CLUB) for p in _renamed(sheet).players),
                f"https://tarot.example.org/t/{number:016d}abcdef/saisie/",
            )
            for number, sheet in enumerate(every_deal_sheets(), start=1)
        ),
    )


def test_seating_plan_and_table_cards_print_every_long_name_whole():
    plan = _plan()
    everyone = [p for table in plan.tables for p in table.players]
    for pdf in (seating_plan_pdf(plan), table_cards_pdf(plan)):
        assert layout_faults(pdf) == []
        words = set().union(*_words(pdf))
        assert _whole([p.name for p in everyone], words) == []
    # The alphabetical list gives each player's club too.
    words = set().union(*_words(seating_plan_pdf(plan)))
    assert _whole([CLUB], words) == []


def test_pin_slips_print_every_long_name_and_club_whole():
    slips = PinSlips(
        tournament=TOURNAMENT,
        tournament_date=date(2025, 5, 17),
        slips=tuple(
            PinSlip(name, f"{1000 + i * 37:04d}", club=CLUB, team="Les Excuses Imparfaites")
            for i, name in enumerate(LONG * 5)
        ),
    )
    pdf = pin_slips_pdf(slips)
    assert layout_faults(pdf) == []
    words = set().union(*_words(pdf))
    assert _whole([*LONG, CLUB, TOURNAMENT, "Les Excuses Imparfaites"], words) == []


def test_standings_print_every_long_name_and_club_whole():
    headers = ["Rang", "Joueur", "Club", "P1", "P2", "P3", "P4", "Total"]
    rows = [[i, LONG[i % 5], CLUB, 1260, -2640, 318, -93, 4000 - i] for i in range(1, 40)]
    teams = StandingsSection(
        "Classement par équipes", ["Rang", "Équipe", "Total"], [[1, f"{LONG[0]} & {LONG[1]}", 25]]
    )
    pdf = standings_pdf("Classement provisoire", "Après 4 positions", headers, rows, more=[teams])
    assert layout_faults(pdf) == []
    words = set().union(*_words(pdf))
    assert _whole([*LONG, CLUB], words) == []

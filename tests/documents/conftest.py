"""Example score sheets for the document tests (plain data, no database).

Names are chosen to break things: accents, œ, €, « », markup (``<Dupont & Cie>``), quotes and a
spreadsheet formula (``=1+1``). Every example's scores follow the FFT rules and sum to zero.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from scoring.documents.data import (
    SeatingPlan,
    SeatingTable,
    SheetAmendment,
    SheetData,
    SheetDeal,
    SheetHandful,
    SheetPenalty,
    SheetPlayer,
    SheetSignature,
)
from scoring.documents.fingerprint import fingerprint, verification_code

TOURNAMENT = "Open d'Évry « Printemps » — 5 €"
PLACE = "Salle des fêtes, Œuilly"
DAY = date(2025, 5, 17)

NORTH = "Élodie Lefèvre-Œuvray"
EAST = "<Dupont & Cie>"
SOUTH = "=1+1"
WEST = 'Jean "Le Petit" O\'Brien'
REFEREE = "Chloé Arbitre"


def _at(hour: int, minute: int) -> datetime:
    return datetime(2025, 5, 17, hour, minute, 12, tzinfo=UTC)


def table_of_four() -> SheetData:
    """Four deals: a garde with a handful and petit au bout, a passed deal, a failed petite, a
    deal decided by the referee; a penalty; signed by all four, then amended."""
    players = (
        SheetPlayer("N", NORTH, "Tarot Club d'Évry", "012345"),
        SheetPlayer("E", EAST, "Les « As » du 18", "023456"),
        SheetPlayer("S", SOUTH, "Club €uro", "034567"),
        SheetPlayer("O", WEST, "", ""),
    )
    deals = (
        # Official example: garde, 2 oudlers, 49 points, simple handful, petit au bout by the
        # taker: M = (25 + 8) × 2 + 20 + 20 = 106.
        SheetDeal(
            number=1,
            kind="played",
            dealer=NORTH,
            taker=EAST,
            contract="garde",
            oudlers=2,
            points=Decimal("49"),
            handfuls=(SheetHandful(EAST, "simple"),),
            petit_au_bout="attack",
            scores=(-106, 318, -106, -106),
        ),
        SheetDeal(number=2, kind="passed", dealer=EAST),
        # Petite, 1 oudler, 45 points: fails by 6, M = 31.
        SheetDeal(
            number=3,
            kind="played",
            dealer=SOUTH,
            taker=WEST,
            contract="petite",
            oudlers=1,
            points=Decimal("45"),
            scores=(31, 31, 31, -93),
        ),
        # Garde sans, 3 oudlers, 40 points: wins by 4, M = 29 × 4 = 116 — decided by the referee.
        SheetDeal(
            number=4,
            kind="referee",
            dealer=WEST,
            taker=NORTH,
            contract="garde_sans",
            oudlers=3,
            points=Decimal("40"),
            scores=(348, -116, -116, -116),
            note="Carte retournée pendant la donne : résultat fixé par l'arbitre",
        ),
    )
    data = SheetData(
        tournament=TOURNAMENT,
        tournament_date=DAY,
        place=PLACE,
        round_number=2,
        table_number=7,
        rule_set="FFT (règlement officiel)",
        players=players,
        deals=deals,
        deals_expected=4,
        penalties=(SheetPenalty(SOUTH, -20, "Retard à la table", REFEREE),),
        signatures=(
            SheetSignature(NORTH, "pin", _at(15, 2)),
            SheetSignature(EAST, "pin", _at(15, 3)),
            SheetSignature(SOUTH, "paper", _at(15, 4)),
            SheetSignature(WEST, "pin", _at(15, 5)),
        ),
        amendments=(
            SheetAmendment(
                at=_at(16, 40),
                by=REFEREE,
                reason="Erreur de saisie des points (donne 3)",
                summary=(
                    "Donne 3 corrigée par Chloé Arbitre à 18:40 : 43 → 45 points "
                    "(motif : Erreur de saisie des points (donne 3))"
                ),
                after_signature=True,
            ),
        ),
        status="amended",
        referee=REFEREE,
        verification_url="https://tarot.example.org/verifier/feuille/8f3a2c/",
    )
    return _sealed(data)


# Expected numbers of table_of_four (from the rules, not from the code under test).
FOUR_TOTALS = (273, 233, -191, -315)
FOUR_RUNNING = [
    (-106, 318, -106, -106),
    (-106, 318, -106, -106),
    (-75, 349, -75, -199),
    FOUR_TOTALS,
]


def _sealed(data: SheetData) -> SheetData:
    fp = fingerprint(data)
    return replace(data, fingerprint=fp, verification_code=verification_code(fp))


def table_of_five_dead_seat() -> SheetData:
    """A table of 5 in a 4-player tournament: the dealer sits out and scores 0."""
    names = ["Amélie Poulain", "Bérénice Cœur", "Çédric Noël", "Dominique « Dom » Faure", "Zoé Été"]
    seats = ["N", "E", "S", "O", "5"]
    players = tuple(
        SheetPlayer(s, n, "Club des Cinq", "") for s, n in zip(seats, names, strict=True)
    )
    deals = (
        # Garde, 2 oudlers, 45 points: wins by 4, M = 58; North deals and sits out.
        SheetDeal(
            number=1,
            kind="played",
            dealer=names[0],
            sitting_out=names[0],
            taker=names[1],
            contract="garde",
            oudlers=2,
            points=Decimal("45"),
            scores=(0, 174, -58, -58, -58),
        ),
        # Petite, 3 oudlers, 30 points: fails by 6, M = 31; East deals and sits out.
        SheetDeal(
            number=2,
            kind="played",
            dealer=names[1],
            sitting_out=names[1],
            taker=names[2],
            contract="petite",
            oudlers=3,
            points=Decimal("30"),
            scores=(31, 0, -93, 31, 31),
        ),
    )
    return SheetData(
        tournament=TOURNAMENT,
        tournament_date=DAY,
        place=PLACE,
        round_number=1,
        table_number=12,
        rule_set="FFT (règlement officiel)",
        players=players,
        deals=deals,
        deals_expected=5,
        status="complete",
    )


FIVE_DEAD_TOTALS = (31, 174, -151, -27, -27)


def table_of_five_called() -> SheetData:
    """A 5-player game: a called partner, then a taker alone with a half point."""
    names = ["Anne Ménard", "Bruno Lœwy", "Claire Dupré", "David Saïd", "Ève Gaël"]
    seats = ["N", "E", "S", "O", "5"]
    players = tuple(SheetPlayer(s, n, "", "") for s, n in zip(seats, names, strict=True))
    deals = (
        # Garde, 2 oudlers, 51 points: wins by 10, M = 70; North calls South.
        SheetDeal(
            number=1,
            kind="played",
            dealer=names[4],
            taker=names[0],
            partner=names[2],
            contract="garde",
            oudlers=2,
            points=Decimal("51"),
            scores=(140, -70, 70, -70, -70),
        ),
        # Petite alone, 1 oudler, 40.5 points: fails by 11 (half point to the defence), M = 36.
        SheetDeal(
            number=2,
            kind="played",
            dealer=names[0],
            taker=names[1],
            contract="petite",
            oudlers=1,
            points=Decimal("40.5"),
            slam_announced=False,
            scores=(36, -144, 36, 36, 36),
        ),
    )
    return SheetData(
        tournament=TOURNAMENT,
        tournament_date=DAY,
        place=PLACE,
        round_number=1,
        table_number=13,
        rule_set="Partie à 5 (roi appelé, club)",
        players=players,
        deals=deals,
        status="open",
    )


FIVE_CALLED_TOTALS = (176, -214, 106, -34, -34)


def table_of_three() -> SheetData:
    names = ["Hélène Brûlé", "Ignace Šimek", "Jérôme Ñúñez"]
    players = tuple(SheetPlayer(s, n, "", "") for s, n in zip("NES", names, strict=True))
    deals = (
        # Garde, 2 oudlers, 46: wins by 5, M = 60, taker 2M.
        SheetDeal(
            number=1,
            kind="played",
            dealer=names[2],
            taker=names[0],
            contract="garde",
            oudlers=2,
            points=Decimal("46"),
            scores=(120, -60, -60),
        ),
        # Petite, 3 oudlers, 36.5: wins by 1 (the half point goes to the winner), M = 26.
        SheetDeal(
            number=2,
            kind="played",
            dealer=names[0],
            taker=names[1],
            contract="petite",
            oudlers=3,
            points=Decimal("36.5"),
            scores=(-26, 52, -26),
        ),
    )
    return SheetData(
        tournament=TOURNAMENT,
        tournament_date=DAY,
        place=PLACE,
        round_number=3,
        table_number=20,
        rule_set="FFT — table de 3",
        players=players,
        deals=deals,
        status="complete",
    )


THREE_TOTALS = (94, -8, -86)


def blank_sheet() -> SheetData:
    base = table_of_four()
    return SheetData(
        tournament=base.tournament,
        tournament_date=base.tournament_date,
        place=base.place,
        round_number=3,
        table_number=4,
        rule_set=base.rule_set,
        players=base.players,
        deals_expected=5,
        referee=REFEREE,
        blank=True,
    )


def paper_sheet() -> SheetData:
    base = table_of_four()
    return replace(
        base,
        deals=(),
        penalties=(),
        amendments=(),
        status="signed",
        paper_totals=(120, -40, -30, -50),
    )


def unbalanced_sheet() -> SheetData:
    """A sheet whose totals do not sum to zero (a typing error the check must show)."""
    base = table_of_three()
    deal = replace(base.deals[0], scores=(120, -60, -50))
    return replace(base, deals=(deal, base.deals[1]))


def seating_plan() -> SeatingPlan:
    four = table_of_four()
    three = table_of_three()
    return SeatingPlan(
        tournament=TOURNAMENT,
        tournament_date=DAY,
        round_number=2,
        tables=(
            SeatingTable(7, four.players, "https://tarot.example.org/t/abcdef0123456789/saisie/"),
            SeatingTable(
                8,
                table_of_five_dead_seat().players,
                "https://tarot.example.org/t/9876543210fedcba/saisie/",
            ),
            SeatingTable(9, three.players, ""),
        ),
    )


@pytest.fixture
def four() -> SheetData:
    return table_of_four()


@pytest.fixture
def five_dead() -> SheetData:
    return table_of_five_dead_seat()


@pytest.fixture
def five_called() -> SheetData:
    return table_of_five_called()


@pytest.fixture
def three() -> SheetData:
    return table_of_three()


@pytest.fixture
def blank() -> SheetData:
    return blank_sheet()


@pytest.fixture
def paper() -> SheetData:
    return paper_sheet()


@pytest.fixture
def unbalanced() -> SheetData:
    return unbalanced_sheet()


@pytest.fixture
def plan() -> SeatingPlan:
    return seating_plan()


@pytest.fixture
def all_sheets() -> list[SheetData]:
    return [
        table_of_four(),
        table_of_five_dead_seat(),
        table_of_five_called(),
        table_of_three(),
        blank_sheet(),
        paper_sheet(),
        unbalanced_sheet(),
    ]

"""Excel workbooks, reloaded with openpyxl: numbers are numbers, totals are formulas whose values
equal the app's numbers, user text is never a formula, and the sheets print on A4."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal

import pytest
from openpyxl import load_workbook
from openpyxl.utils import column_index_from_string, get_column_letter

from scoring.documents.data import SheetPlayer
from scoring.documents.xlsx import (
    SheetLayout,
    evaluate_cell,
    safe_cell_text,
    score_sheets_workbook,
    sheet_title,
)

from .conftest import (
    EAST,
    FIVE_CALLED_TOTALS,
    FIVE_DEAD_TOTALS,
    FOUR_RUNNING,
    FOUR_TOTALS,
    NORTH,
    SOUTH,
    THREE_TOTALS,
    WEST,
)

# Every formula the module writes has one of these shapes; anything else would be a user string
# that became a formula.
ALLOWED_FORMULA = re.compile(
    r"^=(SUM\([A-Z]+\$?\d+:[A-Z]+\d+\)"
    r"|[A-Z]+\d+\+SUM\([A-Z]+\d+:[A-Z]+\d+\)"
    r'|IF\([A-Z]+\d+=0,"∑ = 0 ✓","ERREUR : la somme des bilans n\'est pas nulle"\))$'
)


def workbook(sheets, ranking=None):
    raw = score_sheets_workbook(sheets, ranking)
    assert raw[:2] == b"PK"
    return load_workbook(io.BytesIO(raw))


def col(index: int) -> str:
    return get_column_letter(index)


def test_one_worksheet_per_sheet_named_round_table(all_sheets):
    wb = workbook(iter(all_sheets), (["Rang", "Joueur"], [[1, "A"]]))
    assert wb.sheetnames[0] == "Classement"
    assert wb.sheetnames[1:] == [
        "R2 T7",
        "R1 T12",
        "R1 T13",
        "R3 T20",
        "R3 T4",
        "R2 T7 (2)",  # the paper copy of the same table: names stay unique
        "R3 T20 (2)",
    ]
    assert sheet_title(all_sheets[0]) == "R2 T7"


def test_header_players_and_verification(four):
    ws = workbook([four])["R2 T7"]
    values = {cell.value for row in ws.iter_rows() for cell in row if cell.value is not None}
    for expected in (
        four.tournament,
        four.place,
        four.rule_set,
        four.fingerprint,
        four.verification_code,
        four.verification_url,
        "Modifiée après signature",
        NORTH,
        EAST,
        SOUTH,
        WEST,
        "Tarot Club d'Évry",
        "Les « As » du 18",
    ):
        assert expected in values, expected
    assert ws["C3"].value == datetime(2025, 5, 17)  # a real date, shown DD/MM/YYYY
    assert ws["C3"].number_format == "DD/MM/YYYY"
    assert ws["C5"].value == 2 and ws["C6"].value == 7


def test_deal_rows_hold_numbers(four):
    ws = workbook([four])["R2 T7"]
    lay = SheetLayout(four)
    for k, deal in enumerate(four.deals):
        row = lay.first_deal + k
        assert ws.cell(row, 1).value == deal.number and ws.cell(row, 1).data_type == "n"
        if deal.kind == "passed":
            assert all(ws.cell(row, c).value is None for c in lay.score_cols)
            continue
        assert ws.cell(row, 8).value == deal.oudlers
        assert ws.cell(row, 9).value == int(deal.points) and ws.cell(row, 9).data_type == "n"
        for c, score in zip(lay.score_cols, deal.scores, strict=True):
            cell = ws.cell(row, c)
            assert cell.value == score and cell.data_type == "n"
    referee_row = lay.first_deal + 3
    assert ws.cell(referee_row, 2).value == "arbitre"
    assert ws.cell(referee_row, 13).value.startswith("Carte retournée")
    assert ws.cell(lay.first_deal, 10).value == f"simple : {EAST}"


def test_half_points_stay_numbers(five_called):
    ws = workbook([five_called])["R1 T13"]
    cell = ws.cell(SheetLayout(five_called).first_deal + 1, 9)
    assert cell.data_type == "n" and Decimal(str(cell.value)) == Decimal("40.5")


def _check_totals(ws, data, totals):
    lay = SheetLayout(data)
    # Running totals: formulas, equal to the app's running totals.
    for k, expected in enumerate(data.running_totals()):
        row = lay.first_deal + k
        for c, value in zip(lay.cumul_cols, expected, strict=True):
            cell = ws.cell(row, c)
            assert cell.data_type == "f"
            assert cell.value == f"=SUM({col(c - lay.n)}${lay.first_deal}:{col(c - lay.n)}{row})"
            assert evaluate_cell(ws, cell.coordinate) == value
    # Round totals (bilan): a SUM over exactly the deal rows, equal to the app's totals.
    for c, value in zip(lay.score_cols, totals, strict=True):
        cell = ws.cell(lay.bilan, c)
        assert cell.value == f"=SUM({col(c)}{lay.first_deal}:{col(c)}{lay.last_deal})"
        assert evaluate_cell(ws, cell.coordinate) == value
    assert tuple(data.round_totals()) == tuple(totals)
    # Zero-sum check: a SUM of the bilans showing 0, and an IF() text check.
    first, last = col(lay.score_cols[0]), col(lay.score_cols[-1])
    check = ws.cell(lay.check, lay.score_cols[0])
    assert check.value == f"=SUM({first}{lay.bilan}:{last}{lay.bilan})"
    assert evaluate_cell(ws, check.coordinate) == sum(totals)
    return evaluate_cell(ws, ws.cell(lay.check, lay.score_cols[0] + 1).coordinate)


def test_formulas_recompute_the_app_numbers(four):
    ws = workbook([four])["R2 T7"]
    assert [list(r) for r in four.running_totals()] == [list(r) for r in FOUR_RUNNING]
    assert _check_totals(ws, four, FOUR_TOTALS) == "∑ = 0 ✓"


@pytest.mark.parametrize(
    ("fixture", "title", "totals"),
    [
        ("five_dead", "R1 T12", FIVE_DEAD_TOTALS),
        ("five_called", "R1 T13", FIVE_CALLED_TOTALS),
        ("three", "R3 T20", THREE_TOTALS),
    ],
)
def test_formulas_at_other_table_sizes(request, fixture, title, totals):
    data = request.getfixturevalue(fixture)
    ws = workbook([data])[title]
    assert _check_totals(ws, data, totals) == "∑ = 0 ✓"


def test_unbalanced_sheet_check_says_error(unbalanced):
    ws = workbook([unbalanced])["R3 T20"]
    text = _check_totals(ws, unbalanced, unbalanced.round_totals())
    assert text == "ERREUR : la somme des bilans n'est pas nulle"


def test_penalties_are_outside_the_zero_sum(four):
    ws = workbook([four])["R2 T7"]
    lay = SheetLayout(four)
    row = lay.first_penalty
    assert ws.cell(row, 1).value == "Pénalité"
    assert ws.cell(row, 3).value == SOUTH and ws.cell(row, 3).data_type == "s"
    assert ws.cell(row, 5).value == "Retard à la table"
    south = lay.score_cols[2]
    assert ws.cell(row, south).value == -20 and ws.cell(row, south).data_type == "n"
    # The check only covers the bilan row, above the penalties.
    assert lay.check < lay.first_penalty
    with_penalties = [
        evaluate_cell(ws, ws.cell(lay.with_penalties, c).coordinate) for c in lay.score_cols
    ]
    expected = [t + p for t, p in zip(FOUR_TOTALS, four.penalty_totals(), strict=True)]
    assert with_penalties == expected == [273, 233, -211, -315]


def test_paper_totals_are_numbers(paper):
    ws = workbook([paper])["R2 T7"]
    lay = SheetLayout(paper)
    assert lay.last_deal < lay.first_deal  # no deal line
    bilan = [ws.cell(lay.bilan, c) for c in lay.score_cols]
    assert [c.value for c in bilan] == [120, -40, -30, -50]
    assert all(c.data_type == "n" for c in bilan)
    assert evaluate_cell(ws, ws.cell(lay.check, lay.score_cols[0] + 1).coordinate) == "∑ = 0 ✓"


def test_blank_sheet_has_numbered_empty_lines(blank):
    ws = workbook([blank])["R3 T4"]
    lay = SheetLayout(blank)
    assert [ws.cell(lay.first_deal + k, 1).value for k in range(5)] == [1, 2, 3, 4, 5]
    for row in range(lay.first_deal, lay.bilan + 1):
        for c in lay.score_cols + lay.cumul_cols:
            assert ws.cell(row, c).value is None
    assert not any(cell.data_type == "f" for row in ws.iter_rows() for cell in row)


INJECTIONS = [
    "=1+1",
    "@SUM(A1)",
    "+cmd|' /C calc'!A0",
    "-2+3",
    '=HYPERLINK("http://x","y")',
    "\t=1",
]


def test_user_strings_are_never_formulas(four):
    players = tuple(
        replace(p, name=INJECTIONS[i], club=INJECTIONS[i + 2], licence=INJECTIONS[5 - i])
        for i, p in enumerate(four.players)
    )
    deals = tuple(
        replace(d, dealer=players[0].name, taker=players[1].name, note="=cmd()") for d in four.deals
    )
    sheet = replace(
        four,
        players=players,
        deals=deals,
        tournament="=WEBSERVICE(1)",
        place="+33",
        rule_set="@rules",
        referee="-arbitre",
        penalties=(replace(four.penalties[0], player=players[2].name, reason="=2*3"),),
    )
    ranking = (["=Rang", "Joueur"], [[1, "=1+1"], [2, "@x"]])
    wb = workbook([sheet], ranking)
    user = set(INJECTIONS) | {"=WEBSERVICE(1)", "+33", "@rules", "-arbitre", "=2*3", "=cmd()"}
    user |= {"=Rang", "@x"}
    found = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    assert ALLOWED_FORMULA.match(cell.value), (
                        ws.title,
                        cell.coordinate,
                        cell.value,
                    )
                elif isinstance(cell.value, str) and cell.value in user:
                    assert cell.data_type == "s"
                    found.add(cell.value)
    assert found == user


def test_print_settings(four):
    wb = workbook([four], (["Rang", "Joueur", "Total"], [[1, NORTH, 273]]))
    ws = wb["R2 T7"]
    lay = SheetLayout(four)
    assert int(ws.page_setup.paperSize) == 9  # A4
    assert ws.page_setup.orientation == "landscape"
    assert ws.sheet_properties.pageSetUpPr.fitToPage is True
    assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
    assert ws.print_title_rows == f"${lay.deal_header}:${lay.deal_header}"
    assert ws.print_area == f"'R2 T7'!$A$1:${col(lay.last_col)}${ws.max_row}"
    assert four.fingerprint in ws.oddFooter.left.text
    assert four.verification_code in ws.oddFooter.center.text
    assert "&P" in ws.oddFooter.right.text
    # "&" is a code in Excel headers: the tournament's "&" would be doubled (none here).
    assert "Position 2 — Table 7" in ws.oddHeader.right.text
    ranking = wb["Classement"]
    assert int(ranking.page_setup.paperSize) == 9
    assert ranking.print_title_rows == "$1:$1"


def test_header_footer_escape_ampersand(four):
    ws = workbook([replace(four, tournament="Dupont & Cie")])["R2 T7"]
    assert "Dupont && Cie" in ws.oddHeader.left.text


def test_ranking_sheet_types():
    headers = ["Rang", "Joueur", "Club", "Total", "Moyenne", "Date", "Présent"]
    rows = [
        [1, NORTH, "Tarot Club d'Évry", 273, Decimal("68.25"), date(2025, 5, 17), True],
        [2, "=1+1", None, -20, 1.5, datetime(2025, 5, 17, 18, 0), False],
    ]
    ws = workbook([], (headers, rows))["Classement"]
    assert [c.value for c in ws[1]] == headers
    assert ws["A2"].data_type == "n" and ws["D2"].value == 273 and ws["D3"].value == -20
    assert float(ws["E2"].value) == 68.25
    assert ws["B3"].value == "=1+1" and ws["B3"].data_type == "s"
    assert ws["C3"].value in (None, "")
    assert ws["F2"].value == datetime(2025, 5, 17)
    assert ws["G2"].value == "oui" and ws["G3"].value == "non"
    assert ws.freeze_panes == "A2"


def test_empty_workbook_is_valid():
    wb = workbook([])
    assert wb.sheetnames == ["Feuilles"]


def test_many_sheets_from_a_generator(four):
    sheets = (replace(four, round_number=r, table_number=t) for r in (1, 2) for t in range(1, 11))
    wb = workbook(sheets)
    assert len(wb.sheetnames) == 20
    assert wb.sheetnames[-1] == "R2 T10"


def test_safe_cell_text():
    for text in [*INJECTIONS, "\rx", "@"]:
        assert safe_cell_text(text) == "'" + text
    assert safe_cell_text("Dupont") == "Dupont"
    assert safe_cell_text("Élodie = joueuse") == "Élodie = joueuse"
    assert safe_cell_text(-20) == "-20"  # a number is not text
    assert safe_cell_text(Decimal("40.5")) == "40.5"
    assert safe_cell_text(None) == ""
    assert safe_cell_text(True) == "oui"


def test_evaluator_refuses_what_it_cannot_compute(four):
    wb = workbook([four])
    ws = wb["R2 T7"]
    ws["Z1"] = "=AVERAGE(N20:N21)"
    with pytest.raises(ValueError, match="not supported"):
        evaluate_cell(ws, "Z1")
    ws["Z2"] = "=Z3"
    ws["Z3"] = "=Z2"
    with pytest.raises(ValueError, match="circular"):
        evaluate_cell(ws, "Z2")
    ws["Z4"] = "=-(1+2)-SUM(3,4)+N20"
    assert evaluate_cell(ws, "Z4") == -3 - 7 + four.deals[0].scores[0]
    assert column_index_from_string("N") == SheetLayout(four).score_cols[0]


def test_table_of_three_player_columns(three):
    lay = SheetLayout(three)
    ws = workbook([three])["R3 T20"]
    heads = [ws.cell(lay.deal_header, c).value for c in lay.score_cols]
    assert heads == [f"{p.seat} — {p.name}" for p in three.players]
    assert isinstance(three.players[0], SheetPlayer)

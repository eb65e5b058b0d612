"""Excel workbooks, reloaded with openpyxl: numbers are numbers, totals are formulas whose values
equal the app's numbers, user text is never a formula, and the sheets print on A4."""

from __future__ import annotations

import io
import re
import tracemalloc
import zipfile
from copy import copy
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from xml.etree import ElementTree

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.utils import column_index_from_string, get_column_letter

from scoring.documents import xlsx
from scoring.documents.data import SheetPlayer
from scoring.documents.formulas import evaluate_cell
from scoring.documents.xlsx import (
    SheetLayout,
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
    assert wb.sheetnames[0] == "Classement provisoire"
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
    ranking = wb["Classement provisoire"]
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
    ws = workbook([], (headers, rows))["Classement provisoire"]
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


# --- the XML writer against openpyxl ---------------------------------------------------------
#
# The module writes each worksheet's XML itself (openpyxl's cell-by-cell writer took ~35 s for a
# tournament). The reference below lays out the same sheets through openpyxl's own worksheet
# (what the module did before) and saves it with openpyxl: both files must have the same worksheet
# and workbook XML (canonical form) and, read back, the same cells, styles and page settings.

_PARTS = {"L": "left", "C": "center", "R": "right"}


class OpenpyxlSheet(xlsx._Sheet):
    """The layout written cell by cell into an openpyxl worksheet."""

    def __init__(self, ws):
        super().__init__(ws.title, xlsx._Styles())
        self.ws = ws

    def _cell(self, row, col, font, fill, align, border, fmt):
        cell = self.ws.cell(row=row, column=col)
        for name, style in (("font", font), ("fill", fill), ("alignment", align)):
            if style is not None:
                setattr(cell, name, style)
        if border is not None:
            cell.border = border
        if fmt is not None:
            cell.number_format = fmt
        return cell

    def text(self, row, col, value, font, fill, align, border):
        cell = self._cell(row, col, font, fill, align, border, None)
        cell.value = value
        cell.data_type = "s"

    def number(self, row, col, value, font, fill, align, border, fmt):
        self.ws.cell(row=row, column=col, value=value)
        self._cell(row, col, font, fill, align, border, fmt)

    def formula(self, row, col, formula, font, fill, align, border, fmt):
        self._cell(row, col, font, fill, align, border, fmt).value = formula

    def blank(self, row, col, font, fill, align, border):
        self._cell(row, col, font, fill, align, border, None)

    def apply_settings(self):
        ws = self.ws
        for c, width in self.col_widths.items():
            ws.column_dimensions[col(c)].width = width
        for row, height in self.row_heights.items():
            ws.row_dimensions[row].height = height
        if self.freeze_rows:
            ws.freeze_panes = f"A{self.freeze_rows + 1}"
        if self.print_title_row is not None:
            ws.print_title_rows = f"{self.print_title_row}:{self.print_title_row}"
        if self.print_area is not None:
            ws.print_area = self.print_area
        if self.landscape is not None:
            ws.page_setup.paperSize = ws.PAPERSIZE_A4
            ws.page_setup.orientation = "landscape" if self.landscape else "portrait"
            ws.page_setup.fitToWidth = 1
            ws.page_setup.fitToHeight = 0
            ws.sheet_properties.pageSetUpPr.fitToPage = True
            ws.page_margins.left = ws.page_margins.right = 0.4
            ws.page_margins.top = ws.page_margins.bottom = 0.6
            ws.page_margins.header = ws.page_margins.footer = 0.25
            ws.print_options.horizontalCentered = True
        for item, parts in ((ws.oddHeader, self.header), (ws.oddFooter, self.footer)):
            for code, text in parts:
                getattr(item, _PARTS[code]).text = text


def reference_workbook(sheets, ranking=None):
    wb = Workbook()
    wb.remove(wb.active)
    taken: set[str] = set()
    layouts = []
    if ranking is not None:
        ref = OpenpyxlSheet(wb.create_sheet(xlsx._unique_title("Classement provisoire", taken)))
        layouts.append((ref, lambda ref=ref: xlsx._ranking_sheet(ref, *ranking)))
    for data in sheets:
        ref = OpenpyxlSheet(wb.create_sheet(xlsx._unique_title(sheet_title(data), taken)))
        layouts.append((ref, lambda ref=ref, data=data: xlsx._score_sheet(ref, data)))
    if not layouts:
        ref = OpenpyxlSheet(wb.create_sheet("Feuilles"))
        layouts.append((ref, lambda ref=ref: xlsx._text(ref, 1, 1, "Aucune feuille de marque.")))
    for ref, lay_out in layouts:
        lay_out()
        ref.apply_settings()
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _cells(ws):
    return {
        cell.coordinate: (
            cell.value,
            cell.data_type,
            copy(cell.font),  # the style itself: two proxies never compare equal
            copy(cell.fill),
            copy(cell.border),
            copy(cell.alignment),
            cell.number_format,
            copy(cell.protection),
        )
        for row in ws.iter_rows()
        for cell in row
        if cell.value is not None or cell.has_style
    }


def _settings(ws):
    return {
        "dimensions": ws.dimensions,
        "widths": {k: (d.width, d.customWidth) for k, d in ws.column_dimensions.items()},
        "heights": {k: (d.ht, d.customHeight) for k, d in ws.row_dimensions.items()},
        "freeze": ws.freeze_panes,
        "print_titles": ws.print_title_rows,
        "print_area": ws.print_area,
        "page_setup": dict(ws.page_setup),
        "fit_to_page": ws.sheet_properties.pageSetUpPr.fitToPage,
        "margins": dict(ws.page_margins),
        "print_options": dict(ws.print_options),
        "header": str(ws.oddHeader),
        "footer": str(ws.oddFooter),
    }


def _xml_parts(raw):
    """The worksheets and the workbook part, canonical (C14N), without the cells' style indexes
    (their numbering may differ; the styles themselves are compared cell by cell)."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        return {
            name: re.sub(
                r'(<c r="[A-Z]+\d+") s="\d+"',
                r"\1",
                ElementTree.canonicalize(archive.read(name).decode()),
            )
            for name in archive.namelist()
            if name.startswith("xl/worksheets/") or name == "xl/workbook.xml"
        }


def _assert_same_workbook(sheets, ranking=None):
    raw = score_sheets_workbook(iter(sheets), ranking)
    reference_raw = reference_workbook(sheets, ranking)
    # The XML itself: what openpyxl cannot show once read back (xml:space, customHeight…).
    fast_parts, reference_parts = _xml_parts(raw), _xml_parts(reference_raw)
    assert fast_parts.keys() == reference_parts.keys()
    for name, xml in fast_parts.items():
        assert xml == reference_parts[name], name
    # What a reader sees: values, types, styles, page settings.
    fast, reference = load_workbook(io.BytesIO(raw)), load_workbook(io.BytesIO(reference_raw))
    assert fast.sheetnames == reference.sheetnames
    for ws, ref in zip(fast.worksheets, reference.worksheets, strict=True):
        assert _cells(ws) == _cells(ref), ws.title
        assert _settings(ws) == _settings(ref), ws.title


def _awkward(data):
    """A sheet whose strings test the XML writer: spaces at the ends, line breaks, tabs, control
    characters, markup, quotes, "&" codes of page headers, error-looking text."""
    names = [" lead", "trail ", "a\nb\r\nc\td", "#N/A", "<b>&amp;</b>"][: len(data.players)]
    players = tuple(replace(p, name=n) for p, n in zip(data.players, names, strict=True))
    deals = tuple(
        replace(d, dealer=players[0].name, taker="#DIV/0!", note="x\x01y\x0bz  ")
        for d in data.deals
    )
    return replace(
        data,
        players=players,
        deals=deals,
        tournament="A & B &[Page] <x> \"q\" 'a'",
        place="   ",
        rule_set="",
        referee="",
        fingerprint="",
        verification_code="",
        verification_url="",
        signatures=(),
        penalties=tuple(replace(p, player=players[0].name) for p in data.penalties),
    )


RANKING = (
    ["Rang", "Joueur", "Club", "Total", "Moyenne", "Date", "Présent", "=Note"],
    [
        [1, NORTH, "Tarot Club d'Évry", 273, Decimal("68.25"), date(2025, 5, 17), True, " x "],
        [2, "=1+1", None, -20, 1.5, datetime(2025, 5, 17, 18, 0), False, "#N/A"],
        [3, EAST, "", 10**17, 0.1 + 0.2, datetime(2025, 5, 17, 16, 0, tzinfo=UTC), "", 2.5e-12],
    ],
)


def test_xml_writer_matches_openpyxl(all_sheets, four, five_called):
    sheets = [*all_sheets, _awkward(four), _awkward(five_called)]
    _assert_same_workbook(sheets, RANKING)


def test_xml_writer_matches_openpyxl_without_ranking_or_sheets(blank):
    _assert_same_workbook([blank])
    _assert_same_workbook([])


def test_styles_and_layout_read_back(four):
    ws = workbook([four])["R2 T7"]
    lay = SheetLayout(four)
    title = ws["A1"]
    assert title.font.b and title.font.sz == 14
    head = ws.cell(lay.deal_header, 1)
    assert head.font.b and head.fill.fgColor.rgb == "00E4E8EE"
    assert head.alignment.horizontal == "center" and head.alignment.wrap_text
    assert head.border.top.style == "thin" and head.border.top.color.rgb == "009A9A9A"
    assert ws.row_dimensions[lay.deal_header].height == 32
    score = ws.cell(lay.first_deal, lay.score_cols[0])
    assert score.number_format == "+0;-0;0" and score.font.b
    cumul = ws.cell(lay.first_deal, lay.cumul_cols[0])
    assert cumul.number_format == "0" and cumul.fill.fgColor.rgb == "00F3F4F6"
    bilan = ws.cell(lay.bilan, lay.score_cols[0])
    assert bilan.border.top.style == "medium" and bilan.font.sz == 12
    empty_total = ws.cell(lay.bilan, 2)  # styled, no value
    assert empty_total.value is None and empty_total.fill.fgColor.rgb == "00DDE3EA"
    signed = next(c for c in ws["I"] if isinstance(c.value, datetime))
    assert signed.number_format == "DD/MM/YYYY HH:MM"
    assert signed.value == datetime(2025, 5, 17, 17, 2, 12)  # 15:02:12 UTC, in Paris
    # The referee's reason (61 characters) widens its column to the widest, then wraps.
    assert ws.column_dimensions["A"].width == 6 and ws.column_dimensions["M"].width == 40
    assert ws.column_dimensions[col(lay.cumul_cols[-1])].width == 13
    assert ws["C2"].font.b is False and not ws["C2"].has_style  # plain user text


def test_memory_grows_with_the_file_only(four):
    """Worksheets are written to the archive as they are laid out: memory holds the compressed
    file and one sheet, not every sheet's cells (~100 KB a sheet when built with openpyxl)."""
    if tracemalloc.is_tracing():
        pytest.skip("tracemalloc already in use")

    def peak(count):
        sheets = (replace(four, round_number=1, table_number=t) for t in range(1, count + 1))
        tracemalloc.start()
        try:
            raw = score_sheets_workbook(sheets)
            return tracemalloc.get_traced_memory()[1], len(raw)
        finally:
            tracemalloc.stop()

    peak(2)  # imports, caches
    small, _size = peak(10)
    large, size = peak(70)
    assert large - small < 60 * 20_000, (small, large, size)


def test_each_player_s_deals_played_follow_the_totals(five_dead, blank):
    ws = workbook([five_dead]).worksheets[0]
    rows = [list(row) for row in ws.iter_rows(values_only=True)]
    played = next(row for row in rows if row[0] == "Donnes jouées")
    assert [v for v in played[1:] if v is not None] == [1, 1, 2, 2, 2]
    ws = workbook([blank]).worksheets[0]
    assert all(row[0] != "Donnes jouées" for row in ws.iter_rows(values_only=True))


def test_every_deal_value_shows_whole_in_its_column():
    # « Attaque, annoncé » in a 14-character column, a 38-character name in a 20-character one:
    # Excel cut them where the next cell held something. Each text column is now as wide as its
    # longest value, and a value wider than the widest column wraps inside its cell.
    from .every_deal import every_deal_sheets

    sheets = every_deal_sheets()
    book = workbook(sheets)
    checked = 0
    for ws, data in zip(book.worksheets, sheets, strict=False):
        layout = SheetLayout(data)
        for row in range(layout.first_deal, layout.last_deal + 1):
            for column in range(2, xlsx.FIRST_SCORE_COL):
                value = ws.cell(row, column).value
                if not isinstance(value, str) or not value:
                    continue
                width = ws.column_dimensions[col(column)].width
                wraps = ws.cell(row, column).alignment.wrap_text
                assert len(value) + 1 <= width or wraps, (ws.title, row, column, value, width)
                checked += 1
    assert checked > 100
    values = {c.value for ws in book.worksheets for r in ws.iter_rows() for c in r}
    assert {"Attaque, annoncé", "Annoncé, chuté", "Garde contre"} <= values

"""Excel workbooks: the score sheets, laid out like the paper sheet, and a ranking.

- Scores, points and oudlers are numbers; running totals, round totals (bilans), the total with
  penalties and the zero-sum check are real Excel formulas, so the workbook recomputes itself.
  No cached value is stored with a formula: :func:`evaluate_cell` recomputes the formula forms
  written here (cell references, ranges, ``SUM``, ``+``/``-``, ``IF(…=…)``) on a workbook read
  back with openpyxl, so tests, and anyone who doubts a file, can check them against the app's
  numbers.
- Every user string (names, clubs, reasons, the tournament…) is written as an inline string
  (``t="inlineStr"``, read back with ``data_type == "s"``): a player called ``=1+1`` or
  ``@SUM(A1)`` stays text. :func:`safe_cell_text` is the CSV counterpart (prefix with ``'``).
- Streaming: each worksheet's XML is written straight into the zip archive as soon as its score
  sheet is laid out (one sheet in memory at a time), then the shared parts (styles, workbook,
  relationships). The XML is the SpreadsheetML that openpyxl writes for the same cells; openpyxl
  still provides the styles part (fonts, fills, borders, formats), the theme and the document
  properties. For a 2,000-sheet tournament, building openpyxl cells and serialising them one by
  one took 23–35 s and ~190 MB; this takes ~2.5 s and ~10 MB (``bench/documents.py``).

Plain Python: no Django import.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape as _xml_text
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.compat import safe_string
from openpyxl.packaging.extended import ExtendedProperties
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.stylesheet import write_stylesheet
from openpyxl.utils import absolute_coordinate, get_column_letter, quote_sheetname, range_boundaries
from openpyxl.utils.datetime import to_excel
from openpyxl.utils.escape import escape as _ooxml_escape
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.theme import theme_xml
from openpyxl.xml.functions import tostring

from .data import SheetData, SheetDeal
from .fingerprint import verification_code as _code_of

__all__ = [
    "CONTENT_TYPE",
    "evaluate_cell",
    "safe_cell_text",
    "score_sheets_workbook",
    "sheet_title",
]

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

_FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell_text(value: Any) -> str:
    """A value as CSV text that no spreadsheet will run as a formula.

    Text starting with ``= + - @``, a tab or a carriage return gets a leading ``'``. Numbers
    (including negative ones) are returned as they are, ``None`` as "". For xlsx, write the string
    as an inline string instead (as this module does).
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, int | float | Decimal):
        return str(value)
    text = str(value)
    if text.startswith(_FORMULA_TRIGGERS):
        return "'" + text
    return text


# --- styles (created once and shared: a cell refers to a registered combination) ---------------

_THIN = Side(style="thin", color="9A9A9A")
_THICK = Side(style="medium", color="1A1A1A")
BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
TOTAL_BORDER = Border(left=_THIN, right=_THIN, top=_THICK, bottom=_THIN)
TITLE = Font(bold=True, size=14)
BOLD = Font(bold=True)
BIG_BOLD = Font(bold=True, size=12)
GREY_TEXT = Font(color="6B6B6B")
ITALIC_GREY = Font(italic=True, color="6B6B6B")
RED_BOLD = Font(bold=True, color="B3261E")
GREEN_BOLD = Font(bold=True, color="1E7B34")
ORANGE_BOLD = Font(bold=True, color="B45309")
MONO = Font(name="Consolas", size=9)
HEAD_FILL = PatternFill("solid", fgColor="E4E8EE")
TOTAL_FILL = PatternFill("solid", fgColor="DDE3EA")
CUMUL_FILL = PatternFill("solid", fgColor="F3F4F6")
REFEREE_FILL = PatternFill("solid", fgColor="FFF4D6")
PASSED_FILL = PatternFill("solid", fgColor="F0F0F0")
PENALTY_FILL = PatternFill("solid", fgColor="FDE8E8")
AMEND_FILL = PatternFill("solid", fgColor="FFF7ED")
CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
WRAP = Alignment(vertical="center", wrap_text=True)
RIGHT = Alignment(horizontal="right", vertical="center")
LEFT = Alignment(horizontal="left", vertical="center")
SCORE_FORMAT = "+0;-0;0"
DATE_FORMAT = "DD/MM/YYYY"
DATETIME_FORMAT = "DD/MM/YYYY HH:MM"

from .labels import CAMPS, CONTRACTS, KINDS, METHODS, SEAT_NAMES, STATUSES  # noqa: E402

# Deal table: fixed input columns A..M, then one score column per player, then one running-total
# column per player.
INPUT_HEADERS = [
    ("N°", 6),
    ("Type", 9),
    ("Donneur", 20),
    ("Mort", 16),
    ("Preneur", 20),
    ("Partenaire", 18),
    ("Contrat", 13),
    ("Bouts", 7),
    ("Points", 8),
    ("Poignées", 24),
    ("Petit au bout", 12),
    ("Chelem", 14),
    ("Décision de l'arbitre", 30),
]
FIRST_SCORE_COL = len(INPUT_HEADERS) + 1  # N


# --- the writer: styles, worksheets as XML, the package -----------------------------------------


class _Styles:
    """The workbook's cell formats, kept by openpyxl (which writes the styles part).

    A combination of font, fill, alignment, border and number format gets a handle when first
    used (openpyxl registers its parts then, as when it is assigned to a cell); its cell-format
    index is taken when a cell using it is first written, in the order openpyxl's own writer
    would take it. The style objects are the module's constants: the key holds their ``id()``,
    and the registry keeps a reference to each so an id cannot be reused.
    """

    def __init__(self) -> None:
        self.book = Workbook()
        self._scratch = self.book.active
        self._handles: dict[tuple, int] = {}
        self._cells: list[Cell] = []
        self._xf: list[int | None] = []
        self._kept: list[tuple] = []

    def handle(self, font, fill, align, border, fmt) -> int:
        key = (id(font), id(fill), id(align), id(border), fmt)
        found = self._handles.get(key)
        if found is not None:
            return found
        cell = Cell(self._scratch)
        if font is not None:
            cell.font = font
        if fill is not None:
            cell.fill = fill
        if align is not None:
            cell.alignment = align
        if border is not None:
            cell.border = border
        if fmt is not None:
            cell.number_format = fmt
        self._kept.append((font, fill, align, border))
        self._cells.append(cell)
        self._xf.append(None)
        self._handles[key] = found = len(self._cells) - 1
        return found

    def xf(self, handle: int) -> int:
        """The cell-format index (0 is the default format, written without ``s``)."""
        index = self._xf[handle]
        if index is None:
            index = self._xf[handle] = self._cells[handle].style_id
        return index

    def xml(self) -> bytes:
        return tostring(write_stylesheet(self.book))


_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_HF_CODES = re.compile(r"&\[(?:Tab|Pages|Date|Path|Page|Time|File|Picture)\]")
_HF_CODE = {
    "&[Tab]": "&A",
    "&[Pages]": "&N",
    "&[Date]": "&D",
    "&[Path]": "&Z",
    "&[Page]": "&P",
    "&[Time]": "&T",
    "&[File]": "&F",
    "&[Picture]": "&G",
}


def _attr(value: str) -> str:
    """An XML attribute value (between double quotes)."""
    return _xml_text(value, {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#09;"})


def _g(value: float) -> str:
    """A number as openpyxl writes it ("%.16g")."""
    return f"{value:.16g}"


def _header_footer(parts: Sequence[tuple[str, str]]) -> str:
    """A page header or footer in Excel's mini-format: ``&L`` left, ``&C`` centre, ``&R`` right
    (the text of each part is already escaped with :func:`_header_text`)."""
    text = "".join(f"&{code}{part}" for code, part in parts)
    return _ooxml_escape(_HF_CODES.sub(lambda m: _HF_CODE[m.group(0)], text))


class _Sheet:
    """A worksheet being laid out: its cells by coordinate and its settings.

    :meth:`xml` writes it as SpreadsheetML. Cells are kept as their XML (less the coordinate and
    the style index), so a sheet of a few hundred cells costs a few hundred small strings.
    """

    def __init__(self, title: str, styles: _Styles):
        self.title = title
        self.styles = styles
        self.cells: dict[tuple[int, int], tuple[int, str]] = {}
        self.row_heights: dict[int, float] = {}
        self.col_widths: dict[int, float] = {}
        self.freeze_rows = 0  # rows kept at the top when scrolling
        self.landscape: bool | None = None  # None: no print setup (A4, fit to width…)
        self.print_title_row: int | None = None  # repeated at the top of every printed page
        self.print_area: str | None = None  # e.g. "A1:U33"
        self.header: list[tuple[str, str]] = []  # [("L", text), ("R", text)]
        self.footer: list[tuple[str, str]] = []

    # Cells. ``value`` of text is already cleaned (see :func:`_clean`).

    def text(self, row: int, col: int, value: str, font, fill, align, border) -> None:
        if value:
            stripped = value.strip()
            space = ' xml:space="preserve"' if stripped and stripped != value else ""
            body = f' t="inlineStr"><is><t{space}>{_xml_text(value)}</t></is></c>'
        else:
            body = ' t="inlineStr" />'
        self.cells[row, col] = (self.styles.handle(font, fill, align, border, None), body)

    def number(self, row: int, col: int, value, font, fill, align, border, fmt) -> None:
        """An int, float or Decimal, or a naive date or datetime (an Excel serial number)."""
        if isinstance(value, date):
            if getattr(value, "tzinfo", None) is not None:
                raise TypeError("Excel does not support timezones in datetimes.")
            value = to_excel(value)
        shown = safe_string(value)
        body = f' t="n"><v>{shown}</v></c>' if shown else ' t="n"><v /></c>'
        self.cells[row, col] = (self.styles.handle(font, fill, align, border, fmt), body)

    def formula(self, row: int, col: int, formula: str, font, fill, align, border, fmt) -> None:
        body = f"><f>{_xml_text(formula[1:])}</f><v /></c>"
        self.cells[row, col] = (self.styles.handle(font, fill, align, border, fmt), body)

    def blank(self, row: int, col: int, font, fill, align, border) -> None:
        """An empty cell that shows a style (a border, a fill)."""
        self.cells[row, col] = (self.styles.handle(font, fill, align, border, None), ' t="n" />')

    # Output.

    def defined_names(self) -> list[tuple[str, str]]:
        quoted = quote_sheetname(self.title)
        names = []
        if self.print_title_row is not None:
            row = self.print_title_row
            names.append(("_xlnm.Print_Titles", f"{quoted}!${row}:${row}"))
        if self.print_area is not None:
            names.append(("_xlnm.Print_Area", f"{quoted}!{absolute_coordinate(self.print_area)}"))
        return names

    def xml(self) -> str:
        xf = self.styles.xf
        rows: dict[int, list] = {}
        for (row, col), cell in self.cells.items():
            rows.setdefault(row, []).append((col, cell))
        for row in self.row_heights:
            rows.setdefault(row, [])
        dimension = "A1:A1"  # the range of the cells (not of rows that only have a height)
        if self.cells:
            used_rows = {row for row, _col in self.cells}
            used_cols = {col for _row, col in self.cells}
            first = f"{get_column_letter(min(used_cols))}{min(used_rows)}"
            dimension = f"{first}:{get_column_letter(max(used_cols))}{max(used_rows)}"
        fit = ' fitToPage="1"' if self.landscape is not None else ""
        out = [
            f'<worksheet xmlns="{_NS}"><sheetPr><outlinePr summaryBelow="1" summaryRight="1" />'
            f'<pageSetUpPr{fit} /></sheetPr><dimension ref="{dimension}" />'
            '<sheetViews><sheetView workbookViewId="0">'
        ]
        if self.freeze_rows:
            n = self.freeze_rows
            out.append(
                f'<pane ySplit="{n}" topLeftCell="A{n + 1}" activePane="bottomLeft" '
                'state="frozen" /><selection pane="bottomLeft" activeCell="A1" sqref="A1" />'
            )
        else:
            out.append('<selection activeCell="A1" sqref="A1" />')
        out.append(
            '</sheetView></sheetViews><sheetFormatPr baseColWidth="8" defaultRowHeight="15" />'
        )
        if self.col_widths:
            out.append("<cols>")
            for col in sorted(self.col_widths):
                width = _g(self.col_widths[col])
                out.append(f'<col width="{width}" customWidth="1" min="{col}" max="{col}" />')
            out.append("</cols>")
        out.append("<sheetData>")
        heights = self.row_heights
        for row in sorted(rows):
            height = heights.get(row)
            if height is None:
                out.append(f'<row r="{row}">')
            else:
                out.append(f'<row r="{row}" ht="{_g(height)}" customHeight="1">')
            for col, (handle, body) in sorted(rows[row]):
                index = xf(handle)
                letter = get_column_letter(col)
                if index:
                    out.append(f'<c r="{letter}{row}" s="{index}"{body}')
                else:
                    out.append(f'<c r="{letter}{row}"{body}')
            out.append("</row>")
        out.append("</sheetData>")
        if self.landscape is None:
            out.append(
                '<pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" '
                'footer="0.5" />'
            )
        else:
            orientation = "landscape" if self.landscape else "portrait"
            out.append(
                '<printOptions horizontalCentered="1" /><pageMargins left="0.4" right="0.4" '
                'top="0.6" bottom="0.6" header="0.25" footer="0.25" />'
                f'<pageSetup orientation="{orientation}" paperSize="9" fitToHeight="0" '
                'fitToWidth="1" />'
            )
        if self.header or self.footer:
            header = _xml_text(_header_footer(self.header))
            footer = _xml_text(_header_footer(self.footer))
            out.append(
                f"<headerFooter><oddHeader>{header}</oddHeader><oddFooter>{footer}</oddFooter>"
                "<evenHeader /><evenFooter /><firstHeader /><firstFooter /></headerFooter>"
            )
        out.append("</worksheet>")
        return "".join(out)


class _Package:
    """The xlsx zip archive, written as it goes: worksheets first, the shared parts last."""

    def __init__(self, archive: ZipFile, styles: _Styles):
        self.archive = archive
        self.styles = styles
        self.sheets: list[tuple[str, list[tuple[str, str]]]] = []  # title, defined names
        archive.writestr("docProps/app.xml", tostring(ExtendedProperties().to_tree()))
        properties = styles.book.properties
        properties.modified = datetime.now(tz=UTC).replace(tzinfo=None)
        archive.writestr("docProps/core.xml", tostring(properties.to_tree()))
        archive.writestr("xl/theme/theme1.xml", theme_xml)

    def add(self, ws: _Sheet) -> None:
        self.archive.writestr(f"xl/worksheets/sheet{len(self.sheets) + 1}.xml", ws.xml())
        self.sheets.append((ws.title, ws.defined_names()))

    def finish(self) -> None:
        archive, count = self.archive, len(self.sheets)
        archive.writestr("xl/styles.xml", self.styles.xml())
        archive.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{_PKG_REL}">'
            f'<Relationship Type="{_REL}/officeDocument" Target="xl/workbook.xml" Id="rId1" />'
            f'<Relationship Type="{_PKG_REL}/metadata/core-properties" '
            'Target="docProps/core.xml" Id="rId2" />'
            f'<Relationship Type="{_REL}/extended-properties" Target="docProps/app.xml" '
            'Id="rId3" /></Relationships>',
        )
        sheets, names = [], []
        for index, (title, defined) in enumerate(self.sheets):
            sheets.append(
                f'<sheet name="{_attr(title)}" sheetId="{index + 1}" state="visible" '
                f'r:id="rId{index + 1}" />'
            )
            for name, value in defined:
                names.append(
                    f'<definedName name="{name}" localSheetId="{index}">'
                    f"{_xml_text(value)}</definedName>"
                )
        defined_names = "<definedNames />"
        if names:
            defined_names = f"<definedNames>{''.join(names)}</definedNames>"
        archive.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns:r="{_REL}" xmlns="{_NS}"><workbookPr /><workbookProtection />'
            '<bookViews><workbookView visibility="visible" minimized="0" '
            'showHorizontalScroll="1" showVerticalScroll="1" showSheetTabs="1" tabRatio="600" '
            'firstSheet="0" activeTab="0" autoFilterDateGrouping="1" /></bookViews>'
            f"<sheets>{''.join(sheets)}</sheets>{defined_names}"
            '<calcPr calcId="124519" fullCalcOnLoad="1" /></workbook>',
        )
        rels = [
            f'<Relationship Type="{_REL}/worksheet" Target="/xl/worksheets/sheet{n}.xml" '
            f'Id="rId{n}" />'
            for n in range(1, count + 1)
        ]
        rels.append(
            f'<Relationship Type="{_REL}/styles" Target="styles.xml" Id="rId{count + 1}" />'
        )
        rels.append(
            f'<Relationship Type="{_REL}/theme" Target="theme/theme1.xml" Id="rId{count + 2}" />'
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<Relationships xmlns="{_PKG_REL}">{"".join(rels)}</Relationships>',
        )
        office = "application/vnd.openxmlformats-officedocument"
        overrides = [
            ("/xl/styles.xml", f"{office}.spreadsheetml.styles+xml"),
            ("/xl/theme/theme1.xml", f"{office}.theme+xml"),
            ("/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml"),
            ("/docProps/app.xml", f"{office}.extended-properties+xml"),
            *((f"/xl/worksheets/sheet{n}.xml", _SHEET_TYPE) for n in range(1, count + 1)),
            ("/xl/workbook.xml", f"{office}.spreadsheetml.sheet.main+xml"),
        ]
        archive.writestr(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml" />'
            '<Default Extension="xml" ContentType="application/xml" />'
            + "".join(
                f'<Override PartName="{part}" ContentType="{kind}" />' for part, kind in overrides
            )
            + "</Types>",
        )


# --- helpers -----------------------------------------------------------------------------------


def _clean(value: Any) -> str:
    text = "" if value is None else str(value)
    return ILLEGAL_CHARACTERS_RE.sub("", text)[:32_000]


def _text(
    ws: _Sheet, row: int, col: int, value: Any, font=None, fill=None, align=None, border=None
) -> None:
    """Write user (or any) text: always stored as a string, never as a formula."""
    ws.text(row, col, _clean(value), font, fill, align, border)


def _num(
    ws: _Sheet,
    row: int,
    col: int,
    value,
    font=None,
    fill=None,
    fmt=None,
    border=None,
    align=RIGHT,
) -> None:
    ws.number(row, col, value, font, fill, align, border, fmt)


def _formula(
    ws: _Sheet,
    row: int,
    col: int,
    formula: str,
    font=None,
    fill=None,
    fmt=None,
    border=None,
    align=RIGHT,
) -> None:
    ws.formula(row, col, formula, font, fill, align, border, fmt)  # our own formula text


def _blank(ws: _Sheet, row: int, col: int, fill=None, border=None) -> None:
    ws.blank(row, col, None, fill, None, border)


def _header_text(value: str) -> str:
    """Text for an Excel page header/footer: "&" starts a code there, so it is doubled."""
    return _clean(value).replace("&", "&&")


def _local(value: datetime) -> datetime:
    """A naive local (French) datetime: Excel has no time zones."""
    if value.tzinfo is not None:
        try:
            from zoneinfo import ZoneInfo

            value = value.astimezone(ZoneInfo("Europe/Paris"))
        except Exception:  # pragma: no cover - no tz database
            pass
        value = value.replace(tzinfo=None)
    return value


def sheet_title(data: SheetData) -> str:
    """The worksheet name of a score sheet: "R2 T7" (round 2, table 7)."""
    return f"R{data.round_number} T{data.table_number}"


def _unique_title(title: str, taken: set[str]) -> str:
    title = re.sub(r"[\[\]:*?/\\]", "-", title)[:31] or "Feuille"
    candidate, n = title, 2
    while candidate.lower() in taken:
        suffix = f" ({n})"
        candidate = title[: 31 - len(suffix)] + suffix
        n += 1
    taken.add(candidate.lower())
    return candidate


def _handfuls(deal: SheetDeal) -> str:
    return " ; ".join(f"{h.size} : {h.player}" for h in deal.handfuls)


def _slam(deal: SheetDeal) -> str:
    if deal.slam == "attack":
        return "Attaque, annoncé" if deal.slam_announced else "Attaque"
    if deal.slam == "defence":
        return "Défense"
    return "Annoncé, chuté" if deal.slam_announced else ""


# --- the workbook ------------------------------------------------------------------------------


def score_sheets_workbook(
    sheets: Iterable[SheetData], ranking: tuple[list[str], list[list]] | None = None
) -> bytes:
    """One worksheet per score sheet ("R1 T3"), plus an optional "Classement" worksheet first.

    ``ranking`` is ``(headers, rows)``; numbers stay numbers and strings stay text. ``sheets`` may
    be a generator: each worksheet goes into the archive as soon as it is laid out, so memory
    holds one sheet's cells at a time, plus the compressed file.
    """
    styles = _Styles()
    buffer = io.BytesIO()
    with ZipFile(buffer, "w", ZIP_DEFLATED, allowZip64=True) as archive:
        package = _Package(archive, styles)
        taken: set[str] = set()
        if ranking is not None:
            headers, rows = ranking
            ws = _Sheet(_unique_title("Classement", taken), styles)
            _ranking_sheet(ws, headers, rows)
            package.add(ws)
        for data in sheets:
            ws = _Sheet(_unique_title(sheet_title(data), taken), styles)
            _score_sheet(ws, data)
            package.add(ws)
        if not package.sheets:
            ws = _Sheet("Feuilles", styles)
            _text(ws, 1, 1, "Aucune feuille de marque.")
            package.add(ws)
        package.finish()
    return buffer.getvalue()


def _ranking_sheet(ws: _Sheet, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    widths: dict[int, int] = {}
    for col, header in enumerate(headers, 1):
        _text(ws, 1, col, header, font=BOLD, fill=HEAD_FILL, border=BORDER)
        widths[col] = max(8, len(_clean(header)) + 2)
    for r, row in enumerate(rows, 2):
        for col, value in enumerate(row, 1):
            if isinstance(value, bool) or value is None:
                shown = "" if value is None else ("oui" if value else "non")
                _text(ws, r, col, shown, border=BORDER)
            elif isinstance(value, int | float | Decimal):
                _num(ws, r, col, value, border=BORDER)
            elif isinstance(value, datetime):
                _num(ws, r, col, _local(value), fmt=DATETIME_FORMAT, border=BORDER)
            elif isinstance(value, date):
                _num(ws, r, col, value, fmt=DATE_FORMAT, border=BORDER)
            else:
                _text(ws, r, col, value, border=BORDER)
            widths[col] = min(45, max(widths.get(col, 8), len(_clean(value)) + 2))
    ws.col_widths.update(widths)
    ws.freeze_rows = 1
    ws.print_title_row = 1
    ws.landscape = len(headers) >= 6  # A4, fit to the page width, narrow margins, centred


class SheetLayout:
    """Where a score sheet's numbers are on its worksheet (1-based rows and columns)."""

    def __init__(self, data: SheetData):
        n = len(data.players)
        self.n = n
        self.players_header = 13
        self.deal_header = self.players_header + n + 2
        self.first_deal = self.deal_header + 1
        if data.paper_totals and not data.blank:
            deal_rows = 0
        elif data.blank:
            deal_rows = data.deals_expected
        else:
            deal_rows = len(data.deals)
        self.last_deal = self.first_deal + deal_rows - 1  # < first_deal when there is none
        self.bilan = self.first_deal + deal_rows
        self.check = self.bilan + 1
        self.first_penalty = self.check + 1
        self.last_penalty = self.first_penalty + len(data.penalties) - 1
        self.with_penalties = self.last_penalty + 1 if data.penalties else None
        self.score_cols = [FIRST_SCORE_COL + i for i in range(n)]
        self.cumul_cols = [FIRST_SCORE_COL + n + i for i in range(n)]
        self.last_col = FIRST_SCORE_COL + 2 * n - 1


def _score_sheet(ws: _Sheet, data: SheetData) -> None:
    lay = SheetLayout(data)
    last = get_column_letter(lay.last_col)
    code = data.verification_code or _code_of(data.fingerprint)
    names = [p.name for p in data.players]

    # Header block: labels in A, values in C (text spills over the empty cells to the right).
    _text(ws, 1, 1, "FEUILLE DE MARQUE", font=TITLE)
    title = f"Position {data.round_number} — Table {data.table_number}"
    _text(ws, 1, FIRST_SCORE_COL, title, font=TITLE)
    status = "Feuille vierge" if data.blank else STATUSES.get(data.status, data.status)
    if data.paper_totals and not data.blank:
        status += " — tenue sur papier (bilans reportés)"
    labels: list[tuple[str, Any]] = [
        ("Tournoi", data.tournament),
        ("Date", data.tournament_date),
        ("Lieu", data.place),
        ("Position", data.round_number),
        ("Table", data.table_number),
        ("Règlement", data.rule_set),
        ("Arbitre", data.referee),
        ("État", status),
        ("Empreinte SHA-256", data.fingerprint or "(pas encore signée)"),
        ("Code de vérification", code),
        ("Vérification en ligne", data.verification_url),
    ]
    for offset, (label, value) in enumerate(labels):
        row = 2 + offset
        _text(ws, row, 1, label, font=BOLD)
        if isinstance(value, int) and not isinstance(value, bool):
            _num(ws, row, 3, value, align=LEFT)
        elif isinstance(value, date):
            _num(ws, row, 3, value, fmt=DATE_FORMAT, align=LEFT)
        else:
            mono = label in {"Empreinte SHA-256", "Code de vérification"}
            _text(ws, row, 3, value, font=MONO if mono else None)

    # Players by seat.
    r = lay.players_header
    heads = {1: "Place", 3: "Joueur", 6: "Club", 10: "Licence"}
    for col in range(1, 11):
        _text(ws, r, col, heads.get(col, ""), font=BOLD, fill=HEAD_FILL)
    for i, player in enumerate(data.players):
        row = r + 1 + i
        _text(ws, row, 1, f"{player.seat} — {SEAT_NAMES.get(player.seat, player.seat)}", font=BOLD)
        _text(ws, row, 3, player.name, font=BOLD)
        _text(ws, row, 6, player.club)
        _text(ws, row, 10, player.licence)

    # Deal table header.
    h = lay.deal_header
    for col, (label, _width) in enumerate(INPUT_HEADERS, 1):
        _text(ws, h, col, label, font=BOLD, fill=HEAD_FILL, align=CENTER, border=BORDER)
    for i, player in enumerate(data.players):
        head = f"{player.seat} — {player.name}"
        _text(
            ws, h, lay.score_cols[i], head, font=BOLD, fill=HEAD_FILL, align=CENTER, border=BORDER
        )
        _text(
            ws,
            h,
            lay.cumul_cols[i],
            f"Cumul {head}",
            font=BOLD,
            fill=HEAD_FILL,
            align=CENTER,
            border=BORDER,
        )
    ws.row_heights[h] = 32

    # Deals.
    first, lastd = lay.first_deal, lay.last_deal
    if data.blank:
        for k in range(data.deals_expected):
            row = first + k
            _num(ws, row, 1, k + 1, border=BORDER, align=CENTER)
            for col in range(2, lay.last_col + 1):
                _blank(ws, row, col, border=BORDER)
            ws.row_heights[row] = 24
    elif not data.paper_totals:
        for k, deal in enumerate(data.deals):
            _deal_row(ws, first + k, deal, lay)

    # Round totals (bilan), zero-sum check, penalties.
    b = lay.bilan
    _text(ws, b, 1, "Bilan de la position", font=BIG_BOLD, fill=TOTAL_FILL, border=TOTAL_BORDER)
    for col in range(2, FIRST_SCORE_COL):
        _blank(ws, b, col, fill=TOTAL_FILL, border=TOTAL_BORDER)
    total_style = {
        "font": BIG_BOLD,
        "fill": TOTAL_FILL,
        "fmt": SCORE_FORMAT,
        "border": TOTAL_BORDER,
    }
    for i, col in enumerate(lay.score_cols):
        letter = get_column_letter(col)
        if data.blank:
            _blank(ws, b, col, fill=TOTAL_FILL, border=TOTAL_BORDER)
        elif data.paper_totals:
            _num(ws, b, col, data.paper_totals[i], **total_style)
        elif lastd >= first:
            _formula(ws, b, col, f"=SUM({letter}{first}:{letter}{lastd})", **total_style)
        else:
            _num(ws, b, col, 0, **total_style)
    for col in lay.cumul_cols:
        _blank(ws, b, col, fill=TOTAL_FILL, border=TOTAL_BORDER)

    c = lay.check
    first_score = get_column_letter(lay.score_cols[0])
    last_score = get_column_letter(lay.score_cols[-1])
    _text(ws, c, 1, "Contrôle : ∑ des bilans = 0 (pénalités non comprises)", font=BOLD)
    if data.blank:
        _text(ws, c, lay.score_cols[0], "∑ = ________ (doit être 0)", font=BOLD)
    else:
        _formula(ws, c, lay.score_cols[0], f"=SUM({first_score}{b}:{last_score}{b})", font=BOLD)
        ok = sum(data.round_totals()) == 0
        _formula(
            ws,
            c,
            lay.score_cols[0] + 1,
            f'=IF({first_score}{c}=0,"∑ = 0 ✓","ERREUR : la somme des bilans n\'est pas nulle")',
            font=GREEN_BOLD if ok else RED_BOLD,
            align=LEFT,
        )

    if data.penalties:
        for k, penalty in enumerate(data.penalties):
            row = lay.first_penalty + k
            _text(ws, row, 1, "Pénalité", font=RED_BOLD, fill=PENALTY_FILL)
            _text(ws, row, 2, "", fill=PENALTY_FILL)
            _text(ws, row, 3, penalty.player, font=BOLD, fill=PENALTY_FILL)
            _text(ws, row, 4, "", fill=PENALTY_FILL)
            _text(ws, row, 5, penalty.reason, fill=PENALTY_FILL)
            referee = f"Arbitre : {penalty.referee}" if penalty.referee else ""
            _text(ws, row, 10, referee, fill=PENALTY_FILL)
            _text(ws, row, 13, "hors contrôle ∑ = 0", font=ITALIC_GREY, fill=PENALTY_FILL)
            if penalty.player in names:
                col = lay.score_cols[names.index(penalty.player)]
                _num(
                    ws, row, col, penalty.amount, font=RED_BOLD, fill=PENALTY_FILL, fmt=SCORE_FORMAT
                )
        w = lay.with_penalties
        _text(ws, w, 1, "Total après pénalités", font=BOLD, fill=TOTAL_FILL)
        for col in lay.score_cols:
            letter = get_column_letter(col)
            _formula(
                ws,
                w,
                col,
                f"={letter}{b}+SUM({letter}{lay.first_penalty}:{letter}{lay.last_penalty})",
                font=BOLD,
                fill=TOTAL_FILL,
                fmt=SCORE_FORMAT,
                border=BORDER,
            )
    row = (lay.with_penalties or lay.check) + 2

    # Amendments.
    if data.amendments or data.status == "amended":
        _text(ws, row, 1, "MODIFIÉE APRÈS SIGNATURE", font=ORANGE_BOLD, fill=AMEND_FILL)
        row += 1
        for amendment in data.amendments:
            _num(ws, row, 1, _local(amendment.at), fmt=DATETIME_FORMAT, align=LEFT)
            _text(ws, row, 3, f"par {amendment.by}")
            _text(ws, row, 5, f"Motif : {amendment.reason}")
            _text(ws, row, 11, amendment.summary)
            row += 1
        row += 1

    # Signatures.
    _text(ws, row, 1, "Signatures", font=BOLD)
    row += 1
    by_player: dict[str, Any] = {}
    for signature in data.signatures:
        by_player.setdefault(signature.player, signature)
    entries = [(f"{p.seat} — {p.name}", by_player.get(p.name)) for p in data.players]
    referee_label = f"Arbitre — {data.referee}" if data.referee else "Arbitre"
    entries.append((referee_label, by_player.get(data.referee) if data.referee else None))
    for label, signature in entries:
        _text(ws, row, 1, label, font=BOLD)
        if signature is None:
            _text(ws, row, 6, "Signature : ______________________")
        else:
            _text(ws, row, 6, f"Signé {METHODS.get(signature.method, signature.method)}, le")
            _num(ws, row, 9, _local(signature.signed_at), fmt=DATETIME_FORMAT, align=LEFT)
        row += 1
    last_row = row - 1

    # Widths, header/footer, printing.
    for col, (_label, width) in enumerate(INPUT_HEADERS, 1):
        ws.col_widths[col] = width
    for col in lay.score_cols + lay.cumul_cols:
        ws.col_widths[col] = 13
    ws.header = [
        ("L", _header_text(f"{data.tournament[:80]} — {data.tournament_date:%d/%m/%Y}")),
        ("R", _header_text(title)),
    ]
    ws.footer = [
        ("L", _header_text(f"Empreinte SHA-256 : {data.fingerprint or '(non signée)'}")),
        ("C", _header_text(f"Code de vérification : {code or '—'}")),
        ("R", "Page &P / &N"),
    ]
    ws.print_title_row = h
    ws.print_area = f"A1:{last}{last_row}"
    ws.landscape = True  # A4, fit to the page width, narrow margins, centred


def _deal_row(ws: _Sheet, row: int, deal: SheetDeal, lay: SheetLayout) -> None:
    fill = {"referee": REFEREE_FILL, "passed": PASSED_FILL}.get(deal.kind)
    _num(ws, row, 1, deal.number, fill=fill, border=BORDER, align=CENTER)
    _text(ws, row, 2, KINDS.get(deal.kind, deal.kind), fill=fill, border=BORDER)
    texts = {
        3: deal.dealer,
        4: deal.sitting_out,
        5: deal.taker,
        6: deal.partner,
        7: CONTRACTS.get(deal.contract, deal.contract),
        10: _handfuls(deal),
        11: CAMPS.get(deal.petit_au_bout, deal.petit_au_bout),
        12: _slam(deal),
        13: deal.note,
    }
    if deal.kind == "passed":
        texts[5] = "Donne passée, redistribuée"
    for col, value in texts.items():
        font = ITALIC_GREY if deal.kind == "passed" and col == 5 else None
        _text(ws, row, col, value, fill=fill, border=BORDER, font=font)
    if deal.oudlers is not None:
        _num(ws, row, 8, deal.oudlers, fill=fill, border=BORDER, align=CENTER)
    else:
        _blank(ws, row, 8, fill=fill, border=BORDER)
    if deal.points is not None:
        points = deal.points
        value = int(points) if points == points.to_integral_value() else points
        _num(ws, row, 9, value, fill=fill, border=BORDER, align=CENTER)
    else:
        _blank(ws, row, 9, fill=fill, border=BORDER)
    for i, col in enumerate(lay.score_cols):
        if deal.kind != "passed" and deal.scores:
            _num(ws, row, col, deal.scores[i], font=BOLD, fmt=SCORE_FORMAT, border=BORDER)
        else:
            _blank(ws, row, col, border=BORDER)
        letter = get_column_letter(col)
        _formula(
            ws,
            row,
            lay.cumul_cols[i],
            f"=SUM({letter}${lay.first_deal}:{letter}{row})",
            font=GREY_TEXT,
            fill=CUMUL_FILL,
            fmt="0",
            border=BORDER,
        )


# --- a tiny evaluator for the formulas written above -------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<str>\"(?:[^\"]|\"\")*\")|"
    r"(?P<range>\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+)|(?P<ref>\$?[A-Z]{1,3}\$?\d+)|"
    r"(?P<func>[A-Z]+)\(|(?P<op>[-+=(),]))"
)


def evaluate_cell(ws: Worksheet, coordinate: str, _seen: frozenset[str] = frozenset()) -> Any:
    """The value of a cell, computing the formulas this module writes.

    Supports numbers, strings, cell references (with ``$``), ranges inside ``SUM``, ``+``, ``-``,
    unary minus, parentheses and ``IF(a=b, x, y)``. Empty cells count as 0 in arithmetic. Raises
    ``ValueError`` for anything else (so a test notices a formula it cannot check).
    """
    coordinate = coordinate.replace("$", "")
    if coordinate in _seen:
        raise ValueError(f"circular reference at {coordinate}")
    cell = ws[coordinate]
    if cell.data_type != "f":
        return cell.value
    return _Parser(ws, str(cell.value)[1:], _seen | {coordinate}).parse()


class _Parser:
    def __init__(self, ws: Worksheet, text: str, seen: frozenset[str]):
        self.ws, self.seen = ws, seen
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if not match or match.end() == pos:
                raise ValueError(f"cannot read formula at {text[pos:]!r}")
            kind = match.lastgroup
            self.tokens.append((kind, match.group(kind)))
            pos = match.end()
        self.i = 0

    def parse(self) -> Any:
        value = self.comparison()
        if self.i != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.i]!r}")
        return value

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, op: str) -> None:
        token = self.peek()
        if token != ("op", op):
            raise ValueError(f"expected {op!r}, got {token!r}")
        self.i += 1

    def comparison(self) -> Any:
        left = self.additive()
        if self.peek() == ("op", "="):
            self.i += 1
            right = self.additive()
            return left == right
        return left

    def additive(self) -> Any:
        value = self.unary()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.tokens[self.i][1]
            self.i += 1
            right = self.unary()
            value = _n(value) + _n(right) if op == "+" else _n(value) - _n(right)
        return value

    def unary(self) -> Any:
        if self.peek() == ("op", "-"):
            self.i += 1
            return -_n(self.unary())
        if self.peek() == ("op", "+"):
            self.i += 1
            return _n(self.unary())
        return self.atom()

    def atom(self) -> Any:
        token = self.peek()
        if token is None:
            raise ValueError("formula ends too early")
        kind, text = token
        self.i += 1
        if kind == "num":
            return Decimal(text) if "." in text else int(text)
        if kind == "str":
            return text[1:-1].replace('""', '"')
        if kind == "ref":
            return evaluate_cell(self.ws, text, self.seen)
        if kind == "op" and text == "(":
            value = self.comparison()
            self.take(")")
            return value
        if kind == "func":
            return self.function(text)
        raise ValueError(f"unexpected {token!r}")

    def function(self, name: str) -> Any:
        if name == "SUM":
            total: Any = 0
            while True:
                token = self.peek()
                if token and token[0] == "range":
                    self.i += 1
                    total += sum(_n(v) for v in self.range_values(token[1]))
                else:
                    total += _n(self.comparison())
                if self.peek() == ("op", ","):
                    self.i += 1
                    continue
                self.take(")")
                return total
        if name == "IF":
            condition = self.comparison()
            self.take(",")
            yes = self.comparison()
            self.take(",")
            no = self.comparison()
            self.take(")")
            return yes if condition else no
        raise ValueError(f"function {name} is not supported")

    def range_values(self, text: str) -> list[Any]:
        min_col, min_row, max_col, max_row = range_boundaries(text.replace("$", ""))
        values = []
        for row in range(min_row, max_row + 1):
            for col in range(min_col, max_col + 1):
                values.append(evaluate_cell(self.ws, f"{get_column_letter(col)}{row}", self.seen))
        return values


def _n(value: Any) -> Any:
    """A cell value in arithmetic: empty is 0, text is an error (as in Excel's ``+``)."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | Decimal):
        return value
    raise ValueError(f"not a number: {value!r}")

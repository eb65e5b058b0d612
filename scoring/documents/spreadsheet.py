"""A streaming SpreadsheetML (xlsx) writer: cell formats, worksheets as XML, the zip package.

Each worksheet's XML is written into the zip archive as soon as it is laid out (one worksheet in
memory at a time), then the shared parts (styles, workbook, relationships). The XML is the
SpreadsheetML that openpyxl writes for the same cells; openpyxl still provides the styles part
(fonts, fills, borders, formats), the theme and the document properties. Building openpyxl
cells and serialising them one by one was ten times slower and larger in memory for a big
tournament (``bench/figures.md``). Plain Python: no Django import.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime
from xml.sax.saxutils import escape as _xml_text
from zipfile import ZipFile

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.compat import safe_string
from openpyxl.packaging.extended import ExtendedProperties
from openpyxl.styles.stylesheet import write_stylesheet
from openpyxl.utils import absolute_coordinate, get_column_letter, quote_sheetname
from openpyxl.utils.datetime import to_excel
from openpyxl.utils.escape import escape as _ooxml_escape
from openpyxl.writer.theme import theme_xml
from openpyxl.xml.functions import tostring


class Styles:
    """The workbook's cell formats, kept by openpyxl (which writes the styles part).

    A combination of font, fill, alignment, border and number format gets a handle when first
    used (openpyxl registers its parts then, as when it is assigned to a cell); its cell-format
    index is taken when a cell using it is first written, in the order openpyxl's own writer
    would take it. The style objects are the callers' constants: the key holds their ``id()``,
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
    (the text of each part already has its "&" doubled)."""
    text = "".join(f"&{code}{part}" for code, part in parts)
    return _ooxml_escape(_HF_CODES.sub(lambda m: _HF_CODE[m.group(0)], text))


class Sheet:
    """A worksheet being laid out: its cells by coordinate and its settings.

    :meth:`xml` writes it as SpreadsheetML. Cells are kept as their XML (less the coordinate and
    the style index), so a sheet of a few hundred cells costs a few hundred small strings.
    """

    def __init__(self, title: str, styles: Styles):
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

    # Cells. ``value`` of text is already cleaned of characters XML cannot hold.

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


class Package:
    """The xlsx zip archive, written as it goes: worksheets first, the shared parts last."""

    def __init__(self, archive: ZipFile, styles: Styles):
        self.archive = archive
        self.styles = styles
        self.sheets: list[tuple[str, list[tuple[str, str]]]] = []  # title, defined names
        archive.writestr("docProps/app.xml", tostring(ExtendedProperties().to_tree()))
        properties = styles.book.properties
        properties.modified = datetime.now(tz=UTC).replace(tzinfo=None)
        archive.writestr("docProps/core.xml", tostring(properties.to_tree()))
        archive.writestr("xl/theme/theme1.xml", theme_xml)

    def add(self, ws: Sheet) -> None:
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

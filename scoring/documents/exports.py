"""Standings as CSV (comma, or semicolon for French Excel) and Excel (the PDF: pdf/standings.py).

Cells take the values as they come (numbers, text, None for an empty cell): nothing is guessed
from the characters of a text, so any name exports as typed. No cell can act as a formula:
spreadsheet cells holding text are typed as text, and CSV cells that a spreadsheet would read as
a formula are prefixed with an apostrophe. A team event adds its team standings as a further
section (a second worksheet; a second table after an empty line in CSV).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font

from .data import StandingsSection

LINE_BREAKS = re.compile(r"[\r\n\t]+")  # a name is one line in a cell
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value) -> str | int | float:
    """A cell as CSV writes it: numbers as numbers, no value as nothing, and text that a
    spreadsheet would run as a formula (= + - @ first) behind an apostrophe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        try:
            float(text)  # a negative number stays a number
            return text
        except ValueError:
            return "'" + text
    return text


def to_csv(
    headers: list[str],
    rows: list[list],
    *,
    french: bool = False,
    more: Iterable[StandingsSection] = (),
) -> bytes:
    """The standings, then each further section after an empty line, under its title."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if french else ",")
    writer.writerow([csv_safe(h) for h in headers])
    for row in rows:
        writer.writerow([csv_safe(v) for v in row])
    for section in more:
        writer.writerow([])
        writer.writerow([csv_safe(section.title)])
        writer.writerow([csv_safe(h) for h in section.headers])
        for row in section.rows:
            writer.writerow([csv_safe(v) for v in row])
    return buffer.getvalue().encode("utf-8-sig" if french else "utf-8")


def to_xlsx(
    title: str, headers: list[str], rows: list[list], *, more: Iterable[StandingsSection] = ()
) -> bytes:
    """One worksheet for the standings, one for each further section (the teams)."""
    workbook = Workbook()
    _worksheet(workbook.active, title or "Classement", headers, rows)
    for section in more:
        _worksheet(workbook.create_sheet(), section.title, section.headers, section.rows)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _worksheet(sheet, title: str, headers: list[str], rows: list[list]) -> None:
    sheet.title = _sheet_title(title)
    sheet.append([_cell(h) for h in headers])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_cell(v) for v in row])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text stays text, even "=1+1"
    sheet.freeze_panes = "A2"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
    sheet.page_setup.fitToWidth = 1
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_title_rows = "1:1"


def _cell(value):
    """What a cell holds: the value as it comes (a number stays a number, text stays text,
    never guessed from its characters), nothing for None, text on one line without the control
    characters a workbook cannot hold."""
    if value is None or (isinstance(value, int | float | Decimal) and not isinstance(value, bool)):
        return value
    return ILLEGAL_CHARACTERS_RE.sub("", LINE_BREAKS.sub(" ", str(value)))


def _sheet_title(title: str) -> str:
    """A worksheet name Excel accepts: at most 31 characters, none of \\ / ? * [ ] :."""
    cleaned = ILLEGAL_CHARACTERS_RE.sub("", re.sub(r"[\\/?*\[\]:]", " ", title)).strip()
    return cleaned[:31] or "Classement"

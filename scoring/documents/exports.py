"""Standings as CSV (comma, or semicolon for French Excel) and Excel (the PDF: pdf/standings.py).

No cell can act as a formula: spreadsheet cells holding text are typed as text, and CSV cells
that a spreadsheet would read as a formula are prefixed with an apostrophe.
"""

from __future__ import annotations

import csv
import io

from openpyxl import Workbook
from openpyxl.styles import Font

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value) -> str | int:
    if isinstance(value, int):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        try:
            float(text)  # a negative number stays a number
            return text
        except ValueError:
            return "'" + text
    return text


def to_csv(headers: list[str], rows: list[list], *, french: bool = False) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if french else ",")
    writer.writerow([csv_safe(h) for h in headers])
    for row in rows:
        writer.writerow([csv_safe(v) for v in row])
    return buffer.getvalue().encode("utf-8-sig" if french else "utf-8")


def to_xlsx(title: str, headers: list[str], rows: list[list]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title[:31] or "Classement"
    sheet.append(headers)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_number(v) for v in row])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text stays text, even "=1+1"
    sheet.freeze_panes = "A2"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
    sheet.page_setup.fitToWidth = 1
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_title_rows = "1:1"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _number(value):
    if isinstance(value, int | float):
        return value
    text = str(value)
    if text.lstrip("-").isdigit():
        return int(text)
    return text

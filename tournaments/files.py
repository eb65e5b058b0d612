"""Reading a table of players from an uploaded file: CSV (comma, semicolon or tab; UTF-8 or
Windows' Latin-1) or Excel (.xlsx, its first sheet). Shared by the players' import and the
licensee list; reads only."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError


def read_table(filename: str, content: bytes) -> list[list[str]]:
    """Rows of cells as text, from a CSV (comma or semicolon, UTF-8 or Latin-1) or an xlsx."""
    import csv
    import io

    lower = filename.lower()
    if lower.endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
            try:
                sheet = workbook.worksheets[0]
                return [
                    ["" if cell is None else str(cell).strip() for cell in row]
                    for row in sheet.iter_rows(values_only=True)
                ]
            finally:
                workbook.close()
        except Exception:  # openpyxl raises many kinds for a damaged or foreign file
            raise ServiceError(
                _("“%(name)s” is not a readable Excel workbook (.xlsx).") % {"name": filename}
            ) from None
    if lower.endswith((".csv", ".txt")):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = content.decode("cp1252", errors="replace")
        try:
            dialect = csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        try:
            # newline="" lets the csv module read every line ending: \n, \r\n and old Mac \r.
            reader = csv.reader(io.StringIO(text, newline=""), dialect)
            return [[cell.strip() for cell in row] for row in reader]
        except csv.Error as error:
            raise ServiceError(
                _("“%(name)s” cannot be read as CSV (%(error)s).")
                % {"name": filename, "error": error}
            ) from None
    raise ServiceError(
        _("Import a CSV file (.csv) or an Excel file (.xlsx); “%(name)s” is neither.")
        % {"name": filename}
    )

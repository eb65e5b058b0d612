"""Cell-level helpers of the Excel workbooks (``xlsx.py``) and of CSV exports: text a
spreadsheet never runs as a formula, text Excel accepts, worksheet names, local times.

Plain Python: no Django import.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from typing import Any

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

_FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell_text(value: Any) -> str:
    """A value as CSV text that no spreadsheet will run as a formula.

    Text starting with ``= + - @``, a tab or a carriage return gets a leading ``'``. Numbers
    (including negative ones) are returned as they are, ``None`` as "". For xlsx, write the string
    as an inline string instead (as ``xlsx.py`` does).
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


def clean_cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return ILLEGAL_CHARACTERS_RE.sub("", text)[:32_000]


def header_text(value: str) -> str:
    """Text for an Excel page header/footer: "&" starts a code there, so it is doubled."""
    return clean_cell(value).replace("&", "&&")


def local_naive(value: datetime) -> datetime:
    """A naive local (French) datetime: Excel has no time zones."""
    if value.tzinfo is not None:
        try:
            from zoneinfo import ZoneInfo

            value = value.astimezone(ZoneInfo("Europe/Paris"))
        except Exception:  # pragma: no cover - no tz database
            pass
        value = value.replace(tzinfo=None)
    return value


def unique_title(title: str, taken: set[str]) -> str:
    title = re.sub(r"[\[\]:*?/\\]", "-", title)[:31] or "Feuille"
    candidate, n = title, 2
    while candidate.lower() in taken:
        suffix = f" ({n})"
        candidate = title[: 31 - len(suffix)] + suffix
        n += 1
    taken.add(candidate.lower())
    return candidate

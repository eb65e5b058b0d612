"""Values echoed in messages, bounded: whatever a client sends, a message stays a sentence.

A points value such as ``9e999999`` written out in full is a million digits (a 1 MB error page),
and Python refuses to write out an integer of more than 4,300 digits at all: messages show such
values in short scientific form, and cut long text.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

MAX_SHOWN = 24  # characters of a value echoed in a message
_PLAIN_DIGITS = 15  # numbers up to this many digits are written out in full


def shown_number(number: Decimal | int) -> str:
    """``40.5``, ``-3``, ``1e+1000000``: a number as a message shows it (never long)."""
    number = Decimal(number)  # exact for any int; no str() of a huge int
    if not number.is_finite():
        return str(number)
    if number and not -_PLAIN_DIGITS < number.adjusted() < _PLAIN_DIGITS:
        return format(number, ".6g")
    text = format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return _cut(text or "0")


def shown(value: Any) -> str:
    """A JSON value as a message shows it: ``'garde'``, ``12``, ``['a', …]`` (bounded)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int | Decimal):
        return shown_number(value)
    if isinstance(value, str):
        return repr(_cut(value))
    if isinstance(value, float):
        return _cut(repr(value))
    return _cut(type(value).__name__)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"

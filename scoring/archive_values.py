"""Reading an archive's values as the forms would: each one of the right type, within the limits
of its model field, from its list of choices; anything else names where it is and what is wrong.

An archive is untrusted input (someone may have edited it, or made it by hand): nothing of it
reaches the database unchecked. The limits come from the models (``max_length``) and from the
forms (numbers), so the archive accepts exactly what the pages would have accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tournaments.names import clean_name

# The deepest nesting an archive needs (an event's data, a seal's content) is 5 levels below
# the value that holds it; this leaves room and keeps every walk short.
MAX_DEPTH = 12
# Integers read from the file: 40 digits at most (5,000 cost seconds); each value then gets its
# own range, so that 10**30 is refused where it stands.
MAX_INT_DIGITS = 40
_POINTS = re.compile(r"[0-9]{1,2}(\.[05])?")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class Damaged(Exception):
    """A value of the archive that the forms would refuse: where it is, and why."""

    def __init__(self, where: str, what: str):
        self.where = where or "archive"
        self.what = what
        super().__init__(f"{self.where}: {what}")


def parse_int(text: str) -> int:
    """``json.loads``'s reader of integers: 18 digits at most (a 5,000-digit one costs seconds)."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise Damaged("", _("a number of more than %(n)d digits") % {"n": MAX_INT_DIGITS})
    return int(text)


def parse_constant(text: str):
    """``json.loads``'s reader of NaN and Infinity, which JSON does not allow."""
    raise Damaged("", _("“%(value)s” is not a number") % {"value": text})


def parse_float(text: str) -> float:
    """No value of an archive is a decimal number (points are written as text)."""
    what = _("a decimal number where none is expected (%(value)s)") % {"value": text[:20]}
    raise Damaged("", what)


class Value:
    """A value of the archive and where it sits (``rounds[1].tables[0].sheet.deals[3].points``)."""

    __slots__ = ("value", "where")

    def __init__(self, value, where: str = ""):
        self.value = value
        self.where = where

    def _at(self, key) -> str:
        if isinstance(key, int):
            return f"{self.where}[{key}]"
        return f"{self.where}.{key}" if self.where else str(key)

    def fail(self, what: str):
        raise Damaged(self.where, what)

    # -- structure ------------------------------------------------------------------------------

    def _object(self) -> dict:
        if not isinstance(self.value, dict):
            self.fail(_("an object was expected"))
        return self.value

    def __getitem__(self, key: str) -> Value:
        data = self._object()
        if key not in data:
            raise Damaged(self._at(key), _("missing"))
        return Value(data[key], self._at(key))

    def get(self, key: str, default=None) -> Value:
        return Value(self._object().get(key, default), self._at(key))

    def __contains__(self, key: str) -> bool:
        return key in self._object()

    def list(self, *, max_items: int = 100_000) -> list[Value]:
        if not isinstance(self.value, list):
            self.fail(_("a list was expected"))
        if len(self.value) > max_items:
            self.fail(_("more than %(n)d items") % {"n": max_items})
        return [Value(item, self._at(index)) for index, item in enumerate(self.value)]

    # -- scalars --------------------------------------------------------------------------------

    def int(self, low: int, high: int, *, null: bool = False) -> int | None:
        value = self.value
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(_("a whole number was expected, not %(value)s") % {"value": _show(value)})
        if not low <= value <= high:
            self.fail(
                _("%(value)s is not between %(low)d and %(high)d")
                % {"value": _show(value), "low": low, "high": high}
            )
        return value

    def bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(_("true or false was expected, not %(value)s") % {"value": _show(self.value)})
        return self.value

    def text(self, max_length: int | None, *, null: bool = False, blank: bool = True) -> str:
        value = self.value
        if value is None and null:
            return None
        if not isinstance(value, str):
            self.fail(_("a text was expected, not %(value)s") % {"value": _show(value)})
        if max_length is not None and len(value) > max_length:
            self.fail(
                _("a text of %(length)d characters, over the limit of %(limit)d")
                % {"length": len(value), "limit": max_length}
            )
        if not blank and not value.strip():
            self.fail(_("empty"))
        if _CONTROL.search(value):
            self.fail(_("a control character (such as NUL) in a text"))
        return value

    def name(self, max_length: int | None, *, blank: bool = True) -> str:
        """A name, cleaned as every name coming in (names.clean_name: no invisible or control
        character), then checked as a text."""
        if isinstance(self.value, str):
            return Value(clean_name(self.value), self.where).text(max_length, blank=blank)
        return self.text(max_length, blank=blank)

    def choice(self, choices: Iterable[str], *, blank: bool = False) -> str:
        allowed = [str(c) for c in choices]
        value = self.value
        if blank and value == "":
            return ""
        if not isinstance(value, str) or value not in allowed:
            self.fail(
                _("%(value)s is not one of: %(choices)s")
                % {"value": _show(value), "choices": ", ".join(allowed)}
            )
        return value

    def time(self, *, null: bool = True) -> datetime | None:
        value = self.value
        if value is None and null:
            return None
        parsed = None
        if isinstance(value, str) and len(value) <= 40:
            try:
                parsed = parse_datetime(value)
            except ValueError:
                parsed = None
        if parsed is None:
            self.fail(_("%(value)s is not a date and time") % {"value": _show(value)})
        return parsed

    def date(self) -> date:
        value = self.value
        try:
            if isinstance(value, str) and len(value) == 10:
                return date.fromisoformat(value)
        except ValueError:
            pass
        self.fail(_("%(value)s is not a date") % {"value": _show(value)})

    def points(self) -> Decimal | None:
        """The taker's points as the deal form takes them: 0 to 91, whole or half."""
        value = self.value
        if value is None:
            return None
        if not isinstance(value, str) or not _POINTS.fullmatch(value) or Decimal(value) > 91:
            self.fail(
                _("%(value)s is not a number of points (0 to 91, whole or half)")
                % {"value": _show(value)}
            )
        return Decimal(value)

    def data(self, *, max_depth: int = MAX_DEPTH) -> dict:
        """A free-form object (an event's data, a seal's content): only JSON's plain values, no
        deeper than ``max_depth``, texts without control characters."""
        _check_plain(self.value, self.where, max_depth)
        if not isinstance(self.value, dict):
            self.fail(_("an object was expected"))
        return self.value


def _check_plain(value, where: str, depth: int) -> None:
    if depth < 0:
        raise Damaged(where, _("nested too deep"))
    if isinstance(value, dict):
        for key, item in value.items():
            _check_plain(key, where, depth - 1)
            _check_plain(item, f"{where}.{key}"[:200], depth - 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_plain(item, f"{where}[{index}]"[:200], depth - 1)
    elif isinstance(value, str):
        if _CONTROL.search(value):
            raise Damaged(where, _("a control character (such as NUL) in a text"))
    elif value is not None and not isinstance(value, bool | int):
        raise Damaged(where, _("%(value)s is not a plain value") % {"value": _show(value)})


def _show(value) -> str:
    """A value as a message quotes it: short, whatever its size."""
    if isinstance(value, str):
        text = value if len(value) <= 30 else value[:30] + "…"
        return f"« {text} »"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**30 else f"{str(value)[:12]}… ({len(str(value))})"
        return text
    if value is None:
        return "null"
    if isinstance(value, dict):
        return _("an object")
    if isinstance(value, list):
        return _("a list")
    return type(value).__name__


def max_length(model, field: str) -> int | None:
    """The model field's limit: the archive accepts what the database and the forms accept."""
    return model._meta.get_field(field).max_length

"""The JSON form of a deal, as read by ``manage.py score_deal`` and written in archives.

``{"players": 4, "taker": 0, "partner": null, "contract": "garde", "oudlers": 2, "points": 49,
"handfuls": [{"seat": 0, "size": "simple"}], "petit_au_bout": "attack",
"slam_announced": false, "slam": null}``
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

from .i18n import gettext_noop
from .shown import shown
from .types import Camp, Contract, Deal, DealError, DealResult, Handful, HandfulSize, InvalidDeal

MESSAGES: dict[str, str] = {
    "input.required": gettext_noop("This field is required."),
    "input.integer": gettext_noop("Expected a whole number, got {value}."),
    "input.number": gettext_noop("Expected a number of points such as 40 or 40.5, got {value}."),
    "input.choice": gettext_noop("Expected one of {choices}, got {value}."),
    "input.boolean": gettext_noop("Expected true or false, got {value}."),
    "input.handfuls": gettext_noop(
        'Expected a list of handfuls such as [{{"seat": 0, "size": "simple"}}].'
    ),
    "input.object": gettext_noop("A deal is a JSON object, got {value}."),
    "input.too_large": gettext_noop("{value} is far too large for this field."),
    "input.json": gettext_noop("The input is not JSON: {reason}."),
    "input.too_deep": gettext_noop("The input is nested too deeply to be a deal."),
}

# Whole numbers of more digits than this are read as too large (Python itself refuses to read
# an integer of more than 4,300 digits from text); text is digits in ASCII only ("²" is no 2).
MAX_INTEGER_DIGITS = 18
_INTEGER_TEXT = re.compile(rf"\s*-?[0-9]{{1,{MAX_INTEGER_DIGITS}}}\s*", re.ASCII)


def _bounded_int(text: str) -> int | Decimal:
    """JSON integers: an int when it has a sensible size, otherwise its exact Decimal, which
    every field refuses as too large (with a short message) instead of a traceback."""
    return int(text) if len(text) <= MAX_INTEGER_DIGITS + 1 else Decimal(text)


class JSONInputError(ValueError):
    """The input is not JSON a deal reader can take: ``code`` and ``params`` of MESSAGES."""

    def __init__(self, code: str, **params):
        super().__init__(MESSAGES[code].format(**params))
        self.code = code
        self.params = params


def parse_json(text: str) -> Any:
    """Read JSON as :func:`deal_from_dict` expects it: huge integers come as Decimals (refused
    by the field that gets them; ``NaN`` is refused by the fields too). Raises
    :class:`JSONInputError` for input that is not JSON or is nested too deeply."""
    try:
        return json.loads(text, parse_int=_bounded_int)
    except RecursionError:
        raise JSONInputError("input.too_deep") from None
    except json.JSONDecodeError as error:
        raise JSONInputError("input.json", reason=error.msg + f" (line {error.lineno})") from None


class _Reader:
    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.errors: list[DealError] = []

    def fail(self, field: str, code: str, **params) -> None:
        message = MESSAGES[code].format(**params)
        self.errors.append(DealError(field=field, code=code, message=message, params=params))

    def integer(self, field: str, *, optional: bool = False) -> int | None:
        value = self.data.get(field)
        if value is None:
            if not optional:
                self.fail(field, "input.required")
            return None
        if isinstance(value, str) and _INTEGER_TEXT.fullmatch(value):
            return int(value)
        if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
            self.fail(field, "input.too_large", value=shown(value))  # from parse_json
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, "input.integer", value=shown(value))
            return None
        if value.bit_length() > 60:
            self.fail(field, "input.too_large", value=shown(value))
            return None
        return value

    def choice(self, field: str, enum, *, optional: bool = False):
        value = self.data.get(field)
        if value is None:
            if not optional:
                self.fail(field, "input.required")
            return None
        try:
            return enum(value)
        except ValueError:
            choices = ", ".join(e.value for e in enum)
            self.fail(field, "input.choice", choices=choices, value=shown(value))
            return None

    def points(self, field: str) -> Decimal | None:
        value = self.data.get(field)
        if value is None:
            self.fail(field, "input.required")
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
            self.fail(field, "input.number", value=shown(value))
            return None
        try:
            exact = isinstance(value, int | Decimal)
            number = Decimal(value if exact else str(value).strip().replace(",", "."))
        except InvalidOperation:
            self.fail(field, "input.number", value=shown(value))
            return None
        if not number.is_finite():
            self.fail(field, "input.number", value=shown(value))
            return None
        return number

    def boolean(self, field: str) -> bool:
        value = self.data.get(field, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            self.fail(field, "input.boolean", value=repr(value))
            return False
        return value

    def handfuls(self, field: str) -> tuple[Handful, ...]:
        value = self.data.get(field) or []
        if not isinstance(value, list):
            self.fail(field, "input.handfuls")
            return ()
        handfuls = []
        for item in value:
            if not isinstance(item, dict):
                self.fail(field, "input.handfuls")
                return ()
            sub = _Reader(item)
            seat = sub.integer("seat")
            size = sub.choice("size", HandfulSize)
            self.errors.extend(replace(error, field=field) for error in sub.errors)
            if seat is not None and size is not None:
                handfuls.append(Handful(seat=seat, size=size))
        return tuple(handfuls)


def deal_from_dict(data: Any) -> Deal:
    """Read a deal from its JSON form; raise :class:`InvalidDeal` listing every unreadable field."""
    if not isinstance(data, dict):
        reader = _Reader({})
        reader.fail("deal", "input.object", value=type(data).__name__)
        raise InvalidDeal(reader.errors)
    reader = _Reader(data)
    players = reader.integer("players")
    taker = reader.integer("taker")
    partner = reader.integer("partner", optional=True)
    contract = reader.choice("contract", Contract)
    oudlers = reader.integer("oudlers")
    points = reader.points("points")
    handfuls = reader.handfuls("handfuls")
    petit_au_bout = reader.choice("petit_au_bout", Camp, optional=True)
    slam_announced = reader.boolean("slam_announced")
    slam = reader.choice("slam", Camp, optional=True)
    if reader.errors:
        raise InvalidDeal(reader.errors)
    return Deal(
        players=players,
        taker=taker,
        partner=partner,
        contract=contract,
        oudlers=oudlers,
        points=points,
        handfuls=handfuls,
        petit_au_bout=petit_au_bout,
        slam_announced=slam_announced,
        slam=slam,
    )


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    points = deal.points
    return {
        "players": deal.players,
        "taker": deal.taker,
        "partner": deal.partner,
        "contract": str(deal.contract),
        "oudlers": deal.oudlers,
        "points": int(points) if points == points.to_integral_value() else str(points),
        "handfuls": [{"seat": h.seat, "size": str(h.size)} for h in deal.handfuls],
        "petit_au_bout": str(deal.petit_au_bout) if deal.petit_au_bout else None,
        "slam_announced": deal.slam_announced,
        "slam": str(deal.slam) if deal.slam else None,
    }


def result_to_dict(result: DealResult) -> dict[str, Any]:
    return {"scores": list(result.scores), "explanation": result.explanation.as_dict()}


def errors_to_dict(errors: list[DealError]) -> dict[str, Any]:
    return {"errors": [{"field": e.field, "code": e.code, "message": e.message} for e in errors]}


__all__ = [
    "JSONInputError",
    "deal_from_dict",
    "deal_to_dict",
    "errors_to_dict",
    "parse_json",
    "result_to_dict",
]

"""Reading back the formulas of the score-sheet workbook (:mod:`scoring.documents.xlsx`).

The workbook stores no cached value with a formula: :func:`evaluate_cell` recomputes the formula
forms it writes on a workbook read back with openpyxl, so tests, and anyone who doubts a file,
can check them against the app's numbers. Plain Python: no Django import.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.worksheet.worksheet import Worksheet

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<str>\"(?:[^\"]|\"\")*\")|"
    r"(?P<range>\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+)|(?P<ref>\$?[A-Z]{1,3}\$?\d+)|"
    r"(?P<func>[A-Z]+)\(|(?P<op>[-+=(),]))"
)


def evaluate_cell(ws: Worksheet, coordinate: str, _seen: frozenset[str] = frozenset()) -> Any:
    """The value of a cell, computing the formulas the score-sheet workbook writes.

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

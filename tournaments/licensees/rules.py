"""The licensee list's file rules (pure Python): which column holds what, and what each line
must hold. Problems are codes with their values; the app says them in the user's language
(:mod:`tournaments.licensees.messages`).

A line needs a licence (digits and letters, no space inside) and a last name; the first name,
club and série are optional texts within their limits; the sex is F or M (« Femme », « Dame »,
« H », « Homme » read too), or empty; the year of birth four digits between 1900 and this year,
or empty. A licence twice in the file names both lines. Each value has one problem at most (a
control character, else a wrong licence, else too long), and a wrong licence is never also
called a duplicate: a bad line reads as one message with each of its distinct problems.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

FIELDS = ("licence", "last_name", "first_name", "club", "series", "sex", "birth_year")
REQUIRED = ("licence", "last_name")

ALIASES = {
    "licence": {
        "licence",
        "license",
        "n licence",
        "no licence",
        "numero de licence",
        "licence fft",
    },
    "last_name": {"nom", "last name", "surname", "nom de famille", "name"},
    "first_name": {"prenom", "first name", "given name"},
    "club": {"club", "nom du club", "club name"},
    "series": {"serie", "series", "classement", "division"},
    "sex": {"sexe", "sex", "genre", "gender", "h/f", "f/h"},
    "birth_year": {
        "annee de naissance",
        "annee naissance",
        "ne en",
        "naissance",
        "birth year",
        "year of birth",
        "annee",
    },
}

SEXES = {
    "f": "F",
    "femme": "F",
    "dame": "F",
    "w": "F",
    "woman": "F",
    "m": "M",
    "h": "M",
    "homme": "M",
    "man": "M",
}

_LICENCE = re.compile(r"^[0-9A-Za-z][0-9A-Za-z./-]*$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def fold(text: str) -> str:
    """Lower case, without accents or punctuation, single spaces: how headers and names are
    compared."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = re.sub(r"[^0-9a-z/]+", " ", text)
    return " ".join(text.split())


def guess_mapping(header: Sequence[str]) -> dict[str, int | None]:
    """Each field's column (its index in ``header``), from the usual names; None when no
    column looks like it."""
    folded = [fold(h) for h in header]
    mapping: dict[str, int | None] = {}
    taken: set[int] = set()
    for name in FIELDS:
        found = next(
            (i for i, h in enumerate(folded) if i not in taken and h in ALIASES[name]), None
        )
        if found is not None:
            taken.add(found)
        mapping[name] = found
    return mapping


@dataclass(frozen=True)
class Limits:
    licence: int = 20
    name: int = 80
    club: int = 120
    series: int = 30


@dataclass
class Line:
    number: int
    values: dict = field(default_factory=dict)
    problems: list[tuple[str, dict]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def mapping_problems(mapping: Mapping[str, int | None], width: int) -> list[tuple[str, dict]]:
    """A required field without a column, a column out of the file, or one column for two
    fields."""
    problems = []
    for name in REQUIRED:
        if mapping.get(name) is None:
            problems.append(("unmapped", {"field": name}))
    used: dict[int, str] = {}
    for name in FIELDS:
        column = mapping.get(name)
        if column is None:
            continue
        if not 0 <= column < width:
            problems.append(("no_column", {"field": name, "column": column}))
        elif column in used:
            problems.append(("same_column", {"field": name, "other": used[column]}))
        else:
            used[column] = name
    return problems


def read_line(
    number: int, cells: Sequence[str], mapping: Mapping[str, int | None], *, year: int, limits
) -> Line:
    """One line's values and problems (``year``: this year, the latest year of birth)."""
    line = Line(number)

    def cell(name: str) -> str:
        column = mapping.get(name)
        if column is None or column >= len(cells):
            return ""
        return " ".join(str(cells[column]).split())

    for name, limit in (
        ("licence", limits.licence),
        ("last_name", limits.name),
        ("first_name", limits.name),
        ("club", limits.club),
        ("series", limits.series),
    ):
        text = cell(name)
        line.values[name] = text
        if _CONTROL.search(text):
            line.problems.append(("control", {"field": name}))
        elif name == "licence" and text and not _LICENCE.match(text.replace(" ", "")):
            # one problem per value: a licence with a wrong character is not a licence,
            # whatever its length
            line.problems.append(("bad_licence", {"value": text.replace(" ", "")[:30]}))
        elif len(text) > limit:
            line.problems.append(("too_long", {"field": name, "limit": limit}))
    licence = line.values["licence"].replace(" ", "")
    line.values["licence"] = licence
    if not licence:
        line.problems.append(("missing", {"field": "licence"}))
    if not line.values["last_name"]:
        line.problems.append(("missing", {"field": "last_name"}))
    sex = cell("sex")
    line.values["sex"] = (SEXES.get(sex.lower()) or SEXES.get(fold(sex))) if sex else ""
    if line.values["sex"] is None:
        line.problems.append(("bad_sex", {"value": sex[:20]}))
        line.values["sex"] = ""
    born = cell("birth_year")
    line.values["birth_year"] = None
    if born:
        digits = born[:-2] if born.endswith(".0") else born  # a number cell of a spreadsheet
        if not (digits.isdigit() and len(digits) == 4 and 1900 <= int(digits) <= year):
            line.problems.append(("bad_year", {"value": born[:20], "year": year}))
        else:
            line.values["birth_year"] = int(digits)
    return line


def read_lines(
    rows: Iterable[Sequence[str]],
    mapping: Mapping[str, int | None],
    *,
    year: int,
    limits=Limits(),
    first_line: int = 2,
) -> list[Line]:
    """Every line of the file after its header (``first_line``: the number of the first one),
    blank lines skipped; a licence twice names the line where it was first."""
    lines = []
    seen: dict[str, int] = {}
    for number, cells in enumerate(rows, start=first_line):
        if not any(str(c).strip() for c in cells):
            continue
        line = read_line(number, cells, mapping, year=year, limits=limits)
        licence = line.values["licence"]
        if licence and not _problem_of(line, "licence"):  # a wrong licence is said once
            if licence in seen:
                line.problems.append(("duplicate", {"licence": licence, "line": seen[licence]}))
            else:
                seen[licence] = number
        lines.append(line)
    return lines


def _problem_of(line: Line, name: str) -> bool:
    return any(
        params.get("field") == name or code == f"bad_{name}" for code, params in line.problems
    )


def differences(listed: Mapping[str, str], registered: Mapping[str, str]) -> list[str]:
    """The fields (last_name, first_name, club) where a registration differs from the list,
    ignoring case, accents and punctuation; an empty field of the registration differs only
    for the last name."""
    out = []
    for name in ("last_name", "first_name", "club"):
        ours, theirs = fold(registered.get(name, "")), fold(listed.get(name, ""))
        if ours != theirs and (ours or name == "last_name"):
            out.append(name)
    return out

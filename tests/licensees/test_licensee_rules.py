"""The licensee list's file rules (pure): columns guessed from the usual headers, every line's
problems, a licence twice, and what counts as a differing name or club."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.licensees.messages import problem_text
from tournaments.licensees.rules import (
    Limits as RuleLimits,
)
from tournaments.licensees.rules import (
    differences,
    fold,
    guess_mapping,
    mapping_problems,
    read_line,
    read_lines,
)

HEADER = ["N° Licence", "Nom", "Prénom", "Club", "Série", "Sexe", "Année de naissance"]
MAPPING = {
    "licence": 0,
    "last_name": 1,
    "first_name": 2,
    "club": 3,
    "series": 4,
    "sex": 5,
    "birth_year": 6,
}


def test_the_fft_headers_are_recognised():
    assert guess_mapping(HEADER) == MAPPING
    assert guess_mapping(["Sexe", "NOM", "licence"]) == {
        "licence": 2,
        "last_name": 1,
        "first_name": None,
        "club": None,
        "series": None,
        "sex": 0,
        "birth_year": None,
    }


def test_a_mapping_needs_the_licence_and_the_name_in_distinct_columns():
    assert mapping_problems(MAPPING, 7) == []
    assert mapping_problems({**MAPPING, "licence": None}, 7) == [("unmapped", {"field": "licence"})]
    assert mapping_problems({**MAPPING, "club": 9}, 7) == [
        ("no_column", {"field": "club", "column": 9})
    ]
    assert mapping_problems({**MAPPING, "club": 1}, 7) == [
        ("same_column", {"field": "club", "other": "last_name"})
    ]


def test_a_good_line_is_read_clean():
    line = read_line(
        2,
        ["08 123456", " Dupont ", "Marie", "TC Lyon", "1re série", "Femme", "1961"],
        MAPPING,
        year=2026,
        limits=RuleLimits(),
    )
    assert line.ok
    assert line.values == {
        "licence": "08123456",
        "last_name": "Dupont",
        "first_name": "Marie",
        "club": "TC Lyon",
        "series": "1re série",
        "sex": "F",
        "birth_year": 1961,
    }


@pytest.mark.parametrize(
    ("cells", "problem"),
    [
        (["", "Dupont", "", "", "", "", ""], ("missing", {"field": "licence"})),
        (["123", "", "", "", "", "", ""], ("missing", {"field": "last_name"})),
        (["12#3", "Dupont", "", "", "", "", ""], ("bad_licence", {"value": "12#3"})),
        (["123", "Dupont", "", "", "", "X", ""], ("bad_sex", {"value": "X"})),
        (["123", "Dupont", "", "", "", "", "1850"], ("bad_year", {"value": "1850", "year": 2026})),
        (["123", "Dupont", "", "", "", "", "2027"], ("bad_year", {"value": "2027", "year": 2026})),
        (["123", "Dupont", "", "", "", "", "61"], ("bad_year", {"value": "61", "year": 2026})),
        (["123", "D" * 81, "", "", "", "", ""], ("too_long", {"field": "last_name", "limit": 80})),
        (["123", "Du\x00pont", "", "", "", "", ""], ("control", {"field": "last_name"})),
    ],
)
def test_each_bad_value_is_named(cells, problem):
    line = read_line(7, cells, MAPPING, year=2026, limits=RuleLimits())
    assert problem in line.problems


def test_sexes_and_spreadsheet_years_are_read():
    for text, sex in [("F", "F"), ("dame", "F"), ("H", "M"), ("homme", "M"), ("M", "M"), ("", "")]:
        line = read_line(
            2, ["1", "A", "", "", "", text, "1990.0"], MAPPING, year=2026, limits=RuleLimits()
        )
        assert line.ok and line.values["sex"] == sex and line.values["birth_year"] == 1990


def test_a_licence_twice_names_its_first_line_and_blank_lines_are_skipped():
    rows = [["1", "A"], [], ["2", "B"], ["1", "C"]]
    lines = read_lines(rows, {"licence": 0, "last_name": 1}, year=2026)
    assert [line.number for line in lines] == [2, 4, 5]
    assert lines[2].problems == [("duplicate", {"licence": "1", "line": 2})]


def test_differences_ignore_case_accents_and_an_empty_club():
    listed = {"last_name": "Lefèvre", "first_name": "Chloé", "club": "Tarot Club de Lyon"}
    assert differences(listed, {"last_name": "LEFEVRE", "first_name": "chloe", "club": ""}) == []
    assert differences(listed, {"last_name": "Lefebvre", "first_name": "Chloé", "club": ""}) == [
        "last_name"
    ]
    assert differences(
        listed, {"last_name": "Lefèvre", "first_name": "", "club": "TC Villeurbanne"}
    ) == ["club"]


@given(st.text(max_size=30))
def test_fold_is_idempotent_and_ignores_case(text):
    assert fold(fold(text)) == fold(text)
    assert fold(text.upper()) == fold(text.lower()) or not text.isascii()


@pytest.mark.parametrize(
    ("cells", "problems"),
    [
        # a control character in the licence: said once, not also « not a licence number »
        (["12\x013", "Dupont"], [("control", {"field": "licence"})]),
        # a long licence with wrong characters: not a licence number (its length is moot)
        (["#" * 25, "Dupont"], [("bad_licence", {"value": "#" * 25})]),
        # a long licence of good characters: too long only
        (["1" * 25, "Dupont"], [("too_long", {"field": "licence", "limit": 20})]),
    ],
)
def test_each_value_has_one_problem_at_most(cells, problems):
    line = read_line(7, cells, {"licence": 0, "last_name": 1}, year=2026, limits=RuleLimits())
    assert line.problems == problems


def test_a_wrong_licence_twice_is_not_also_a_duplicate():
    rows = [["1#", "A"], ["1#", "B"], ["9" * 25, "C"], ["9" * 25, "D"]]
    lines = read_lines(rows, {"licence": 0, "last_name": 1}, year=2026)
    assert [line.problems for line in lines] == [
        [("bad_licence", {"value": "1#"})],
        [("bad_licence", {"value": "1#"})],
        [("too_long", {"field": "licence", "limit": 20})],
        [("too_long", {"field": "licence", "limit": 20})],
    ]
    # several distinct problems of one line are all named, once each
    both = read_lines([["", "", "", "", "", "X", "1850"]], MAPPING, year=2026)[0]
    assert [code for code, _params in both.problems] == [
        "missing",
        "missing",
        "bad_sex",
        "bad_year",
    ]


CELL = st.sampled_from(["", "12345", "1#", "1" * 25, "12\x013", "Dupont", "x" * 70, "Z", "1850"])


@settings(max_examples=150)
@given(st.lists(st.lists(CELL, min_size=7, max_size=7), min_size=1, max_size=6))
def test_a_bad_line_names_each_of_its_problems_once(rows):
    """The preview shows a bad line's messages as the rules give them (no second sorting out):
    whatever the line, each of its values has one problem at most and no message repeats."""
    for line in read_lines(rows, MAPPING, year=2026):
        values = [params.get("field", code) for code, params in line.problems]
        assert len(values) == len(set(values)), line.problems
        texts = [problem_text(code, params) for code, params in line.problems]
        assert len(texts) == len(set(texts)), texts

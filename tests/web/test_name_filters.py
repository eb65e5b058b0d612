"""The template filters and tags for names and labels: narrow columns, colons by language."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.templatetags.tarot import SOFT_HYPHEN, number_ranges, short_name, soft_hyphens


def test_a_long_name_gets_soft_hyphens_between_its_syllables() -> None:
    assert soft_hyphens("J. Vandenberghe") == "J. Van\u00adden\u00adber\u00adghe"
    assert soft_hyphens("M. Delacroix-Montmorency").replace(SOFT_HYPHEN, "|") == (
        "M. De|la|croix-Mont|mo|ren|cy"
    )


def test_a_name_that_fits_is_left_alone() -> None:
    for name in ("L. Martin", "É. Leroy", "C. Dubois", "Nguyen", ""):
        assert soft_hyphens(name) == name


@given(st.text())
def test_the_name_reads_the_same_without_its_soft_hyphens(name: str) -> None:
    assert soft_hyphens(name).replace(SOFT_HYPHEN, "") == name.replace(SOFT_HYPHEN, "")


def test_short_name_keeps_the_initial_and_the_whole_last_name() -> None:
    assert short_name("Marie-Christine Delacroix-Montmorency") == "M. Delacroix-Montmorency"
    assert short_name("Anne") == "Anne"


def test_a_label_takes_its_colon_the_way_each_language_writes_it() -> None:
    from django.template import Context, Template
    from django.utils import translation

    template = Template('{% load i18n tarot %}{% translate "Dealer" %}{% colon %} Léa')
    with translation.override("fr"):
        assert template.render(Context()) == "Donneur : Léa"
    with translation.override("en"):
        assert template.render(Context()) == "Dealer: Léa"


@pytest.mark.parametrize(
    ("numbers", "text"),
    [
        ([], ""),
        ([4], "4"),
        ([2, 1], "1, 2"),
        ([1, 2, 3], "1\u20133"),
        ([1, 2, 4, 5, 6, 7, 11, 12, 13, 14, 15, 16, 17], "1, 2, 4\u20137, 11\u201317"),
        ([9, 1, 3, 5], "1, 3, 5, 9"),
    ],
)
def test_number_ranges_names_every_number(numbers, text):
    assert number_ranges(numbers) == text

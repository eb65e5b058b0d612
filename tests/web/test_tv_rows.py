"""The TV's standings rows, written in Python for a 3,000-player field (``scoring/tv_rows.py``),
read as the template loop they replace did: the same markup, every name escaped."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import translation

from scoring.tv_rows import tv_rows_html

# The template loop the TV used (templates/public/tv.html, until the rows were written in Python).
LOOP = Template(
    "{% load i18n tarot %}{% for row in rows %}"
    '<li class="tv-row{% if row.cut %} cut-line{% endif %}" data-id="{{ row.id }}">'
    '<span class="tv-rank">{{ row.rank|rank:row.tied }}</span><span class="tv-name">{{ row.name }}'
    '{% if row.namesake_club %} <span class="tv-namesake">({{ row.namesake_club }})</span>'
    '{% endif %}</span><span class="tv-club">{{ row.club }}</span><span class="tv-total">'
    '{{ row.total }}</span>{% if row.cut %}<span class="tv-cut">'
    '{% translate "Qualification line" %}</span>{% endif %}</li>{% empty %}'
    '<li class="tv-empty">{% translate "No result yet." %}</li>{% endfor %}'
)

ROWS = [
    {
        "rank": 1,
        "tied": False,
        "id": 7,
        "name": "Léa <Mercier>",
        "club": "Tarot & Co",
        "namesake_club": "",
        "total": 1520,
    },
    {
        "rank": 2,
        "tied": True,
        "id": 9,
        "name": 'Jean "JJ" Roux',
        "club": "Dole",
        "namesake_club": "Dole",
        "total": 0,
    },
    {
        "rank": 2,
        "tied": True,
        "id": 11,
        "name": "Jean Roux (forfait)",
        "club": "Besançon",
        "namesake_club": "Besançon",
        "total": -37,
        "cut": True,
    },
    {
        "rank": 4,
        "tied": False,
        "id": 3,
        "name": "O'Neil",
        "club": "",
        "namesake_club": "",
        "total": -12040,
    },
]


def _items(html: str) -> list[str]:
    return re.findall(r"<li.*?</li>", str(html))


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("rows", [ROWS, []], ids=["field", "empty"])
def test_the_tvs_rows_read_as_the_template_wrote_them(rows, language):
    with translation.override(language):
        expected = LOOP.render(Context({"rows": rows}))
        written = tv_rows_html(rows)
    assert _items(written) == _items(expected)
    assert len(_items(written)) == max(1, len(rows))


def test_a_name_is_text_never_markup():
    written = str(tv_rows_html(ROWS))
    assert "<Mercier>" not in written and "&lt;Mercier&gt;" in written
    assert "Tarot &amp; Co" in written

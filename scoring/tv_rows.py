"""The TV's standings rows written in Python.

The room's screen scrolls through the whole field: a template loop over the 3,000 rows of a
national event took about 300 ms of a 365 ms render (``bench/revalidate.py``'s field, quiet
machine), and the TV is rendered again with every sheet that starts to count. The same markup
as the template's loop, every text escaped as Django escapes it (Python's ``html.escape``
gives the same five entities, faster), as ``category_rows_html`` does for the category pages.
"""

from __future__ import annotations

from html import escape

from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.ranking import rank_label


def tv_rows_html(rows: list[dict]) -> SafeString:
    """The ``<li>`` of each standings row (``scoring.tables.standings_rows``, with the cut line
    a championship's stage marks), or the empty list's line."""
    if not rows:
        return mark_safe(f'<li class="tv-empty">{_("No result yet.")}</li>')
    cut_label = _("Qualification line")  # our own translation, as the template wrote it
    parts = []
    for row in rows:
        cut = row.get("cut")
        namesake = (
            f' <span class="tv-namesake">({escape(row["namesake_club"])})</span>'
            if row.get("namesake_club")
            else ""
        )
        parts.append(
            f'<li class="tv-row{" cut-line" if cut else ""}" data-id="{row["id"]}">'
            f'<span class="tv-rank">{rank_label(row["rank"], bool(row["tied"]))}</span>'
            f'<span class="tv-name">{escape(row["name"])}{namesake}</span>'
            f'<span class="tv-club">{escape(row["club"])}</span>'
            f'<span class="tv-total">{_number(row["total"])}</span>'
            + (f'<span class="tv-cut">{cut_label}</span>' if cut else "")
            + "</li>"
        )
    return mark_safe("\n      ".join(parts))  # every text but our translations is escaped


def _number(value) -> str:
    """A total as the template wrote it (no thousands separator is set: an integer as is)."""
    return str(value) if type(value) is int else escape(localize(value))

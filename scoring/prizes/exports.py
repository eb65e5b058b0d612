"""What the standings' exports and the TV screen add of the prize list: each category's
standings and the prize list, as sections of the exports (:mod:`scoring.views.exports`)."""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _

from scoring.documents.data import StandingsSection
from scoring.prizes.selectors import category_standings, prize_list

TV_ROWS = 30  # places of each category on the room's screen


def _headers() -> list[str]:
    return [_("Rank"), _("Player"), _("Club"), _("Scratch rank"), _("Total")]


def category_sections(tournament, data) -> list[StandingsSection]:
    """Each category's standings as a section of the standings' exports."""
    return [
        StandingsSection(
            title=_("Category: %(name)s") % {"name": category.label},
            headers=_headers(),
            rows=[[r.shown_rank, r.name, r.club, r.scratch_rank, r.total] for r in category.rows],
        )
        for category in category_standings(tournament, data)
    ]


def prize_headers() -> list[str]:
    return [_("Category"), _("Place"), _("Prize"), _("Player"), _("Club"), _("Scratch rank")]


def prize_rows(prizes) -> list[list]:
    return [
        [
            line.category,
            line.place,
            line.description or None,
            line.winner.name if line.winner else _("(not awarded)"),
            line.winner.club if line.winner else None,
            line.winner.scratch_rank if line.winner else None,
        ]
        for line in prizes.lines
    ]


def export_sections(tournament, data) -> list[StandingsSection]:
    """What the standings' exports add: each category's standings, then the prize list."""
    sections = category_sections(tournament, data)
    prizes = prize_list(tournament, data)
    if prizes.lines:
        sections.append(
            StandingsSection(
                title=_("Prize list") + " — " + prizes.rule,
                headers=prize_headers(),
                rows=prize_rows(prizes),
            )
        )
    return sections


def tv_categories(tournament, data) -> list:
    """The categories the TV shows in turn after the scratch standings: those with players,
    each with its first ``TV_ROWS`` places (the room reads the top of a category; the whole
    of it is on the phones' page)."""
    return [
        replace(c, rows=c.rows[:TV_ROWS]) for c in category_standings(tournament, data) if c.rows
    ]

"""Scoring's answer to the championships: a stage tournament's standings (the championships
package lives in the tournaments layer and may not import scoring; see its ``signals.py``)."""

from __future__ import annotations

from django.dispatch import receiver
from django.utils.translation import gettext as _

from scoring.documents.data import StandingsSection
from scoring.standings import current_standings_of
from tournaments.championships.selectors import cut_line_of
from tournaments.championships.signals import standings_wanted


@receiver(standings_wanted)
def stage_standings(sender, *, tournaments, **kwargs):
    return {pk: data.standings() for pk, data in current_standings_of(tournaments).items()}


def stage_marks(tournament):
    """For a stage of a championship: what its standings show of the cut (None otherwise)."""
    return cut_line_of(tournament)


def mark_rows(rows: list[dict], marks) -> list[tuple[str, object]]:
    """Each row says whether the player goes on as things stand (``qualified``), the last
    qualifier's row carries the cut line (``cut``), and ``carried`` the points carried from
    the previous stage; returns the columns to add to the standings table."""
    if marks is None:
        return []
    for row in rows:
        row["qualified"] = _("Q") if row["id"] in marks["qualified"] else ""
        row["cut"] = row["id"] == marks["last_in"]
        row["carried"] = row.get("carried", "")
    columns = [("qualified", _("Qualified"))]
    if marks["has_carried"]:
        columns.insert(0, ("carried", _("Carried")))
    return columns


def stage_section(marks) -> StandingsSection:
    """The cut and the carried points in words, for every export of a stage's standings."""
    lines = [marks["cut"], marks["carry"], *marks["ties"]]
    return StandingsSection(
        title=f"{marks['championship'].name} — {marks['stage'].name}",
        headers=[str(_("Rule"))],
        rows=[[str(line)] for line in lines],
    )

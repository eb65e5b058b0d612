"""A deal's change as the public pages see it (``scoring/page_versions.py``)."""

from __future__ import annotations

from django.db.models import Case, F, When
from django.utils import timezone

from scoring.models import ScoreSheet
from scoring.standings import sheet_counts
from tournaments.models import Round, Tournament
from tournaments.services import tournament_touch


def sheet_touch(*, sheet: ScoreSheet, status_before: str) -> None:
    """A deal was entered, corrected or removed on ``sheet`` (saved by ``refresh_status``),
    inside its transaction. When the sheet counted before or counts now, the standings change:
    the whole tournament is touched. Otherwise only the sheet's players' pages change: the
    tournament's ``changed_at`` moves, marked local, and its shared version stays."""
    tournament_id = sheet.table.round.tournament_id
    closed = sheet.table.round.status == Round.Status.CLOSED
    if sheet_counts(status_before, closed) or sheet_counts(sheet.status, closed):
        tournament_touch(tournament_id=tournament_id)
        return
    now = timezone.now()
    # One statement, whose right-hand sides read the row as it was: the shared version kept
    # is the last change that was not local (already kept if the last change was local).
    Tournament.objects.filter(pk=tournament_id).update(
        shared_changed_at=Case(
            When(changed_at=F("local_changed_at"), then=F("shared_changed_at")),
            default=F("changed_at"),
        ),
        changed_at=now,
        local_changed_at=now,
    )

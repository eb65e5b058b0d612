"""A deal's change as the public pages see it (``scoring/page_versions.py``)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Case, Count, F, Subquery, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import ScoreSheet, SharedPublication
from scoring.standings import sheet_counts
from tournaments.models import Registration, Round, Tournament
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


def shared_publish(
    *,
    tournament_id: int,
    read_at: datetime | None,
    previous: datetime,
    current: datetime,
    published_at: datetime,
) -> bool:
    """Publish ``current`` as the shared version per-reader pages adopt, ``previous`` as the one
    they see until their phase (``scoring.page_versions.seen_by``), unless another reader
    published since the row was read (its ``published_at`` was ``read_at``; None: there was no
    row). One statement decides: of concurrent readers one wins, the others read its values on
    their next request. True when this one published (or made the first row: concurrent
    first readers all publish the live version, one row is kept)."""
    if read_at is None:  # the first publication: made once, whoever wins it
        players = Registration.objects.filter(tournament_id=tournament_id).count()
        SharedPublication.objects.bulk_create(
            [
                SharedPublication(
                    tournament_id=tournament_id,
                    previous=previous,
                    current=current,
                    published_at=published_at,
                    players=players,
                )
            ],
            ignore_conflicts=True,
        )
        return True
    players = (
        Registration.objects.filter(tournament_id=tournament_id)
        .order_by()
        .values("tournament_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    won = SharedPublication.objects.filter(
        tournament_id=tournament_id, published_at=read_at
    ).update(
        previous=previous,
        current=current,
        published_at=published_at,
        players=Coalesce(Subquery(players), 0),
    )
    return won == 1

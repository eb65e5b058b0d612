"""Page versions finer than the tournament's last change (issue 28).

``Tournament.changed_at`` moves with every change to anything public: every cached page of the
tournament is a new version after it. During play most changes are one deal entered on a sheet
that does not count yet (its table has not played every deal): the standings, the TV and every
other player's page are unchanged by it, yet with 3,000 phones polling their own page, each deal
made every phone miss the cache and every page render again (``bench/scale.py``).

So a deal on a sheet not counted yet (``scoring.services.versions.sheet_touch``) moves
``changed_at`` (the pages keyed on it are unchanged) and marks the change as local: it sets
``local_changed_at`` to the same instant and keeps, in ``shared_changed_at``, the last change
that was not local. Any other change moves only ``changed_at`` (``tournament_touch``, a saved
tournament), so the two differ again. Hence:

- :func:`shared_version`: the last change of anything but a deal on a sheet not counted yet —
  the version of the standings, the TV and the standings computation (``scoring.standings``);
- :func:`player_version`: a player's own page, which shows their tables' deals too: the shared
  version with the latest change of their sheets (a sheet row is saved with every deal).

A deal on a counted sheet (a correction of a complete sheet, or in a closed round) moves every
version: it changes the standings.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Max, OuterRef, Subquery

from scoring.models import ScoreSheet
from tournaments.models import Tournament


def shared_changed_at(tournament: Tournament) -> datetime:
    """The last change of anything public but a deal on a sheet not counted yet."""
    local = tournament.local_changed_at
    if local is not None and local == tournament.changed_at and tournament.shared_changed_at:
        return tournament.shared_changed_at
    return tournament.changed_at


def shared_version(tournament: Tournament) -> str:
    """The version of the pages that show only counted results (standings, TV)."""
    return f"{tournament.pk}-{shared_changed_at(tournament).timestamp():.6f}"


def _player_sheets(registration_id: int, tournament):
    return ScoreSheet.objects.filter(
        table__seats__registration_id=registration_id, table__round__tournament_id=tournament
    ).order_by("-updated_at")


def player_annotations(*, registration_id: int) -> dict:
    """What the tournament's own query reads for :func:`player_version` (so that a phone's
    conditional request is answered with that one query)."""
    latest = _player_sheets(registration_id, OuterRef("pk")).values("updated_at")[:1]
    return {"player_sheets_at": Subquery(latest)}


def player_version(tournament: Tournament, registration_id: int) -> str:
    """The version of one player's own page: the shared version and the last change of their
    sheets (a sheet row is saved with every deal), read with the tournament
    (:func:`player_annotations`) or here."""
    if hasattr(tournament, "player_sheets_at"):
        latest = tournament.player_sheets_at
    else:
        latest = _player_sheets(registration_id, tournament.pk).aggregate(latest=Max("updated_at"))[
            "latest"
        ]
    sheets = f"{latest.timestamp():.6f}" if latest else "0"
    return f"{shared_version(tournament)}-p{registration_id}-{sheets}"

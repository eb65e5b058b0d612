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

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection

from scoring.models import ScoreSheet
from tournaments.models import Round, Seat, Table, Tournament


@dataclass(frozen=True)
class Stamp:
    """What a public page's version is made of, read in one light statement (:func:`stamp_of`):
    a phone's conditional request is answered from it alone (``scoring/public_answers.py``)."""

    pk: int
    rounds: int
    changed_at: datetime
    local_changed_at: datetime | None
    shared_changed_at: datetime | None
    #: the last change of one player's sheets (asked with ``registration_id``), or None
    player_sheets_at: datetime | None = None


def _sql(with_player: bool) -> str:
    tournament = Tournament._meta.db_table
    columns = "t.id, t.rounds, t.changed_at, t.local_changed_at, t.shared_changed_at"
    if with_player:
        # The last change of the sheets of the tables where the player sits (every deal saves
        # its sheet row, ``updated_at``).
        columns += (
            f", (SELECT MAX(s.updated_at) FROM {ScoreSheet._meta.db_table} s"
            f" JOIN {Table._meta.db_table} tb ON tb.id = s.table_id"
            f" JOIN {Round._meta.db_table} r ON r.id = tb.round_id"
            f" JOIN {Seat._meta.db_table} se ON se.table_id = tb.id"
            " WHERE se.registration_id = %s AND r.tournament_id = t.id)"
        )
    # Only table names are formatted in: the values are parameters.
    return f"SELECT {columns} FROM {tournament} t WHERE t.slug = %s"


_SQL = {with_player: _sql(with_player) for with_player in (False, True)}


def stamp_of(slug: str, *, registration_id: int | None = None) -> Stamp | None:
    """The tournament's stamp (None: no such tournament); with ``registration_id``, that
    player's last sheet change too. Plain SQL: building the same query through the ORM cost
    more than the rest of a 304 (``bench/revalidate.py``)."""
    with_player = registration_id is not None
    params = [registration_id, slug] if with_player else [slug]
    with connection.cursor() as cursor:
        cursor.execute(_SQL[with_player], params)
        row = cursor.fetchone()
    if row is None:
        return None
    pk, rounds, changed, local, shared, *player = row
    return Stamp(
        pk=pk,
        rounds=rounds,
        changed_at=_moment(changed),
        local_changed_at=_moment(local),
        shared_changed_at=_moment(shared),
        player_sheets_at=_moment(player[0]) if player else None,
    )


def _moment(value) -> datetime | None:
    """A datetime column as an aware datetime (SQLite gives a subquery's value as text, and
    Django stores UTC)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def tournament_version(stamp: Stamp) -> str:
    """The version of a page that shows anything of the tournament: its last change."""
    return f"{stamp.pk}-{stamp.changed_at.timestamp():.6f}"


def shared_changed_at(tournament: Tournament | Stamp) -> datetime:
    """The last change of anything public but a deal on a sheet not counted yet."""
    local = tournament.local_changed_at
    if local is not None and local == tournament.changed_at and tournament.shared_changed_at:
        return tournament.shared_changed_at
    return tournament.changed_at


def shared_version(tournament: Tournament | Stamp) -> str:
    """The version of the pages that show only counted results (standings, TV)."""
    return f"{tournament.pk}-{shared_changed_at(tournament).timestamp():.6f}"


def player_version(stamp: Stamp, registration_id: int) -> str:
    """The version of one player's own page: the shared version and the last change of their
    sheets (a sheet row is saved with every deal), read with the stamp
    (``stamp_of(slug, registration_id=...)``)."""
    latest = stamp.player_sheets_at
    sheets = f"{latest.timestamp():.6f}" if latest else "0"
    return f"{shared_version(stamp)}-p{registration_id}-{sheets}"

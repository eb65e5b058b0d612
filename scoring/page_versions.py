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

**Spreading rank changes over time** (:func:`spread_of`, :func:`seen_by`). When a sheet starts
to count, the shared version moves and every per-reader page (each player's page, the standings
at each reader's place) is a new version: in a 3,000-player field every phone, polling every
4 s, missed within 4 s, and each page rendered (15-20 ms): 50 CPU-seconds in 4 s on two cores,
every few seconds near the end of a round. So per-reader pages read a *published* shared
version (``scoring.publication.SharedPublication``, read by :func:`stamp_of` in the same
statement): a reader that finds the live one newer and the last publication at least S seconds
old publishes it (one conditional UPDATE: one of concurrent readers wins); each reader adopts
the newest publication S x (a hash of its registration id) seconds after it was published, and
sees the one before until then. The renders after a change are spread over S seconds instead
of 4, and every reader sees it within 2S + 4 s. A player's own table's deals and their own sheet
counting stay immediate: their sheets' last change is in their page's version. The TV, the plain
standings and the home page are few pages: they move at once with the live version.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from django.db import connection

from scoring.models import ScoreSheet, SharedPublication
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
    #: the shared versions published for per-reader pages (None: nothing published yet)
    published_previous: datetime | None = None
    published_current: datetime | None = None
    published_at: datetime | None = None
    published_players: int = 0


def _sql(with_player: bool) -> str:
    tournament = Tournament._meta.db_table
    columns = (
        "t.id, t.rounds, t.changed_at, t.local_changed_at, t.shared_changed_at,"
        " p.previous, p.current, p.published_at, p.players"
    )
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
    return (
        f"SELECT {columns} FROM {tournament} t"
        f" LEFT JOIN {SharedPublication._meta.db_table} p ON p.tournament_id = t.id"
        " WHERE t.slug = %s"
    )


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
    pk, rounds, changed, local, shared, previous, current, published, players, *player = row
    return Stamp(
        pk=pk,
        rounds=rounds,
        changed_at=_moment(changed),
        local_changed_at=_moment(local),
        shared_changed_at=_moment(shared),
        player_sheets_at=_moment(player[0]) if player else None,
        published_previous=_moment(previous),
        published_current=_moment(current),
        published_at=_moment(published),
        published_players=players or 0,
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


# Spreading rank changes over time (see the module's docstring). A per-reader render costs
# 13-20 ms on a quiet machine, several times that under load, and the same two cores answer
# 750 conditional requests a second for 3,000 phones (bench/scale.py). At 40 ms of spread per
# registered player, a change makes at most ~25 per-reader renders a second (a third of a core)
# whatever the field, over 120 s at most: a 3,000-player field's phones all have a rank change
# within 2 x 120 + 4 s, a 300-player field's within 28 s. A player's own table's deals and their
# own sheet counting are never delayed (their sheets are in their page's version), nor the TV
# and the standings page. Below 100 players there is no spread at all: the phones' own 4 s
# polling already spreads their renders, and a club sees its ranks at once.
SPREAD_PER_PLAYER = 0.040  # seconds
MAX_SPREAD = 120.0
SPREAD_FROM_PLAYERS = 100


def spread_of(players: int) -> float:
    """S, the seconds over which a rank change reaches the per-reader pages of a field of
    ``players`` registrations: at most one publication every S seconds, each reader adopting
    it at its phase in [0, S)."""
    if players < SPREAD_FROM_PLAYERS:
        return 0.0
    return min(MAX_SPREAD, SPREAD_PER_PLAYER * players)


def phase_of(registration_id: int, spread: float) -> float:
    """A reader's phase in [0, spread): a multiplicative hash of its registration id, so that a
    table's four players (consecutive ids, often) adopt a publication far apart."""
    return (registration_id * 2654435761 % 2**32) / 2**32 * spread


def clock() -> datetime:
    """Now (tests freeze it)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Publication:
    """A publication a reader found due: ``scoring.services.versions.shared_publish`` writes it
    unless another reader published since ``read_at`` (the row's ``published_at`` as read, None
    when there was no row)."""

    tournament_id: int
    read_at: datetime | None
    previous: datetime
    current: datetime
    published_at: datetime


def seen_by(stamp: Stamp, registration_id: int) -> tuple[Stamp, Publication | None]:
    """The stamp as the reader ``registration_id``'s pages read it (its shared version the
    published one it has adopted), and the publication it is to make, if one is due."""
    live = shared_changed_at(stamp)
    now = clock()
    previous, current, when = stamp.published_previous, stamp.published_current, stamp.published_at
    spread = spread_of(stamp.published_players)
    publication = None
    if current is None or when is None or previous is None:  # nothing published yet
        publication = Publication(stamp.pk, None, live, live, now)
    elif live > current and (now - when).total_seconds() >= spread:
        publication = Publication(stamp.pk, when, current, live, now)
    if publication is not None:  # seen as published (a concurrent winner's is as new)
        previous, current, when = publication.previous, publication.current, now
    adopted = (now - when).total_seconds() >= phase_of(registration_id, spread)
    # Never ahead of the live version (one moved back, restored from a backup...).
    seen = min(current if adopted else previous, live)
    return replace(
        stamp, changed_at=seen, local_changed_at=None, shared_changed_at=None
    ), publication

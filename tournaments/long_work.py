"""When work on a tournament is long enough to run as a background job (``scoring.jobs``) rather
than inside the request: the thresholds, in one place. Plain Python (no Django).

Seating, measured on the shared 2-core machine (SQLite; rounds 1 and 2, the service as the
page calls it, its tables, seats and score sheets written): 400 players 0.06 / 0.25 s, 1,000
players 0.15 / 0.25 s, 3,000 players 0.83 / 0.92 s, at a load of 13 to 14; the search alone is
quick for a large field (600 players: 0.02 s a round, load 3). A small field with odd tables
(tables of 5 or 3) is the long case: from round 2 the search hunts for a plan without repeated
meetings (round 2 of 18 players at tables of 3: 1.25 s, of 21 at tables of 5: 0.74 s, at a load
of 2 to 4; 10 to 23 s under load, issue 28), while 24 or 41 players take under 0.15 s. Round 1
is a plain draw: immediate.

The server decides: the dashboard and the import's preview choose their form's target by these
rules, and the views that do the work in the request ask them again (a page opened before a
threshold was crossed, a second tab), sending the POST on to the job's start.
"""

from __future__ import annotations

#: A field of this many present players or more is seated by a job.
SEATING_JOB_PLAYERS = 1000

#: Below this many players, a later round with odd tables (players not a multiple of 4) is
#: seated by a job: the search for zero repeated meetings is long there.
SEATING_JOB_SMALL_ODD_PLAYERS = 32

#: A player import of more lines than this is confirmed by a job (``bench/player_import.py``:
#: 5,000 lines take under 5 s on a quiet machine, many times that under load).
IMPORT_JOB_LINES = 1000


def seating_in_background(players: int, round_number: int) -> bool:
    """Whether seating round ``round_number`` of ``players`` present players is a job."""
    if players >= SEATING_JOB_PLAYERS:
        return True
    return round_number > 1 and players % 4 != 0 and players < SEATING_JOB_SMALL_ODD_PLAYERS


def import_in_background(lines: int) -> bool:
    """Whether confirming an import of ``lines`` players is a job."""
    return lines > IMPORT_JOB_LINES

"""When work on a tournament is long enough to run as a background job (``scoring.jobs``) rather
than inside the request: the thresholds, in one place. Plain Python (no Django).

Seating: the search itself is quick for a large field (600 players: 0.02 s a round on a quiet
machine, ``bench/seating.py``), but writing its tables, seats and score sheets grows with the
field; a small field with odd tables (tables of 5 or 3) is the other long case: from round 2 the
search hunts for a plan without repeated meetings (18 players at tables of 3: 1.25 s quiet,
10 to 23 s under load, issue 28). Round 1 of a small field is a plain draw: immediate.
"""

from __future__ import annotations

#: A field of this many present players or more is seated by a job.
SEATING_JOB_PLAYERS = 400

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

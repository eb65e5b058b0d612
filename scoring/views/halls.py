"""The TV of one hall (``/ecran/?salle=<slug>``): the standings of the players seated in that
hall in the last round (with their rank in the whole field), and its tables still playing."""

from __future__ import annotations

from dataclasses import replace

from scoring.standings import current_round
from tournaments.halls.models import Hall
from tournaments.halls.selectors import hall_registrations


def hall_view(tournament, hall: Hall, rows: list[dict], last):
    """``rows`` and the last pending round (``last``) cut to ``hall``."""
    round_ = current_round(tournament)
    seated = hall_registrations(round_, hall) if round_ else set()
    rows = [row for row in rows if row["id"] in seated]
    if last is not None:
        last = replace(last, missing=[n for n in last.missing if hall.holds(n)])
    return rows, last

"""The TV of one hall (``/ecran/?salle=<slug>``): the standings of the players seated in that
hall in the last round (with their rank in the whole field), in a team event the teams with a
member among them, and its tables still playing."""

from __future__ import annotations

from dataclasses import replace

from scoring.standings import current_round
from tournaments.halls.models import Hall
from tournaments.halls.selectors import hall_registrations


def hall_view(tournament, hall: Hall, rows: list[dict], last, teams=None):
    """``rows``, the last pending round (``last``) and the team standings (``teams``, None
    outside a team event) cut to ``hall``: a team with members in two halls shows in both."""
    round_ = current_round(tournament)
    seated = hall_registrations(round_, hall) if round_ else set()
    rows = [row for row in rows if row["id"] in seated]
    if last is not None:
        last = replace(last, missing=[n for n in last.missing if hall.holds(n)])
    if teams is not None:
        teams = [team for team in teams if any(m.id in seated for m in team.members)]
    return rows, last, teams

"""What the championships ask of the apps built on them: a stage's standings are computed by
scoring (from the score sheets), which this package may not import; scoring answers this
signal (``scoring/stage_standings.py``) with the tournament's :class:`tournaments.ranking.Standing`
list, best first."""

from __future__ import annotations

from django.dispatch import Signal

from tournaments import ranking
from tournaments.models import Tournament

# ``tournament``: a receiver returns its current standings (a list of ranking.Standing).
standings_wanted = Signal()


def standings_of(tournament: Tournament) -> list[ranking.Standing]:
    """The tournament's current standings, carried points included (empty without scoring)."""
    for _receiver, answer in standings_wanted.send(sender=Tournament, tournament=tournament):
        if answer is not None:
            return answer
    return []

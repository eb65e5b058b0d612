"""What the championships ask of the apps built on them: a stage's standings are computed by
scoring (from the score sheets), which this package may not import; scoring answers this
signal (``scoring/stage_standings.py``) with each tournament's :class:`tournaments.ranking.Standing`
list, best first: a championship's tournaments asked at once, in a fixed number of queries."""

from __future__ import annotations

from django.dispatch import Signal

from tournaments import ranking
from tournaments.models import Tournament

# ``tournaments``: a receiver returns their current standings (tournament id -> a list of
# ranking.Standing).
standings_wanted = Signal()


def standings_of(tournaments: list[Tournament]) -> dict[int, list[ranking.Standing]]:
    """The tournaments' current standings, carried points included (empty without scoring)."""
    for _receiver, answer in standings_wanted.send(sender=Tournament, tournaments=tournaments):
        if answer is not None:
            return answer
    return {t.pk: [] for t in tournaments}

"""Scoring's answer to the championships: a stage tournament's standings (the championships
package lives in the tournaments layer and may not import scoring; see its ``signals.py``)."""

from __future__ import annotations

from django.dispatch import receiver

from scoring.standings import current_standings
from tournaments.championships.signals import standings_wanted


@receiver(standings_wanted)
def stage_standings(sender, *, tournament, **kwargs):
    return current_standings(tournament).standings()

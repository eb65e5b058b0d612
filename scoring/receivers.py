"""Scoring's answers to the tournament services' signals (:mod:`tournaments.signals`).

Connected when the app is ready (:class:`scoring.apps.ScoringConfig`).
"""

from __future__ import annotations

from django.dispatch import receiver

from scoring.models import ScoreSheet
from scoring.services import round_close_check
from tournaments.signals import round_closing, round_seated


@receiver(round_seated, dispatch_uid="scoring.sheets_for_seated_round")
def sheets_for_seated_round(sender, *, round_, tables, **kwargs) -> None:
    """Every table of a round just seated gets its score sheet (and its private link)."""
    ScoreSheet.objects.bulk_create([ScoreSheet(table=table) for table in tables])


@receiver(round_closing, dispatch_uid="scoring.sheets_signed_before_closing")
def sheets_signed_before_closing(sender, *, round_, reason, **kwargs) -> None:
    """A round closes once every sheet is signed, or with the referee's reason."""
    round_close_check(round_=round_, reason=reason)

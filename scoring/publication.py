"""The shared version the per-reader pages read, published at most once every few seconds and
adopted by each reader at a moment of its own (``scoring/page_versions.py``, spreading)."""

from __future__ import annotations

from django.db import models


class SharedPublication(models.Model):
    """One row per tournament, written by the first reader that finds it due
    (``scoring.services.versions.shared_publish``), created by the first one that finds none.

    ``current`` is the tournament's shared version (its last change but a deal on a sheet not
    counted yet) as published at ``published_at``; ``previous`` the one before, which readers
    whose phase has not come yet still see. ``players``: the tournament's registrations when
    it was published, which set how far the next publication is spread.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    previous = models.DateTimeField()
    current = models.DateTimeField()
    published_at = models.DateTimeField()
    players = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.current}"

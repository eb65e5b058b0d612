"""A claim on a club: an organiser asks to run a club that others already know.

A club page for a club that already has an organiser, or players registered in other
organisers' tournaments, is not taken by whoever types its name first: the claim waits until
the club's organiser (or, for a club nobody organises yet, an organiser who registered its
players) accepts or refuses it (``tournaments/services/clubs.py``). The row stays as the trace:
who asked, who answered, when. Imported by ``tournaments/models.py`` (Django finds it there).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments import limits


class ClubClaim(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")

    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="claims")
    claimant = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_claims"
    )
    place = models.CharField(_("place"), max_length=limits.PLACE, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club_claims_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("club claim")
        verbose_name_plural = _("club claims")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "claimant"],
                condition=Q(status="pending"),
                name="club_claim_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.claimant} → {self.club}"

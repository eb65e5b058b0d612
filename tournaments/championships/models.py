"""A championship: a sequence of stages, each one tournament or several played in parallel
(its groups), the cut that says who goes on, and the points the qualifiers carry.

The rules themselves are pure Python (:mod:`tournaments.championships.rules`); the services
(:mod:`tournaments.championships.services`) close a stage; the story is docs/championships.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments import limits
from tournaments.models import Player, Registration, Tournament


class Championship(models.Model):
    name = models.CharField(_("name"), max_length=limits.TOURNAMENT_NAME)
    slug = models.SlugField(_("short name (in addresses)"), max_length=80, unique=True)
    seed = models.PositiveIntegerField(_("draw seed"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("championship")
        verbose_name_plural = _("championships")

    def __str__(self) -> str:
        return self.name


class Stage(models.Model):
    class CutMode(models.TextChoices):
        TOP = "top", _("the top N")
        PERCENT = "percent", _("the top X %")

    class Scope(models.TextChoices):
        STAGE = "stage", _("over the stage")
        GROUP = "group", _("per group")
        SERIES = "series", _("per série")

    class Carry(models.TextChoices):
        NONE = "none", _("none")
        ALL = "all", _("all")
        HALF = "half", _("half")
        THIRD = "third", _("a third")
        QUARTER = "quarter", _("a quarter")

    class Seating(models.TextChoices):
        RANDOM = "random", _("at random")
        SNAKE = "snake", _("by previous rank, in a snake")

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(_("stage"))
    name = models.CharField(_("name"), max_length=limits.TOURNAMENT_NAME)
    cut_mode = models.CharField(
        _("who goes on"), max_length=8, choices=CutMode.choices, default=CutMode.TOP
    )
    cut_value = models.PositiveIntegerField(_("N or X"), default=0)
    scope = models.CharField(
        _("the cut is taken"), max_length=8, choices=Scope.choices, default=Scope.STAGE
    )
    carry = models.CharField(
        _("points carried into the next stage"),
        max_length=8,
        choices=Carry.choices,
        default=Carry.NONE,
    )
    seating = models.CharField(
        _("round 1 of the next stage"),
        max_length=8,
        choices=Seating.choices,
        default=Seating.RANDOM,
    )
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["championship", "number"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="stage_number_once")
        ]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")

    def __str__(self) -> str:
        return self.name


class StageGroup(models.Model):
    """One tournament of a stage (a hall, a regional qualifier): a tournament is in one stage."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="groups")
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="stage_group"
    )
    name = models.CharField(_("group"), max_length=limits.SERIES, blank=True)

    class Meta:
        ordering = ["stage", "name", "pk"]

    def __str__(self) -> str:
        return self.name or str(self.tournament_id)


class Invitation(models.Model):
    """A player the organiser adds to a stage's qualifiers (a wildcard, a seeded player)."""

    class Kind(models.TextChoices):
        SEEDED = "seeded", _("seeded player")
        WILDCARD = "wildcard", _("wildcard")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.WILDCARD)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="invited_once_per_stage")
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.player_id}"


class Withdrawal(models.Model):
    """A player of a stage who will not play the next one: the next in the standings goes on."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="withdrawals")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="stage_withdrawal"
    )
    history = HistoricalRecords()

    def __str__(self) -> str:
        return str(self.registration_id)


class CarriedPoints(models.Model):
    """The points a registration of a stage starts with, carried from the previous stage
    (the standings add them before round 1)."""

    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="carried_points"
    )
    points = models.IntegerField(_("carried points"), default=0)
    source = models.ForeignKey(Registration, on_delete=models.SET_NULL, null=True, related_name="+")
    previous_rank = models.PositiveIntegerField(null=True, blank=True)
    history = HistoricalRecords()

    def __str__(self) -> str:
        return f"{self.registration_id}: {self.points}"

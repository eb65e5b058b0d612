"""A tournament's halls and the referees assigned to one. Data and invariants only: the work is
in :mod:`tournaments.halls.services`."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.models import StaffMember, Tournament
from tournaments.seating import halls as rule


class HallPlan(models.Model):
    """Whether players keep their hall from round 2 on (else everyone moves each round)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="hall_plan"
    )
    keep_players = models.BooleanField(_("players keep their hall"), default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("halls' seating")

    def __str__(self) -> str:
        return str(self.tournament)


class Hall(models.Model):
    """Tables ``first_table`` to ``last_table`` of a tournament, in one room."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="halls")
    name = models.CharField(_("hall"), max_length=80)
    slug = models.SlugField(_("short name (in addresses)"), max_length=40)
    first_table = models.PositiveSmallIntegerField(_("first table"))
    last_table = models.PositiveSmallIntegerField(_("last table"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "first_table"]
        verbose_name = _("hall")
        verbose_name_plural = _("halls")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slug"], name="hall_unique_slug"),
            models.CheckConstraint(
                condition=models.Q(first_table__gte=1)
                & models.Q(last_table__gte=models.F("first_table")),
                name="hall_table_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rule(self) -> rule.Hall:
        return rule.Hall(self.slug, self.first_table, self.last_table)

    @property
    def capacity(self) -> int:
        return self.last_table - self.first_table + 1

    def holds(self, number: int) -> bool:
        return self.first_table <= number <= self.last_table


class HallReferee(models.Model):
    """A referee (or organiser) of the tournament working in one hall: their round page opens
    on it."""

    staff = models.OneToOneField(
        StaffMember, on_delete=models.CASCADE, related_name="hall_assignment"
    )
    hall = models.ForeignKey(Hall, on_delete=models.CASCADE, related_name="referees")

    class Meta:
        verbose_name = _("referee's hall")

    def __str__(self) -> str:
        return f"{self.staff} — {self.hall}"

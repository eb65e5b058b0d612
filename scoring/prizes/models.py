"""What the organiser sets for the prize list: the categories, the prizes, and whether a
player may win several (the rules themselves: :mod:`scoring.prizes.rules`)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.prizes import rules
from tournaments import limits
from tournaments.models import Tournament


def category_label(kind: str, age: int | None, series: str) -> str:
    """A category as pages and documents name it: « Dames », « Jeunes (moins de 18 ans) »…"""
    if kind == rules.WOMEN:
        return gettext("Women")
    if kind == rules.YOUTH:
        return gettext("Young players (under %(age)d)") % {"age": age or 0}
    if kind == rules.SENIOR:
        return gettext("Seniors (%(age)d and over)") % {"age": age or 0}
    return series


class PrizeSettings(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="prize_settings"
    )
    cumulative = models.BooleanField(_("prizes add up"), default=False)
    # Where the scratch prizes come in the order of priority, among the categories' positions.
    scratch_position = models.PositiveSmallIntegerField(_("order of the scratch prizes"), default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id}"


class Category(models.Model):
    class Kind(models.TextChoices):
        WOMEN = rules.WOMEN, _("Women (Dames)")
        YOUTH = rules.YOUTH, _("Young players (Jeunes): under an age")
        SENIOR = rules.SENIOR, _("Seniors: from an age")
        SERIES = rules.SERIES, _("A série")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="prize_categories"
    )
    kind = models.CharField(_("category"), max_length=6, choices=Kind.choices)
    age = models.PositiveSmallIntegerField(_("age"), null=True, blank=True)
    series = models.CharField(_("série"), max_length=limits.SERIES, blank=True)
    position = models.PositiveSmallIntegerField(_("order of priority"), default=1)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "kind", "age", "series"], name="one_category_of_a_kind"
            )
        ]

    def __str__(self) -> str:
        return str(self.label)

    @property
    def label(self) -> str:
        return category_label(self.kind, self.age, self.series)

    def rule(self) -> rules.Category:
        return rules.Category(key=self.pk, kind=self.kind, age=self.age, series=self.series)


class Prize(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    # None: a scratch prize (every player).
    category = models.ForeignKey(
        Category, null=True, blank=True, on_delete=models.CASCADE, related_name="prizes"
    )
    place = models.PositiveSmallIntegerField(_("place"))
    description = models.CharField(_("prize"), max_length=limits.PRIZE, blank=True)

    class Meta:
        ordering = ["place"]
        constraints = [
            models.UniqueConstraint(
                fields=["category", "place"],
                condition=Q(category__isnull=False),
                name="one_prize_per_category_place",
            ),
            models.UniqueConstraint(
                fields=["tournament", "place"],
                condition=Q(category__isnull=True),
                name="one_scratch_prize_per_place",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category_id or 'scratch'} #{self.place}"

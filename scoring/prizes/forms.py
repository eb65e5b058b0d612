"""The organiser's forms of the prize list: the rule, a category, prizes for places."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.prizes.models import Category
from tournaments import limits
from tournaments.rows import series_of


class PrizeSettingsForm(forms.Form):
    cumulative = forms.BooleanField(
        label=_("Prizes add up (a player may win several)"),
        required=False,
        help_text=_(
            "Unticked: one prize per player, the best they qualify for in the order of "
            "priority below; the next player of the category then takes its prize."
        ),
    )
    scratch_position = forms.IntegerField(
        label=_("Order of priority of the scratch prizes"),
        min_value=0,
        max_value=1000,
        initial=0,
        help_text=_("The categories' prizes come before those of a smaller number."),
    )


class CategoryForm(forms.Form):
    kind = forms.ChoiceField(label=_("Category"), choices=Category.Kind.choices)
    age = forms.IntegerField(
        label=_("Age (Jeunes: under it; Seniors: from it)"),
        required=False,
        min_value=1,
        max_value=120,
    )
    series = forms.ChoiceField(label=_("Série"), required=False)
    position = forms.IntegerField(
        label=_("Order of priority"), min_value=0, max_value=1000, initial=1
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["series"].choices = [
            ("", "—"),
            *((name, name) for name in series_of(tournament.series_list)),
        ]


class PrizesForm(forms.Form):
    category = forms.ChoiceField(label=_("Prizes of"), required=False)
    first_place = forms.IntegerField(label=_("From place"), min_value=1, max_value=1000)
    last_place = forms.IntegerField(
        label=_("to place (empty: that place only)"), required=False, min_value=1, max_value=1000
    )
    description = forms.CharField(label=_("Prize"), max_length=limits.PRIZE, required=False)

    def __init__(self, *args, categories, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [
            ("", _("Scratch")),
            *((str(c.pk), c.label) for c in categories),
        ]

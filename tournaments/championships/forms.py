"""The organiser's forms: a new championship, a stage (its tournaments and rules), an
invitation by licence."""

from __future__ import annotations

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.championships.models import Stage


def _capitals(choices) -> list[tuple[str, str]]:
    """Choices read as the rest of the app's: from a capital (« La moitié », « Half »)."""
    return [(value, capfirst(label)) for value, label in choices]


class ChampionshipForm(forms.Form):
    name = forms.CharField(label=capfirst(_("name")), max_length=limits.TOURNAMENT_NAME)


class TournamentChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.name} ({obj.date:%d/%m/%Y})"


class StageForm(forms.Form):
    name = forms.CharField(label=capfirst(_("name")), max_length=limits.TOURNAMENT_NAME)
    tournaments = TournamentChoices(
        label=capfirst(_("its tournament, or its groups' tournaments (played in parallel)")),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
    )
    cut_mode = forms.ChoiceField(
        label=capfirst(_("who goes on")), choices=_capitals(Stage.CutMode.choices)
    )
    cut_value = forms.IntegerField(
        label=capfirst(_("N or X")), min_value=0, max_value=100_000, initial=0
    )
    scope = forms.ChoiceField(
        label=capfirst(_("the cut is taken")), choices=_capitals(Stage.Scope.choices)
    )
    carry = forms.ChoiceField(
        label=capfirst(_("points carried into the next stage")),
        choices=_capitals(Stage.Carry.choices),
    )
    seating = forms.ChoiceField(
        label=capfirst(_("round 1 of the next stage")),
        choices=_capitals(Stage.Seating.choices),
    )

    def __init__(self, *args, tournaments=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = tournaments

    def clean(self):
        data = super().clean()
        if data.get("cut_mode") == Stage.CutMode.PERCENT and (data.get("cut_value") or 0) > 100:
            self.add_error("cut_value", _("A percentage goes from 0 to 100."))
        return data


class InvitationForm(forms.Form):
    licence = forms.CharField(label=_("FFT licence"), max_length=limits.LICENCE)
    kind = forms.ChoiceField(
        label=capfirst(_("kind")),
        choices=_capitals([("wildcard", _("wildcard")), ("seeded", _("seeded player"))]),
    )

"""Scoring's forms. The deal form: typed fields in, an engine :class:`Deal` out, engine errors on
the right field; penalties, paper totals, PIN signatures, the archive upload.

The deal form serves the score calculator (any table size, seats named 1..5) and, with
``seat_names`` given, deal entry at a tournament table (the table size is then fixed).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import FFT, Camp, Contract, Deal, Handful, HandfulSize, RuleSet, check_deal
from scoring.labels import CAMP_LABELS, CONTRACT_LABELS, HANDFUL_LABELS
from scoring.messages import deal_error_message

CONTRACT_CHOICES = [(c.value, label) for c, label in CONTRACT_LABELS.items()]
CAMP_CHOICES = [("", _("No")), *((c.value, label) for c, label in CAMP_LABELS.items())]
HANDFUL_CHOICES = [("", "—"), *((h.value, label) for h, label in HANDFUL_LABELS.items())]


def parse_points(raw: str) -> Decimal:
    """'40', '40.5', '40,5' or '40½' as a Decimal; ValueError when it is not a number."""
    text = str(raw).strip().replace(",", ".").replace("½", ".5").replace(" ", "")
    if text.startswith("."):
        text = "0" + text
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(raw) from None
    if not value.is_finite():
        raise ValueError(raw)
    return value


class DealForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(3, "3"), (4, "4"), (5, "5")],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    taker = forms.TypedChoiceField(label=_("Taker"), coerce=int)
    partner = forms.TypedChoiceField(
        label=_("Called partner (5 players)"), coerce=int, required=False, empty_value=None
    )
    contract = forms.ChoiceField(
        label=_("Contract"), choices=CONTRACT_CHOICES, widget=forms.RadioSelect
    )
    oudlers = forms.TypedChoiceField(
        label=_("Oudlers"),
        choices=[(n, str(n)) for n in range(4)],
        coerce=int,
        widget=forms.RadioSelect,
    )
    points = forms.CharField(
        label=_("Card points"),
        max_length=8,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "size": 6}),
    )
    points_camp = forms.ChoiceField(
        label=_("Points counted by"),
        choices=[(Camp.ATTACK.value, _("the attack")), (Camp.DEFENCE.value, _("the defence"))],
        initial=Camp.ATTACK.value,
        widget=forms.RadioSelect,
    )
    petit_au_bout = forms.ChoiceField(
        label=_("Petit au bout"), choices=CAMP_CHOICES, required=False, widget=forms.RadioSelect
    )
    slam_announced = forms.BooleanField(label=_("Slam announced"), required=False)
    slam = forms.ChoiceField(
        label=_("Slam made by"), choices=CAMP_CHOICES, required=False, widget=forms.RadioSelect
    )

    def __init__(
        self,
        *args,
        seat_names: list[str],
        choose_players: bool = False,
        rules: RuleSet = FFT,
        **kwargs,
    ):
        """``seat_names`` names the seats in playing order; ``choose_players`` keeps the
        table-size field (the calculator), otherwise the table size is ``len(seat_names)``."""
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.choose_players = choose_players
        self.seat_names = list(seat_names)
        seat_choices = list(enumerate(self.seat_names))
        self.fields["taker"].choices = seat_choices
        self.fields["partner"].choices = [("", _("Nobody (taker alone)")), *seat_choices]
        if not choose_players:
            del self.fields["players"]
            if len(self.seat_names) != 5:
                del self.fields["partner"]
        for index, name in enumerate(self.seat_names):
            self.fields[f"handful_{index}"] = forms.ChoiceField(
                label=name, choices=HANDFUL_CHOICES, required=False
            )
        self.deal: Deal | None = None

    @property
    def handful_fields(self):
        return [self[f"handful_{i}"] for i in range(len(self.seat_names))]

    def clean_points(self) -> Decimal | None:
        raw = self.cleaned_data["points"]
        if not raw and not self.fields["points"].required:
            return None
        try:
            return parse_points(raw)
        except ValueError:
            raise forms.ValidationError(
                _("Type the card points as a number, such as 41 or 40,5."), code="invalid"
            ) from None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        players = data["players"] if self.choose_players else len(self.seat_names)
        points = data["points"]
        if data["points_camp"] == Camp.DEFENCE.value:
            points = self.rules.total_points - points
        handfuls = tuple(
            Handful(seat=i, size=HandfulSize(data[f"handful_{i}"]))
            for i in range(len(self.seat_names))
            if data.get(f"handful_{i}")
        )
        deal = Deal(
            players=players,
            taker=data["taker"],
            partner=data.get("partner"),
            contract=Contract(data["contract"]),
            oudlers=data["oudlers"],
            points=points,
            handfuls=handfuls,
            petit_au_bout=Camp(data["petit_au_bout"]) if data.get("petit_au_bout") else None,
            slam_announced=data["slam_announced"],
            slam=Camp(data["slam"]) if data.get("slam") else None,
        )
        for error in check_deal(deal, self.rules):
            field = error.field
            if field == "handfuls":
                seat = error.params.get("seat")
                field = f"handful_{seat}" if f"handful_{seat}" in self.fields else None
            if field not in self.fields:
                field = None
            self.add_error(field, deal_error_message(error))
        if not self.errors:
            self.deal = deal
        return data


class DealEntryForm(DealForm):
    """A deal at a tournament table: the kind of deal, the version being corrected, a reason."""

    kind = forms.ChoiceField(
        label=_("Deal"),
        choices=[
            ("played", _("Played")),
            ("passed", _("Everybody passed")),
            ("referee", _("Decided by the referee")),
        ],
        initial="played",
        widget=forms.RadioSelect,
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    note = forms.CharField(
        label=_("Referee's decision (reason)"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, referee: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not referee:
            self.fields["kind"].choices = self.fields["kind"].choices[:2]
            del self.fields["note"]
            del self.fields["reason"]
        # A passed deal has no contract, taker, oudlers or points.
        if self.data.get(self.add_prefix("kind")) == "passed":
            for name in ("taker", "contract", "oudlers", "points"):
                self.fields[name].required = False

    def clean(self):
        if self.data.get(self.add_prefix("kind")) == "passed":
            self.deal = None
            return forms.Form.clean(self)
        return super().clean()


class PenaltyForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    amount = forms.IntegerField(
        label=_("Points (negative to take away)"), min_value=-10000, max_value=10000
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = players


class PaperTotalsForm(forms.Form):
    reason = forms.CharField(label=_("Reason for the correction"), required=False, max_length=500)

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for position, name in players:
            self.fields[f"total_{position}"] = forms.IntegerField(
                label=name, min_value=-100000, max_value=100000
            )

    @property
    def totals(self) -> list[int]:
        return [self.cleaned_data[f"total_{p}"] for p, _ in self.players]


class PinForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    pin = forms.CharField(
        label=_("Personal code (PIN)"),
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = players


class ArchiveForm(forms.Form):
    file = forms.FileField(label=_("Tournament archive (.json)"))

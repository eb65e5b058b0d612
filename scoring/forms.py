"""Scoring's forms. The deal form: typed fields in, an engine :class:`Deal` out, engine errors on
the right field; penalties, paper totals, PIN signatures, the archive upload.

The deal form serves the score calculator (any table size, seats named 1..5) and, with
``seat_names`` given, deal entry at a tournament table (the table size is then fixed).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import FFT, Camp, Contract, Deal, Handful, HandfulSize, RuleSet, check_deal
from scoring.labels import CAMP_LABELS, CONTRACT_LABELS, HANDFUL_LABELS
from scoring.messages import deal_error_message
from tournaments import limits

CONTRACT_CHOICES = [(c.value, label) for c, label in CONTRACT_LABELS.items()]
CAMP_CHOICES = [("", _("No")), *((c.value, label) for c, label in CAMP_LABELS.items())]
HANDFUL_CHOICES = [("", "—"), *((h.value, label) for h, label in HANDFUL_LABELS.items())]
BONUS_FIELDS = ("petit_au_bout", "slam_announced", "slam")


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
    # Nothing is chosen until the user chooses: one tap on a seat button names the taker.
    taker = forms.TypedChoiceField(
        label=_("Taker"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the taker: tap their seat.")},
    )
    partner = forms.TypedChoiceField(
        label=_("Called partner (5 players)"), coerce=int, required=False, empty_value=None
    )
    contract = forms.ChoiceField(
        label=_("Contract"),
        choices=CONTRACT_CHOICES,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the contract.")},
    )
    oudlers = forms.TypedChoiceField(
        label=_("Oudlers"),
        choices=[(n, str(n)) for n in range(4)],
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose how many oudlers the attack holds.")},
    )
    points = forms.CharField(
        label=_("Card points"),
        max_length=limits.POINTS,
        widget=forms.TextInput(
            attrs={"inputmode": "decimal", "autocomplete": "off", "size": 6, "enterkeyhint": "send"}
        ),
        error_messages={"required": _("Type the attack's card points.")},
    )
    points_camp = forms.ChoiceField(
        label=_("Points counted by"),
        choices=[(Camp.ATTACK.value, _("the attack")), (Camp.DEFENCE.value, _("the defence"))],
        initial=Camp.ATTACK.value,
        widget=forms.RadioSelect,
    )
    petit_au_bout = forms.ChoiceField(
        label=_("Petit au bout"),
        choices=CAMP_CHOICES,
        required=False,
        initial="",
        widget=forms.RadioSelect,
    )
    slam_announced = forms.BooleanField(label=_("Slam announced"), required=False)
    slam = forms.ChoiceField(
        label=_("Slam made by"),
        choices=CAMP_CHOICES,
        required=False,
        initial="",
        widget=forms.RadioSelect,
    )

    def __init__(
        self,
        *args,
        seat_names: list[str],
        seat_letters: list[str] | None = None,
        choose_players: bool = False,
        rules: RuleSet = FFT,
        **kwargs,
    ):
        """``seat_names`` names the seats in playing order, as the buttons show them, after
        ``seat_letters`` (N, E, S, O at a table) when given; ``choose_players`` keeps the
        table-size field (the calculator), otherwise the table size is ``len(seat_names)``."""
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.choose_players = choose_players
        self.seat_names = list(seat_names)
        self.seat_letters = list(seat_letters) if seat_letters else [""] * len(self.seat_names)
        seat_choices = list(enumerate(self.seat_names))
        self.fields["taker"].choices = seat_choices
        self.fields["partner"].choices = [("", _("Nobody (taker alone)")), *seat_choices]
        # The number pad's Enter key sends the form: its label says so (« Envoyer », an arrow)
        # rather than « OK », which a player presses only to close the keyboard.
        self.fields["points"].widget.attrs["enterkeyhint"] = "go" if choose_players else "send"
        if not choose_players:
            del self.fields["players"]
            if len(self.seat_names) != 5:
                del self.fields["partner"]
        for index, name in enumerate(self.seat_names):
            self.fields[f"handful_{index}"] = forms.ChoiceField(
                label=name,
                choices=HANDFUL_CHOICES,
                required=False,
                initial="",
                widget=forms.RadioSelect,
            )
        self.deal: Deal | None = None

    @property
    def handful_fields(self):
        return [self[f"handful_{i}"] for i in range(len(self.seat_names))]

    @property
    def taker_buttons(self):
        """(radio button, seat letter, name) for each seat: one tap names the taker."""
        return list(zip(self["taker"], self.seat_letters, self.seat_names, strict=True))

    @property
    def handful_rows(self):
        """(field, seat letter, name): each seat's handful, as one row of buttons."""
        return list(zip(self.handful_fields, self.seat_letters, self.seat_names, strict=True))

    @property
    def bonuses_open(self) -> bool:
        """The bonuses section stays open when it holds a value or an error, or when the user
        opened it (the page remembers that in a hidden field between live updates)."""
        names = [*BONUS_FIELDS, *(f"handful_{i}" for i in range(len(self.seat_names)))]
        if any(name in self.errors for name in names):
            return True
        if not self.is_bound:  # a deal being corrected: open when it had a bonus
            return any(self.initial.get(name) not in (None, "", False) for name in names)
        if self.data.get(self.add_prefix("bonuses_open")) == "1":
            return True
        return any(self.data.get(self.add_prefix(name)) not in (None, "", "off") for name in names)

    def hide_missing(self) -> None:
        """While the user is still choosing (a live update), say nothing of what is not chosen
        yet: only what is wrong with what was chosen."""
        for name in list(self.errors):
            kept = [e for e in self.errors.as_data()[name] if e.code != "required"]
            if kept:
                self._errors[name] = self.error_class(
                    [m for e in kept for m in e.messages], renderer=self.renderer
                )
            else:
                del self._errors[name]

    def focus_first_error(self) -> None:
        focus_first_error(self)

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
                # Next to the seat's handful, or the last one chosen (too many trumps in all).
                seat = error.params.get("seat", handfuls[-1].seat if handfuls else None)
                field = f"handful_{seat}" if f"handful_{seat}" in self.fields else None
            if field not in self.fields:
                field = None
            self.add_error(field, deal_error_message(error))
        if not self.errors:
            self.deal = deal
        return data


def focus_first_error(form: forms.Form, *, default: bool = False) -> None:
    """The first field in error takes the focus when the page opens (the browser scrolls it
    into view, with or without JavaScript); with ``default``, the form's first field when only
    the form as a whole is in error (paper totals that do not sum to zero)."""
    visible = [(name, f) for name, f in form.fields.items() if not f.widget.is_hidden]
    in_error = [(name, f) for name, f in visible if name in form.errors]
    if not in_error and default and form.errors and visible:
        in_error = visible[:1]
    for name, field in in_error[:1]:
        field.widget.attrs["autofocus"] = True
        if name in form.errors:
            field.widget.attrs["aria-invalid"] = "true"


KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")


class DealEntryForm(DealForm):
    """A deal at a tournament table: the kind of deal, the version being corrected, a reason."""

    kind = forms.ChoiceField(
        label=_("Deal"),
        choices=[
            ("played", _("Played")),
            ("passed", _("Everybody passed")),
            ("misdeal", _("Misdeal")),
            ("referee", _("Decided by the referee")),
            ("ruling", _("Ruling: scores typed")),
        ],
        initial="played",
        widget=forms.RadioSelect,
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # The dealer the page showed (a deal entered meanwhile may move it: a conflict), and the
    # entry's idempotency key (a resent deal is recorded once).
    dealer = forms.IntegerField(required=False, min_value=0, max_value=4, widget=forms.HiddenInput)
    key = forms.CharField(required=False, max_length=limits.ENTRY_KEY, widget=forms.HiddenInput)
    note = forms.CharField(
        label=_("Referee's decision (reason)"),
        required=False,
        max_length=limits.REASON,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=limits.REASON,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, referee: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruling = None
        if not referee:
            self.fields["kind"].choices = self.fields["kind"].choices[:3]
            del self.fields["note"]
            del self.fields["reason"]
        else:
            # A referee's ruling: one score per player of the deal, typed (zero-sum).
            for i, name in enumerate(self.seat_names):
                self.fields[f"ruling_{i}"] = forms.IntegerField(
                    label=name,
                    required=False,
                    min_value=-100000,
                    max_value=100000,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": "1"}),
                )
        # A passed deal or a ruling has no contract, taker, oudlers or points.
        if self.data.get(self.add_prefix("kind")) in ("passed", "misdeal", "ruling"):
            for name in ("taker", "contract", "oudlers", "points", "points_camp"):
                self.fields[name].required = False

    @property
    def ruling_rows(self):
        """(field, seat letter) of each player's score in a ruling."""
        return [
            (self[f"ruling_{i}"], letter)
            for i, letter in enumerate(self.seat_letters)
            if f"ruling_{i}" in self.fields
        ]

    def clean_key(self) -> str:
        key = self.cleaned_data["key"].strip()
        if key and not KEY_PATTERN.fullmatch(key):
            raise forms.ValidationError(_("This page is out of date: open it again."))
        return key

    def clean(self):
        kind = self.data.get(self.add_prefix("kind"))
        if kind in ("passed", "misdeal"):
            self.deal = None
            return forms.Form.clean(self)
        if kind == "ruling" and "ruling_0" in self.fields:
            self.deal = None
            data = forms.Form.clean(self)
            names = [f"ruling_{i}" for i in range(len(self.seat_names))]
            for name in names:
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, _("Type this player's score (0 if none)."))
            if not self.errors:
                self.ruling = [data[name] for name in names]
                if sum(self.ruling) != 0:
                    self.add_error(
                        None,
                        _("The scores of a ruling must sum to zero; they sum to %(sum)d.")
                        % {"sum": sum(self.ruling)},
                    )
            if not (data.get("note") or "").strip():
                self.add_error("note", _("A referee's ruling needs the referee's reason."))
            return data
        return super().clean()


class PenaltyForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    amount = forms.IntegerField(
        label=_("Points (negative to take away)"), min_value=-10000, max_value=10000
    )
    reason = forms.CharField(label=_("Reason"), max_length=limits.REASON)

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = players


class PaperTotalsForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for the correction"), required=False, max_length=limits.REASON
    )

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for position, name in players:
            self.fields[f"total_{position}"] = forms.IntegerField(
                label=name, min_value=-100000, max_value=100000
            )
        self.order_fields([f"total_{position}" for position, _ in players])  # the reason last

    @property
    def totals(self) -> list[int]:
        return [self.cleaned_data[f"total_{p}"] for p, _ in self.players]


class DeleteLastForm(forms.Form):
    """Removing the last deal of a sheet (a deal entered by mistake), with the reason."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=limits.REASON)


class PinForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    pin = forms.CharField(
        label=_("Personal code (PIN)"),
        max_length=limits.PIN,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = players


class ArchiveForm(forms.Form):
    file = forms.FileField(label=_("Tournament archive (.json)"))

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.models import Registration, Round, Season, Tournament
from tournaments.names import clean_name
from tournaments.permissions import ORGANISER_PERMISSION
from tournaments.services import clubs


class NameField(forms.CharField):
    """A name (a person's, a club's, a team's, an event's): cleaned by ``names.clean_name``
    (composed form, no invisible or bidirectional control character, single spaces) before
    the length and required checks, so that what is stored is what is compared."""

    def to_python(self, value):
        return clean_name(super().to_python(value))


class TournamentForm(forms.ModelForm):
    verify_url = forms.URLField(
        label=_("Public address for verifying sheets"),
        required=False,
        max_length=limits.URL,
        assume_scheme="https",
        widget=forms.URLInput(attrs={"placeholder": "https://tarot.example.org"}),
        help_text=_(
            "The club's site on the internet where this tournament's archive will be "
            "imported: the QR code and the address printed on every signed sheet point "
            "there, so anyone can check a sheet after the day. Empty: sheets carry this "
            "computer's address (the room's Wi-Fi address with make club), which nobody "
            "can reach once the day is over; they can still type the sheet's code on "
            "/verifier/ wherever its archive is imported."
        ),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "place",
            "format",
            "rounds",
            "deals_per_round",
            "odd_tables",
            "seating_priority",
            "passed_deals_count",
            "timed_rounds",
            "rule_set",
            "visibility",
            "tie_breaks",
            "verify_url",
            "homologation",
        ]
        help_texts = {
            "deals_per_round": _(
                "A table of 5 plays 5 deals for every 4, the dealer sitting out in turn: everyone "
                "plays the same number of deals when this is a multiple of 4."
            ),
            "odd_tables": _(
                "When the players present are not a multiple of 4. The FFT homologates "
                "tournaments with tables of 3, not with tables of 5: choose tables of 3 for a "
                "homologated event. With 5 present players a table of 5 is the only way."
            ),
            "seating_priority": _(
                "Fewest repeated meetings first: players meet as few people again as possible, "
                "and the tables of 5 or 3 are then shared as fairly as that allows (someone may "
                "sit at one more often). Fair tables first: nobody sits at a table of 5 or 3 "
                "again before everyone has had one, even when that makes players meet again."
            ),
            "homologation": _(
                "Given by the FFT for a homologated tournament; printed on the results report."
            ),
        }
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        field_classes = {"name": NameField}

    def clean_verify_url(self):
        url = self.cleaned_data.get("verify_url", "").strip()
        if url and _only_reachable_here(url):
            raise forms.ValidationError(
                _(
                    "This address is only reachable on this computer or the room's network: "
                    "give the address of a site on the internet, or leave it empty."
                )
            )
        return url.rstrip("/")


class TournamentSettingsForm(TournamentForm):
    class Meta(TournamentForm.Meta):
        fields = [*TournamentForm.Meta.fields, "capacity"]


class PlayerRecordForm(forms.Form):
    """A player's name, club and licence: to register them, or to correct this tournament's
    record of them."""

    last_name = NameField(label=_("Last name"), max_length=limits.NAME)
    first_name = NameField(label=_("First name"), max_length=limits.NAME, required=False)
    club = NameField(label=_("Club"), max_length=limits.CLUB, required=False)
    licence = forms.CharField(label=_("FFT licence"), max_length=limits.LICENCE, required=False)


class PlayerForm(PlayerRecordForm):
    present = forms.BooleanField(label=_("Present now (late arrival)"), required=False)


class TeamForm(forms.Form):
    name = NameField(label=_("Team name"), max_length=limits.TEAM)
    present = forms.BooleanField(label=_("Present now"), required=False)

    def __init__(self, *args, team_size: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.team_size = team_size
        for i in range(team_size):
            self.fields[f"last_name_{i}"] = NameField(label=_("Last name"), max_length=limits.NAME)
            self.fields[f"first_name_{i}"] = NameField(
                label=_("First name"), max_length=limits.NAME, required=False
            )
            self.fields[f"club_{i}"] = NameField(
                label=_("Club"), max_length=limits.CLUB, required=False
            )
            self.fields[f"licence_{i}"] = forms.CharField(
                label=_("FFT licence"), max_length=limits.LICENCE, required=False
            )

    @property
    def members(self):
        return [
            [self[f"{name}_{i}"] for name in ("last_name", "first_name", "club", "licence")]
            for i in range(self.team_size)
        ]


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV or Excel file"),
        help_text=_("Columns: nom, prénom, club, licence (and équipe for a team tournament)."),
    )


class StaffForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=limits.USERNAME)
    password = forms.CharField(
        label=_("Password (only to create the account)"),
        required=False,
        max_length=limits.PASSWORD,
        widget=forms.PasswordInput(render_value=True),
    )


class SeatRoundForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed (to reproduce a draw)"), required=False, min_value=0, max_value=10**9
    )
    by_order = forms.BooleanField(
        label=_("Round 1 in the order of the list (no draw)"), required=False
    )

    def __init__(self, *args, first_round: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not first_round:
            del self.fields["by_order"]


class RegistrationChoiceField(forms.ModelChoiceField):
    """A player in a menu, with club and licence: two namesakes are told apart."""

    def label_from_instance(self, obj: Registration) -> str:
        return obj.listed_name


class SwapForm(forms.Form):
    first = RegistrationChoiceField(label=_("Player"), queryset=Registration.objects.none())
    second = RegistrationChoiceField(label=_("swaps with"), queryset=Registration.objects.none())
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, tournament: Tournament, round_: Round | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # The players of the round and those present: never an absent or withdrawn player
        # who is not seated (a seated one who left is swapped out).
        queryset = Registration.objects.filter(tournament=tournament)
        seated = Q(seats__round=round_) if round_ is not None else Q(pk__in=[])
        queryset = queryset.filter(Q(status=Registration.Status.PRESENT) | seated).distinct()
        self.fields["first"].queryset = queryset
        self.fields["second"].queryset = queryset


class CloseRoundForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason (required while a sheet is unsigned)"),
        required=False,
        max_length=limits.REASON,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ClubForm(forms.Form):
    name = NameField(label=_("Club name"), max_length=limits.CLUB)
    place = forms.CharField(label=_("Town or hall"), max_length=limits.PLACE, required=False)


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = list(clubs.SEASON_FIELDS)  # what season_create and season_update take
        field_classes = {"name": NameField}
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def validate_unique(self):
        """The service checks the season (its formula, its name in the club) and says why."""


class SeatRequestForm(forms.Form):
    last_name = NameField(label=_("Last name"), max_length=limits.NAME)
    first_name = NameField(label=_("First name"), max_length=limits.NAME)
    licence = forms.CharField(label=_("FFT licence"), max_length=limits.LICENCE, required=False)
    club = NameField(label=_("Club"), max_length=limits.CLUB, required=False)
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        max_length=limits.EMAIL,
        required=False,
        help_text=_("Only the tournament's organiser sees it; no public page shows it."),
    )


class ClubOrganiserForm(forms.Form):
    """Another account that organises the club: chosen among the active organiser accounts."""

    user = forms.ModelChoiceField(label=_("Account"), queryset=None)

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        app_label, codename = ORGANISER_PERMISSION.split(".")
        permission = Q(
            user_permissions__codename=codename,
            user_permissions__content_type__app_label=app_label,
        ) | Q(
            groups__permissions__codename=codename,
            groups__permissions__content_type__app_label=app_label,
        )
        accounts = (
            get_user_model()
            .objects.filter(is_active=True)
            .filter(permission | Q(is_superuser=True))
        )
        if club is not None:
            accounts = accounts.exclude(organised_clubs=club)
        self.fields["user"].queryset = accounts.distinct().order_by("username")


def _only_reachable_here(url: str) -> bool:
    """Whether ``url`` names this computer or a private network (127.0.0.1, localhost, the
    room's 192.168.x.y...): an address players cannot open once the day is over."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith((".local", ".lan", ".home", ".localhost")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host  # a bare machine name on the room's network
    return address.is_private or address.is_loopback or address.is_link_local

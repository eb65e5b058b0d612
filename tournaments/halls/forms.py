"""The halls page's forms: the halls typed one a line (« Salle Pourny : tables 1-60 »), and a
referee's hall."""

from __future__ import annotations

import re

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.halls.services import HallRow
from tournaments.names import clean_name

LINE = re.compile(
    r"^(?P<name>[^:]+?)\s*:\s*(?:tables?\s*)?(?P<first>\d{1,4})\s*(?:-|–|—|à|to)\s*"
    r"(?P<last>\d{1,4})\s*$",
    re.IGNORECASE,
)
#: Words dropped from the front of a hall's short name: « Salle Pourny » is ?salle=pourny.
PREFIXES = ("salle-", "espace-", "hall-", "room-")


def hall_slug(name: str) -> str:
    slug = slugify(name)
    for prefix in PREFIXES:
        if slug.startswith(prefix) and len(slug) > len(prefix):
            return slug[len(prefix) :][:40]
    return slug[:40] or "salle"


class HallsForm(forms.Form):
    halls = forms.CharField(
        label=_("Halls, one a line"),
        required=False,
        widget=forms.Textarea(
            attrs={
                "rows": 4,
                "placeholder": "Salle Pourny : tables 1-60\nSalle des Capucins : tables 61-125",
            }
        ),
        help_text=_("A name, a colon, then the hall's first and last table. Empty: no halls."),
    )
    keep_players = forms.BooleanField(
        label=_("Players keep their hall from round 2 on (else everyone moves each round)"),
        required=False,
    )

    def clean_halls(self) -> list[HallRow]:
        rows, errors = [], []
        for number, line in enumerate(self.cleaned_data["halls"].splitlines(), start=1):
            if not line.strip():
                continue
            found = LINE.match(line.strip())
            if not found or not clean_name(found["name"]):
                errors.append(
                    _(
                        "Line %(line)d: write « name : tables first-last », "
                        "e.g. « Salle Pourny : tables 1-60 »."
                    )
                    % {"line": number}
                )
                continue
            name = clean_name(found["name"])[:80]
            rows.append(HallRow(name, hall_slug(name), int(found["first"]), int(found["last"])))
        if errors:
            raise forms.ValidationError(errors)
        return rows


def halls_text(halls) -> str:
    return "\n".join(f"{h.name} : tables {h.first_table}-{h.last_table}" for h in halls)


class RefereeHallForm(forms.Form):
    staff = forms.IntegerField(widget=forms.HiddenInput)
    hall = forms.IntegerField(required=False)

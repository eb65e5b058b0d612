from django import forms
from django.utils.translation import gettext_lazy as _


class SeasonImportForm(forms.Form):
    file = forms.FileField(label=_("Season archive (.json)"))
    merge = forms.BooleanField(
        label=_("Add to the existing club"),
        required=False,
        help_text=_("When this installation already has the archive's club."),
    )

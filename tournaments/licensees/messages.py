"""The licensee list's problems in the user's language, from the codes of the pure rules."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

FIELD_NAMES = {
    "licence": gettext_lazy("licence"),
    "last_name": gettext_lazy("last name"),
    "first_name": gettext_lazy("first name"),
    "club": gettext_lazy("club"),
    "series": gettext_lazy("série"),
    "sex": gettext_lazy("sex"),
    "birth_year": gettext_lazy("year of birth"),
}


def problem_text(code: str, params: dict) -> str:
    p = dict(params)
    if "field" in p:
        p["field"] = str(FIELD_NAMES.get(p["field"], p["field"]))
    if "other" in p:
        p["other"] = str(FIELD_NAMES.get(p["other"], p["other"]))
    texts = {
        "missing": lambda: _("no %(field)s") % p,
        "too_long": lambda: _("%(field)s longer than %(limit)d characters") % p,
        "control": lambda: _("a control character in the %(field)s") % p,
        "bad_licence": lambda: _("“%(value)s” is not a licence number") % p,
        "bad_sex": lambda: _("“%(value)s” is not a sex (F or M)") % p,
        "bad_year": lambda: _("“%(value)s” is not a year of birth (1900 to %(year)d)") % p,
        "duplicate": lambda: _("licence %(licence)s is already on line %(line)d") % p,
        "unmapped": lambda: _("choose the column of the %(field)s") % p,
        "no_column": lambda: _("the file has no such column for the %(field)s") % p,
        "same_column": lambda: _("the %(field)s and the %(other)s are in the same column") % p,
    }
    return texts[code]() if code in texts else code

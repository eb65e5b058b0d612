"""The halls' refusals in the user's language, from the codes the pure rule gives."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.seating.halls import HallError


def hall_error(error: HallError) -> ServiceError:
    p = error.params
    if error.code == "too_many_tables":
        text = _(
            "This round needs %(tables)d tables but the halls hold %(capacity)d: widen a hall's "
            "range of tables."
        ) % {"tables": p["tables"], "capacity": p["capacity"]}
    elif error.code == "no_fit":
        text = _(
            "%(players)d players cannot all be seated in the halls (%(capacity)d tables): widen "
            "a hall's range of tables, or let everyone move between halls."
        ) % {"players": p["players"], "capacity": p["capacity"]}
    elif error.code == "overlap":
        text = _("Halls “%(first)s” and “%(second)s” both hold table %(table)d.") % p
    elif error.code == "duplicate":
        text = _("Two halls have the short name “%(hall)s”: name them differently.") % p
    elif error.code == "bad_range":
        text = _("Hall “%(hall)s”: tables %(first)d to %(last)d is not a range of tables.") % p
    else:
        text = _("Give each hall a name and its tables.")
    return ServiceError(text, field="halls")

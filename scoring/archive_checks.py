"""The checks of an archive's values that need the engine: a deal's stored inputs, scored
again (:mod:`scoring.archive` reads the rest). No writes."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.archive_values import Value
from scoring.engine import HandfulSize, InvalidDeal
from scoring.models import Deal
from scoring.scores import deal_scores
from tarot_club.errors import ServiceError

# Texts without a length in their model (reasons, notes): the longest the forms take is 500.
TEXT_LIMIT = 5000


def choices_of(model, field: str) -> list[str]:
    return [value for value, _label in model._meta.get_field(field).choices]


def deal_fields(d: Value, size: int, rule_set: str, where: str) -> dict:
    """A deal's stored inputs as the deal form takes them, its scores checked by the engine."""
    fields = {
        "number": d["number"].int(1, 32767),
        "kind": d["kind"].choice(Deal.Kind.values),
        "dealer": d["dealer"].int(0, size - 1),
        "taker": d["taker"].int(0, size - 1, null=True),
        "partner": d["partner"].int(0, size - 1, null=True),
        "contract": d["contract"].choice(choices_of(Deal, "contract"), blank=True),
        "oudlers": d["oudlers"].int(0, 3, null=True),
        "points": d["points"].points(),
        "handfuls": [
            {
                "seat": h["seat"].int(0, size - 1),
                "size": h["size"].choice([s.value for s in HandfulSize]),
            }
            for h in d["handfuls"].list(max_items=size)
        ],
        "petit_au_bout": d["petit_au_bout"].choice(choices_of(Deal, "petit_au_bout"), blank=True),
        "slam_announced": d["slam_announced"].bool(),
        "slam": d["slam"].choice(choices_of(Deal, "slam"), blank=True),
        "note": d["note"].text(TEXT_LIMIT),
        "version": d["version"].int(1, 2**31 - 1),
    }
    scores = [v.int(-(10**6), 10**6) for v in d["scores"].list(max_items=size)]
    if len(scores) != size:
        d["scores"].fail(_("one score per player was expected"))
    if sum(scores) != 0:
        d["scores"].fail(_("the scores do not sum to zero"))
    fields["scores"] = scores
    deal = Deal(**fields)
    try:
        derived = deal_scores(deal, size, rule_set)
    except InvalidDeal as error:
        d.fail(_("not a possible deal (%(errors)s)") % {"errors": str(error)[:300]})
    except (ValueError, KeyError, IndexError):
        d.fail(_("not a possible deal"))
    if derived != scores:
        raise ServiceError(
            _(
                "Deal %(deal)d of %(where)s does not score as stored: the archive was altered. "
                "Nothing was imported."
            )
            % {"deal": fields["number"], "where": where}
        )
    return fields

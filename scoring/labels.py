"""French-first labels of the domain words (the glossary lives in scoring.engine.types)."""

from django.utils.translation import gettext_lazy as _

from scoring.engine import Camp, Contract, HandfulSize

CONTRACT_LABELS = {
    Contract.PETITE: _("Petite"),
    Contract.GARDE: _("Garde"),
    Contract.GARDE_SANS: _("Garde sans"),
    Contract.GARDE_CONTRE: _("Garde contre"),
}
CAMP_LABELS = {Camp.ATTACK: _("Attack"), Camp.DEFENCE: _("Defence")}
HANDFUL_LABELS = {
    HandfulSize.SIMPLE: _("Simple"),
    HandfulSize.DOUBLE: _("Double"),
    HandfulSize.TRIPLE: _("Triple"),
}

EVENT_LABELS = {
    "deal_created": _("Deal entered"),
    "deal_corrected": _("Deal corrected"),
    "deal_removed": _("Deal removed"),
    "paper_totals": _("Paper totals entered"),
    "penalty": _("Penalty"),
    "signed": _("Signed"),
}

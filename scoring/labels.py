"""French-first labels of the domain words (the glossary lives in scoring.engine.types)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from scoring.engine import Camp, Contract, HandfulSize
from tournaments.names import starts_with_vowel_sound

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


# French elides « de » before a vowel sound: « Signature d'Élodie », « de Léa ». The choice is
# made here from the name; the words are in the catalogue (one message per case, with a
# context), so every language says it its own way.
def of_person(name: str) -> str:
    """« of <name> » in the active language: « d'Élodie Leroy », « de Léa Martin »."""
    if starts_with_vowel_sound(name):
        return pgettext("before a name starting with a vowel sound", "of %(name)s") % {"name": name}
    return pgettext("before a name starting with a consonant", "of %(name)s") % {"name": name}

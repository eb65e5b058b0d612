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


# A deal line's bonuses say whose they are: the defence's petit au bout is not the attack's, and
# an announced slam scores 400 where one not announced scores 200.
def petit_au_bout_label(camp: str) -> str:
    """« petit au bout (attaque) », « petit au bout (défense) »; "" without one."""
    if camp == Camp.ATTACK:
        return pgettext("deal line", "petit au bout (attack)")
    if camp == Camp.DEFENCE:
        return pgettext("deal line", "petit au bout (defence)")
    return ""


def slam_label(slam: str, announced: bool) -> str:
    """« chelem annoncé réussi », « chelem non annoncé réussi », « chelem de la défense »,
    « chelem annoncé chuté »; "" when no slam was announced nor made."""
    if slam == Camp.ATTACK:
        if announced:
            return pgettext("deal line", "slam announced, made")
        return pgettext("deal line", "slam not announced, made")
    if slam == Camp.DEFENCE:
        return pgettext("deal line", "slam by the defence")
    if announced:
        return pgettext("deal line", "slam announced, failed")
    return ""

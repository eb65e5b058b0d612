"""Words around people's names, as each language writes them.

French elides « de » before a vowel sound: « Signature d'Élodie », « de Léa ». The choice is made
here from the name; the words themselves are in the catalogue (one message per case, with a
context), so every language says it its own way.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import pgettext

VOWELS = "aeiou"


def starts_with_vowel_sound(name: str) -> bool:
    """Élodie, Anaïs, Hugo (a mute h, as most French first names with h), Yves (y before a
    consonant) — but not Yann (y before a vowel) nor Léa."""
    letters = unicodedata.normalize("NFD", name.strip()).encode("ascii", "ignore").decode()
    letters = letters.lower()
    if not letters:
        return False
    first = letters[0]
    if first in VOWELS or first == "h":
        return True
    return first == "y" and len(letters) > 1 and letters[1] not in VOWELS + "y"


def of_person(name: str) -> str:
    """« of <name> » in the active language: « d'Élodie Leroy », « de Léa Martin »."""
    if starts_with_vowel_sound(name):
        return pgettext("before a name starting with a vowel sound", "of %(name)s") % {"name": name}
    return pgettext("before a name starting with a consonant", "of %(name)s") % {"name": name}

"""How names read in French: elision before a vowel sound (« d'Élodie », « qu'Anaïs »).

Plain Python; both apps use it to choose between two catalogue messages (with a context), so
every language says it its own way.
"""

from __future__ import annotations

import unicodedata

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

"""Names as people type them: one clean form before anything stores or compares them, and how
they read in French (elision before a vowel sound: « d'Élodie », « qu'Anaïs »).

``clean_name`` is called wherever a name comes in (the forms' ``NameField``, the player import,
seat requests, tournament and season archives): a zero-width space must not make a second
« Dupont », nor a right-to-left override show « Dupont » as « tnopuD » on a printed sheet.

Plain Python; both apps use ``starts_with_vowel_sound`` to choose between two catalogue
messages (with a context), so every language says it its own way.
"""

from __future__ import annotations

import re
import unicodedata

VOWELS = "aeiou"


def clean_name(text: str) -> str:
    """``text`` without invisible characters (Unicode's format characters: zero-width spaces and
    joiners, the byte order mark, soft hyphens, direction marks and the bidirectional controls
    such as the right-to-left override), in Unicode's composed form (NFC: « é » is one
    character however it was typed), every run of spaces (no-break ones too) as one space, and
    no space at either end. Control characters (NUL, a tab...) are kept: the checks that follow
    refuse them and say so."""
    kept = "".join(
        " " if unicodedata.category(ch).startswith("Z") else ch
        for ch in text
        if unicodedata.category(ch) != "Cf"
    )
    # Composed after the invisible characters are gone: « e<zero-width space>◌́ » is « é ».
    return re.sub(" {2,}", " ", unicodedata.normalize("NFC", kept)).strip(" ")


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

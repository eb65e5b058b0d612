"""Names as people type them: one clean form before anything stores or compares them, how
they read in French (elision before a vowel sound: « d'Élodie », « qu'Anaïs »), and the one
alphabetical order of every list of players (check-in, PIN slips, seating plan).

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


LIGATURES = str.maketrans({"œ": "oe", "Œ": "Oe", "æ": "ae", "Æ": "Ae", "ß": "ss"})


def alphabetical(text: str) -> str:
    """A name as French alphabetical order reads it: ligatures spelt out, accents, case,
    hyphens and apostrophes ignored ("Œuvray" files under O, "Élodie" under E, "d'Aubigné"
    under D, between "Dandrieu" and "Dupont")."""
    decomposed = unicodedata.normalize("NFKD", text.translate(LIGATURES))
    return "".join(ch for ch in decomposed if ch.isalnum() or ch == " ").casefold().strip()


def alphabetical_key(last_name: str, first_name: str = "") -> tuple[bool, str, str]:
    """The order of players in every list: by last name, then first name, as French
    alphabetical order reads them; names without a letter last."""
    last = alphabetical(last_name)
    return not last[:1].isalpha(), last, alphabetical(first_name)


def in_alphabetical_order(people):
    """People (anything with ``last_name``, ``first_name`` and ``pk``: registrations...) as a
    list in that order."""
    return sorted(people, key=lambda p: (*alphabetical_key(p.last_name, p.first_name), p.pk))

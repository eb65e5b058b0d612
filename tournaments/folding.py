"""Text folded for searching: case, accents and punctuation ignored ("Lefèvre" → "lefevre").

Plain Python (no Django), so that searches behave the same on SQLite and PostgreSQL: the
database never sees the typed text.
"""

from __future__ import annotations

import functools
import unicodedata

# Letters that Unicode does not decompose into a base letter and an accent.
_LIGATURES = str.maketrans(
    {"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l"}
)


@functools.lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Lower case without accents, every run of non-letters as one space: 'Jean-Loup  LEFÈVRE'
    and 'jean loup lefevre' fold alike. Control characters (a NUL...) are dropped.

    Kept for the last 16,384 texts: the pages that mark namesakes fold every name of the field
    at each render (6,000 folds, a third of a 3,000-player TV's render, without it)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    kept = "".join(
        ch if ch.isalnum() else " "
        for ch in decomposed
        if not unicodedata.combining(ch) and unicodedata.category(ch) != "Cc"
    )
    return " ".join(kept.casefold().split())


def matches(query: str, *texts: str) -> bool:
    """Whether every word of ``query`` appears in one of ``texts`` (all folded)."""
    words = fold(query).split()
    haystack = " ".join(fold(text) for text in texts)
    return bool(words) and all(word in haystack for word in words)

"""Template filters for the domain's numbers and names."""

from decimal import Decimal
from functools import cache

import pyphen
from django import template
from django.utils.formats import number_format
from django.utils.translation import get_language

from scoring.labels import petit_au_bout_label, slam_label
from tournaments.names import starts_with_vowel_sound
from tournaments.ranking import rank_label

register = template.Library()


@register.filter
def rank(value, tied) -> int | str:
    """``{{ row.rank|rank:row.tied }}``: « 2= » when the rank is shared
    (:func:`tournaments.ranking.rank_label`, the one spelling of a shared rank)."""
    return rank_label(value, bool(tied))


@register.filter
def points(value) -> str:
    """Card points as people write them: 46, 40,5 (French) or 40.5 (English)."""
    if value is None or value == "":
        return ""
    value = Decimal(value)
    return number_format(value, decimal_pos=0 if value == value.to_integral_value() else 1)


@register.filter
def signed(value) -> str:
    """A whole number with its sign, a real minus sign: −20, +30, 0."""
    value = int(value)
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


@register.filter
def short_name(name: str) -> str:
    """'Hugo Rousseau' → 'H. Rousseau', for narrow score sheet columns."""
    parts = str(name).split()
    if len(parts) < 2:
        return str(name)
    return f"{parts[0][0]}. {' '.join(parts[1:])}"


#: Words at least this long get hyphenation points (shorter ones fit a phone's sheet column).
HYPHENATE_FROM = 8
SOFT_HYPHEN = "\u00ad"


@cache
def _hyphenator() -> pyphen.Pyphen:
    return pyphen.Pyphen(lang="fr")  # players' names are mostly French, whatever the UI language


@register.filter
def soft_hyphens(name: str) -> str:
    """'Vandenberghe' → 'Van\u00adden\u00adber\u00adghe': soft hyphens at the syllables (French
    patterns), so a long name in a narrow column breaks between syllables with a hyphen shown,
    never mid-syllable; where it fits, nothing shows."""
    words = str(name).split(" ")
    return " ".join(
        _hyphenator().inserted(w, hyphen=SOFT_HYPHEN) if len(w) >= HYPHENATE_FROM else w
        for w in words
    )


@register.simple_tag
def colon() -> str:
    """The colon after a label: « Donneur : » in French (a space before it), "Dealer:" in
    English and other languages."""
    return " :" if (get_language() or "").startswith("fr") else ":"


@register.filter
def elides(name: str) -> bool:
    """Whether French elides before this name (« qu'Élodie », « d'Hugo »): templates choose
    between two catalogue messages with it, as ``tournaments.names`` says."""
    return starts_with_vowel_sound(str(name))


@register.filter
def number_ranges(numbers) -> str:
    """[1, 2, 4, 5, 6, 7, 9] → '1, 2, 4–7, 9': every number named, runs of three or more as a
    range, so a long list of tables (17 still playing of 20) stays one short line."""
    values = sorted({int(n) for n in numbers})
    parts: list[str] = []
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and values[end + 1] == values[end] + 1:
            end += 1
        if end - start >= 2:
            parts.append(f"{values[start]}\u2013{values[end]}")
        else:
            parts.extend(str(v) for v in values[start : end + 1])
        start = end + 1
    return ", ".join(parts)


@register.filter
def deal_bonuses(deal) -> list[str]:
    """A played deal's petit au bout and slam as its line writes them, saying whose:
    « petit au bout (défense) », « chelem annoncé réussi »."""
    shown = [petit_au_bout_label(deal.petit_au_bout), slam_label(deal.slam, deal.slam_announced)]
    return [text for text in shown if text]

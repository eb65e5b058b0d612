"""Template filters for the domain's numbers and names."""

from decimal import Decimal

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def points(value) -> str:
    """Card points as people write them: 46, 40,5 (French) or 40.5 (English)."""
    if value is None or value == "":
        return ""
    value = Decimal(value)
    return number_format(value, decimal_pos=0 if value == value.to_integral_value() else 1)


@register.filter
def short_name(name: str) -> str:
    """'Hugo Rousseau' → 'H. Rousseau', for narrow score sheet columns."""
    parts = str(name).split()
    if len(parts) < 2:
        return str(name)
    return f"{parts[0][0]}. {' '.join(parts[1:])}"

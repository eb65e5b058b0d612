"""The engine's English messages, translated for the user (one place for every deal error)."""

from __future__ import annotations

import re
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext

from scoring.engine import DealError
from scoring.engine import serialize as engine_serialize
from scoring.engine import validate as engine_validate

_TEMPLATES = {**engine_validate.MESSAGES, **engine_serialize.MESSAGES}
_DECIMAL = re.compile(r"-?\d+\.\d+")


def _localized(value):
    """Numbers as the user's language writes them: 13,5 in French, 13.5 in English."""
    decimal = isinstance(value, str) and _DECIMAL.fullmatch(value)
    if isinstance(value, (Decimal, float)) or decimal:
        return number_format(f"{Decimal(str(value)).normalize():f}", use_l10n=True)
    return value


def deal_error_message(error: DealError) -> str:
    """The error in the active language (the English template goes through the catalogue)."""
    template = _TEMPLATES.get(error.code)
    if template is None:
        return error.message
    return gettext(template).format(**{k: _localized(v) for k, v in error.params.items()})

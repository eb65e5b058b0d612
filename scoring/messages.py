"""The engine's English messages, translated for the user (one place for every deal error)."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.engine import DealError
from scoring.engine import serialize as engine_serialize
from scoring.engine import validate as engine_validate

_TEMPLATES = {**engine_validate.MESSAGES, **engine_serialize.MESSAGES}


def deal_error_message(error: DealError) -> str:
    """The error in the active language (the English template goes through the catalogue)."""
    template = _TEMPLATES.get(error.code)
    if template is None:
        return error.message
    return gettext(template).format(**error.params)

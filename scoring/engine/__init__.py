"""The FFT scoring engine (ground floor): deal scoring, validation, rule sets, the table game.
Plain Python: imports only its own modules, nothing of Django or the apps; either app may use it.

Data in, results out. Public entry point: :func:`score_deal`. See :mod:`scoring.engine.types`
for the glossary.
"""

from .deal import score_deal
from .rules import DEFAULT_RULE_SET, FFT, RULE_SETS, RuleSet, get_rule_set
from .serialize import (
    JSONInputError,
    deal_from_dict,
    deal_to_dict,
    errors_to_dict,
    parse_json,
    result_to_dict,
)
from .types import (
    Camp,
    Contract,
    Deal,
    DealError,
    DealResult,
    Explanation,
    Handful,
    HandfulSize,
    InvalidDeal,
)
from .validate import check_deal

__all__ = [
    "DEFAULT_RULE_SET",
    "FFT",
    "RULE_SETS",
    "Camp",
    "Contract",
    "Deal",
    "DealError",
    "DealResult",
    "Explanation",
    "Handful",
    "HandfulSize",
    "InvalidDeal",
    "JSONInputError",
    "RuleSet",
    "check_deal",
    "deal_from_dict",
    "deal_to_dict",
    "errors_to_dict",
    "get_rule_set",
    "parse_json",
    "result_to_dict",
    "score_deal",
]

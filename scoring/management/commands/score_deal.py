"""``manage.py score_deal``: score deals given as JSON on standard input.

One deal (an object) prints one object; a list prints a list, one object per deal, in order. Each is
``{"scores": [...], "explanation": {...}}`` or ``{"errors": [{"field", "code", "message"}]}``. The
exit status is 2 when any deal is invalid (or the input is not JSON), 0 otherwise.
"""

from __future__ import annotations

import json
import sys

from django.conf import settings
from django.utils import translation

from scoring.engine import (
    RULE_SETS,
    DealError,
    InvalidDeal,
    JSONInputError,
    deal_from_dict,
    get_rule_set,
    parse_json,
    result_to_dict,
    score_deal,
)
from scoring.messages import deal_error_message
from tarot_club.commands import ProjectCommand, check_range


class Command(ProjectCommand):
    help = "Score deals read as JSON on standard input (one object or a list) and print JSON."

    def add_arguments(self, parser):
        parser.add_argument(
            "--rules",
            default="fft",
            choices=sorted(RULE_SETS),
            help="Rule set (default: fft, the official rules).",
        )
        parser.add_argument("--indent", type=int, default=None, help="Pretty-print the JSON.")
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            choices=[code for code, _ in settings.LANGUAGES],
            help="Language of the error messages (default: %(default)s).",
        )

    def handle(self, *args, rules: str, indent: int | None, language: str, **options):
        check_range("--indent", indent, 0, 8)
        translation.activate(language)
        raw = sys.stdin.read()
        try:
            payload = parse_json(raw)
        except JSONInputError as error:
            message = DealError(
                field="input", code=error.code, message=str(error), params=error.params
            )
            self._emit(
                {
                    "errors": [
                        {
                            "field": "input",
                            "code": error.code,
                            "message": deal_error_message(message),
                        }
                    ]
                },
                indent,
            )
            sys.exit(2)
        rule_set = get_rule_set(rules)
        deals = payload if isinstance(payload, list) else [payload]
        outputs = [self._score(item, rule_set) for item in deals]
        self._emit(outputs if isinstance(payload, list) else outputs[0], indent)
        if any("errors" in output for output in outputs):
            sys.exit(2)

    def _score(self, item, rule_set) -> dict:
        try:
            return result_to_dict(score_deal(deal_from_dict(item), rule_set))
        except InvalidDeal as invalid:
            return {
                "errors": [
                    {"field": e.field, "code": e.code, "message": deal_error_message(e)}
                    for e in invalid.errors
                ]
            }

    def _emit(self, data, indent) -> None:
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=indent))

"""Thin views: parse the request, call the engine or a service, render."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.engine import score_deal
from scoring.forms import DealForm
from scoring.presenters import explanation_lines


def _calculator_players(data) -> int:
    try:
        players = int(data.get("players", 4))
    except (TypeError, ValueError):
        return 4
    return players if players in (3, 4, 5) else 4


@require_http_methods(["GET", "HEAD", "POST"])
def calculator(request):
    """The score calculator: one deal at 3, 4 or 5 players, scored and explained."""
    data = request.POST if request.method == "POST" else None
    players = _calculator_players(data or request.GET)
    seat_names = [_("Player %(n)s") % {"n": n + 1} for n in range(players)]
    form = DealForm(data, seat_names=seat_names, choose_players=True, initial={"players": players})
    result = None
    if data is not None and form.is_valid():
        scored = score_deal(form.deal, form.rules)
        result = {
            "rows": list(zip(seat_names, scored.scores, strict=True)),
            "explanation": explanation_lines(scored.explanation, seat_names),
            "won": scored.explanation.won,
            "taker": seat_names[form.deal.taker],
            "rule_set": _(form.rules.label),
        }
    elif data is not None:
        if data.get("live"):
            form.hide_missing()  # still choosing: only what is wrong with what was chosen
        else:
            form.focus_first_error()
    context = {"form": form, "result": result}
    if request.htmx and data is not None and data.get("live") == "result":
        # A choice changed: only the result is replaced, never the form the user is filling
        # in (an answer arriving after the next tap would undo it).
        context["live_errors"] = [m for messages in form.errors.values() for m in messages]
        response = render(request, "public/_calculator_result.html", context)
        response["HX-Retarget"] = "#calculator-result"
        return response
    template = "public/_calculator.html" if request.htmx else "public/calculator.html"
    status = 422 if data is not None and not form.is_valid() and not request.htmx else 200
    return render(request, template, context, status=status)

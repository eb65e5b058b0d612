"""Turn an engine explanation into sentences people read on a sheet or a phone."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.engine import Explanation
from scoring.labels import HANDFUL_LABELS


@dataclass(frozen=True)
class Line:
    label: str
    detail: str
    amount: int | None = None


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−")


def explanation_lines(explanation: Explanation, seat_names: list[str]) -> list[Line]:
    e = explanation
    result = _("won") if e.won else _("lost")
    lines = [
        Line(
            _("Contract"),
            _("%(points)s points for %(threshold)s needed: %(result)s by %(difference)s")
            % {
                "points": number_format(e.points, decimal_pos=1 if e.points % 1 else 0),
                "threshold": e.threshold,
                "result": result,
                "difference": e.difference,
            },
        ),
        Line(
            _("Contract points"),
            f"({e.contract_base} + {e.difference}) × {e.multiplier}",
            e.contract_points,
        ),
    ]
    if e.petit_au_bout:
        lines.append(
            Line(
                _("Petit au bout"),
                _("10 × %(multiplier)d, to the %(camp)s")
                % {
                    "multiplier": e.multiplier,
                    "camp": _("attack") if e.petit_au_bout > 0 else _("defence"),
                },
                e.petit_au_bout,
            )
        )
    for handful in e.handfuls:
        lines.append(
            Line(
                _("Handful"),
                _("%(size)s (%(trumps)d trumps) shown by %(player)s, to the camp that wins")
                % {
                    "size": HANDFUL_LABELS[handful.size],
                    "trumps": handful.trumps,
                    "player": seat_names[handful.seat],
                },
                handful.bonus,
            )
        )
    if e.slam_points:
        lines.append(Line(_("Slam"), "", e.slam_points))
    lines.append(Line(_("Amount per defender"), "", e.amount))
    split = _("taker %(taker)d × amount") % {"taker": e.taker_share}
    if e.partner_share:
        split += ", " + _("partner %(partner)d × amount") % {"partner": e.partner_share}
    split += ", " + _("each of %(count)d defenders −1 × amount") % {"count": e.defender_count}
    lines.append(Line(_("Split"), split))
    return lines

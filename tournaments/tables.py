"""django-tables2 tables of the standings (fed with the ranking code's output, not querysets)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    club = tables.Column(
        verbose_name=_("Club"),
        attrs={"td": {"class": "hide-narrow"}, "th": {"class": "hide-narrow"}},
    )
    total = tables.Column(verbose_name=_("Total"), attrs={"td": {"class": "num strong"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}

    def __init__(self, data, *, rounds: list[int], **kwargs):
        extra = [
            (
                f"round_{n}",
                tables.Column(
                    verbose_name=_("R%(n)d") % {"n": n},
                    attrs={"td": {"class": "num hide-narrow"}, "th": {"class": "hide-narrow"}},
                ),
            )
            for n in rounds
        ]
        extra += [
            (
                "penalties",
                tables.Column(
                    verbose_name=_("Penalties"),
                    attrs={"td": {"class": "num hide-narrow"}, "th": {"class": "hide-narrow"}},
                ),
            ),
            (
                "deals",
                tables.Column(
                    verbose_name=_("Deals"),
                    attrs={"td": {"class": "num hide-narrow"}, "th": {"class": "hide-narrow"}},
                ),
            ),
            (
                "taken",
                tables.Column(
                    verbose_name=_("Taken / made"),
                    attrs={"td": {"class": "num hide-narrow"}, "th": {"class": "hide-narrow"}},
                ),
            ),
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_rank(self, value, record):
        return f"{value}=" if record["tied"] else value

    def value_rank(self, value, record):
        return f"{value}=" if record["tied"] else value


def standings_rows(standings, rounds: list[int], *, through: int | None = None) -> list[dict]:
    rows = []
    for s in standings:
        e = s.entry
        row = {
            "rank": s.rank,
            "tied": s.tied,
            "id": e.id,
            "name": e.name + (" (" + str(_("withdrawn")) + ")" if e.withdrawn else ""),
            "club": e.club,
            "total": s.total,
            "penalties": e.penalty_total or "",
            "deals": e.deals_played,
            "taken": f"{e.taken} / {e.made}",
            "tie_break": s.tie_break,
        }
        for n in rounds:
            row[f"round_{n}"] = e.rounds.get(n, "") if through is None or n <= through else ""
        rows.append(row)
    return rows

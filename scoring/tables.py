"""django-tables2 tables of the standings (fed with the ranking code's output, not querysets)."""

from __future__ import annotations

from collections import Counter

import django_tables2 as tables
from django.utils.encoding import force_str
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.documents.data import StandingsSection
from tournaments.folding import fold
from tournaments.ranking import rank_label

EMPTY = (None, "")  # django-tables2's empty values: shown as the column's default


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

    def __init__(
        self, data, *, rounds: list[int], more_columns=(), player_link: str = "", **kwargs
    ):
        # ``player_link``: the address of a player's page without its last part (the
        # registration's id and "/"), each name then opens its player's page.
        self.player_link = player_link
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
        # A championship's stage: its carried points and who goes on (scoring/stage_standings.py).
        extra += [
            (name, tables.Column(verbose_name=label, attrs={"td": {"class": "num"}}))
            for name, label in more_columns
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_rank(self, value, record):
        return rank_label(value, record["tied"])

    def render_name(self, value, record):
        """Namesakes are told apart by their club, also where the club column is hidden."""
        club = record.get("namesake_club")
        if self.player_link:
            value = format_html('<a href="{}{}/">{}</a>', self.player_link, record["id"], value)
        return (
            format_html('{} <small class="namesake">({})</small>', value, club) if club else value
        )

    def value_rank(self, value, record):
        return rank_label(value, record["tied"])

    def html(self) -> SafeString:
        """The table exactly as ``{% render_table %}`` writes it (a test compares them), in one
        pass: django-tables2's per-cell machinery took seconds for the cells of a 1,000-player
        championship (``bench/figures.md``)."""
        columns = [
            (column.name, _attrs(column.attrs["td"]), conditional_escape(column.default))
            for column in self.columns
        ]
        head = "".join(
            f'<th{_attrs(column.attrs["th"])} scope="col">{conditional_escape(column.header)}</th>'
            for column in self.columns
        )
        out = [
            '<div class="table-container table-responsive">'
            f"<table{_attrs(self.attrs)}><thead><tr>{head}</tr></thead><tbody>"
        ]
        renderers = {
            name: getattr(self, f"render_{name}")
            for name, *_ in columns
            if hasattr(self, f"render_{name}")
        }
        for index, row in enumerate(self.data):
            parity = "odd" if index % 2 else "even"
            out.append(
                f'<tr class="{parity} cut-line">' if row.get("cut") else f'<tr class="{parity}">'
            )
            for name, td, default in columns:
                value = row[name]
                if name in renderers and value not in EMPTY:
                    value = renderers[name](value=value, record=row)
                if value in EMPTY:
                    text = default
                elif type(value) is int:
                    text = str(value)  # most cells: nothing to escape
                else:
                    text = conditional_escape(value)
                out.append(f"<td{td}>{text}</td>")
            out.append("</tr>")
        out.append("</tbody></table></div>")
        return mark_safe("".join(out))  # every value above is escaped

    def values(self) -> list[list]:
        """What ``as_values()`` gives (headers first; a test compares them), without the
        per-cell machinery, too slow for the exports of a large field (``bench/figures.md``)."""
        columns = list(self.columns)
        getters = {
            c.name: getattr(self, f"value_{c.name}")
            for c in columns
            if hasattr(self, f"value_{c.name}")
        }
        rows = [[force_str(c.header, strings_only=True) for c in columns]]
        for row in self.data:
            values = []
            for column in columns:
                value = row[column.name]
                if value in EMPTY:
                    value = None  # as django-tables2 exports an empty cell
                elif column.name in getters:
                    value = getters[column.name](value=value, record=row)
                values.append(force_str(value, strings_only=True))
            rows.append(values)
        return rows


def _attrs(attributes) -> str:
    text = attributes.as_html()
    return f" {text}" if text else ""


def standings_rows(standings, rounds: list[int], *, through: int | None = None) -> list[dict]:
    """One dict per ranked player. ``namesake_club``: the player's club when another player of
    these standings has the same name (« Chloé Morel » twice), for the pages that show names
    without their club (the phone's standings, the TV's columns); "" otherwise."""
    rows = []
    names = Counter(fold(s.entry.name) for s in standings)
    for s in standings:
        e = s.entry
        row = {
            "rank": s.rank,
            "tied": s.tied,
            "id": e.id,
            "name": e.name + (" (" + str(_("withdrawn")) + ")" if e.withdrawn else ""),
            "club": e.club,
            "namesake_club": e.club if names[fold(e.name)] > 1 else "",
            "total": s.total,
            "penalties": e.penalty_total or "",
            "deals": e.deals_played,
            "taken": f"{e.taken} / {e.made}",
            "tie_break": s.tie_break,
            "carried": e.carried or "",
        }
        for n in rounds:
            row[f"round_{n}"] = e.rounds.get(n, "") if through is None or n <= through else ""
        rows.append(row)
    return rows


def team_section(teams, *, through: int | None = None) -> StandingsSection:
    """The team standings as a section of the exports: rank, team, members (each with their
    own total, as the standings page shows them) and the team's total."""
    members_text = []
    for team in teams:
        parts = []
        for member in team.members:
            total = member.total if through is None else member.total_through(through)
            name = member.name + (f" ({_('withdrawn')})" if member.withdrawn else "")
            parts.append(f"{name} {total}")
        members_text.append(" · ".join(parts) or None)
    return StandingsSection(
        title=str(_("Team standings")),
        headers=[str(_("Rank")), str(_("Team")), str(_("Members")), str(_("Total"))],
        rows=[
            [rank_label(t.rank, t.tied), t.name, members, t.total]
            for t, members in zip(teams, members_text, strict=True)
        ],
    )

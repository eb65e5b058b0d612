"""The results report a tournament sends out (to its league, the federation, a club's site).

The FFT does not publish the format its homologation software sends, so this is the project's
own format, versioned and described in ``docs/results-report.md`` with a JSON Schema beside it
(``docs/results-report.schema.json``): a receiving program reads ``format`` and ``version``
first, and a later version only adds keys.

Pure: plain values in, a dict (and its JSON and CSV texts) out. The Django side that gathers the
values is ``scoring/results_report.py``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .exports import csv_safe

FORMAT = "tarot-club/results-report"
VERSION = 1

# One line per player in the CSV, in this order (the JSON's player keys, flattened).
CSV_COLUMNS = (
    "rank",
    "tied",
    "licence",
    "last_name",
    "first_name",
    "club",
    "series",
    "sex",
    "birth_year",
    "team",
    "total",
    "deals_played",
    "withdrawn",
)


@dataclass(frozen=True)
class ReportPlayer:
    """One ranked player as the report gives them."""

    rank: int
    tied: bool
    last_name: str
    first_name: str
    club: str
    licence: str
    total: int
    rounds: Mapping[int, int]  # round number -> that round's points (penalties included)
    deals_played: int = 0
    withdrawn: bool = False
    series: str = ""
    sex: str = ""
    birth_year: int | None = None
    team: str = ""
    carried: int = 0  # a championship's stage: the points carried in (included in ``total``)


@dataclass(frozen=True)
class ReportTeam:
    rank: int
    tied: bool
    name: str
    total: int
    members: Sequence[str] = field(default_factory=tuple)  # licences, or names without one


@dataclass(frozen=True)
class ReportEvent:
    """What the report says of the tournament itself."""

    name: str
    date: str  # ISO 8601
    place: str
    format: str  # individual, teams_2, teams_4
    rule_set: str
    rounds: int
    deals_per_round: int
    homologation: str = ""
    finished: bool = False
    installation: str = ""  # who made the report (DJANGO_INSTALLATION_NAME)
    made_at: str = ""  # ISO 8601, UTC
    # A championship's stage: championship, number, name, cut and carry in words (else None).
    stage: Mapping | None = None


def build(
    event: ReportEvent, players: Sequence[ReportPlayer], teams: Sequence[ReportTeam] = ()
) -> dict:
    """The report as a dict, the players in their standings order.

    ``status`` is ``final`` once the organiser finished the tournament, ``provisional`` before:
    a receiver should not record a provisional report as the result.
    """
    stage = dict(event.stage) if event.stage else None
    return {
        "format": FORMAT,
        "version": VERSION,
        "status": "final" if event.finished else "provisional",
        "tournament": {
            "name": event.name,
            "date": event.date,
            "place": event.place,
            "format": event.format,
            "rule_set": event.rule_set,
            "rounds": event.rounds,
            "deals_per_round": event.deals_per_round,
            "homologation": event.homologation or None,
            "players": len(players),
            **({"stage": stage} if stage else {}),
        },
        "made_by": {"installation": event.installation, "at": event.made_at},
        "players": [_player(p, stage is not None) for p in players],
        "teams": [
            {
                "rank": t.rank,
                "tied": t.tied,
                "name": t.name,
                "total": t.total,
                "members": list(t.members),
            }
            for t in teams
        ],
    }


def _player(p: ReportPlayer, stage: bool) -> dict:
    carried = {"carried_points": p.carried} if stage else {}
    return {
        "rank": p.rank,
        "tied": p.tied,
        "licence": p.licence or None,
        "last_name": p.last_name,
        "first_name": p.first_name,
        "club": p.club,
        "series": p.series or None,
        "sex": p.sex or None,
        "birth_year": p.birth_year,
        "team": p.team or None,
        "total": p.total,
        "rounds": [{"round": n, "points": p.rounds[n]} for n in sorted(p.rounds)],
        "deals_played": p.deals_played,
        "withdrawn": p.withdrawn,
        **carried,
    }


def to_json(report: dict) -> bytes:
    """UTF-8 JSON, keys in the order above (readable in a text editor)."""
    return json.dumps(report, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"


def csv_rows(columns: Sequence[str], rows: Sequence[Mapping]) -> str:
    """Rows of dicts as CSV: a header of ``columns``, then each row's values in that order
    (booleans as 1 or 0, nothing for an unknown value, formulas kept as text)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[column]) for column in columns])
    return out.getvalue()


def to_csv(report: dict) -> str:
    """One line per player: the columns of ``CSV_COLUMNS``, then one column per round
    (``round_1`` …). Empty cells for what the report does not know; ``tied`` and ``withdrawn``
    as 1 or 0. Comma-separated, as the federation's spreadsheets and most programs read."""
    rounds = sorted({r["round"] for p in report["players"] for r in p["rounds"]})
    # A championship's stage: the points carried in, after ``withdrawn``.
    columns = (*CSV_COLUMNS, "carried_points") if "stage" in report["tournament"] else CSV_COLUMNS
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*columns, *(f"round_{n}" for n in rounds)])
    for p in report["players"]:
        points = {r["round"]: r["points"] for r in p["rounds"]}
        writer.writerow(
            [
                *(_cell(p[column]) for column in columns),
                *(points.get(n, "") for n in rounds),
            ]
        )
    return out.getvalue()


def _cell(value) -> str | int:
    if isinstance(value, bool):
        return int(value)
    return csv_safe(value)  # a name never becomes a formula in a spreadsheet

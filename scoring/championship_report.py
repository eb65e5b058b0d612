"""A championship's results report: its stages (each one's cut, carried points and qualifiers)
and its final ranking, in the project's own format beside the tournament's
(``scoring/results_report.py``; both described in ``docs/results-report.md``).

The final ranking is the championship's (``tournaments.championships.rules.final_ranking``): the
last stage's order, then those eliminated at each stage by their rank there. Each player is named
as their last stage's registration knows them (licence, série, sex, year of birth).
"""

from __future__ import annotations

from django.utils import timezone

from scoring.documents.results_report import csv_rows
from scoring.sealing import installation_name
from tournaments.championships.models import Championship
from tournaments.championships.selectors import (
    carry_in_words,
    championship_view,
    cut_in_words,
)
from tournaments.models import Registration

FORMAT = "tarot-club/championship-report"
VERSION = 1
# The final ranking's CSV columns (the JSON's keys of each place, flattened).
CSV_COLUMNS = (
    "position",
    "tied",
    "licence",
    "last_name",
    "first_name",
    "club",
    "series",
    "sex",
    "birth_year",
    "last_stage",
    "stage_rank",
)


def championship_report(championship: Championship) -> dict:
    """The report as it stands: ``status`` is ``final`` once the last stage is complete."""
    view = championship_view(championship)
    registrations = {
        registration_id: values
        for registration_id, *values in Registration.objects.filter(
            tournament__stage_group__stage__championship=championship
        ).values_list(
            "pk",
            "player_id",
            "licence",
            "last_name",
            "first_name",
            "club_name",
            "series",
            "sex",
            "birth_year",
        )
    }
    latest: dict[int, list] = {}  # player id -> their last stage's registration
    stages = []
    for index, state in enumerate(view.states):
        for row in state.rows:
            latest[row.player_id] = registrations[row.registration_id][1:]
        by_player = {row.player_id: row for row in state.rows}
        stages.append(
            {
                "number": state.stage.number,
                "name": state.stage.name,
                "cut": cut_in_words(state.stage),
                "carried_points": carry_in_words(state.stage.carry),
                "complete": state.complete,
                "tournaments": [
                    {
                        "name": group.tournament.name,
                        "date": group.tournament.date.isoformat(),
                        "group": group.name or None,
                        "homologation": group.tournament.homologation or None,
                    }
                    for group in state.groups
                ],
                "players": len(state.rows),
                "qualified": [
                    _who(latest, player_id, by_player)
                    for player_id in state.cut.qualified
                    if index + 1 < len(view.states)
                ],
            }
        )
    final = []
    for place, _name in view.final:
        licence, last, first, club, series, sex, birth_year = latest.get(place.id, [""] * 7)
        final.append(
            {
                "position": place.position,
                "tied": place.tied,
                "licence": licence or None,
                "last_name": last,
                "first_name": first,
                "club": club,
                "series": series or None,
                "sex": sex or None,
                "birth_year": birth_year,
                "last_stage": view.states[place.stage].stage.number,
                "stage_rank": place.stage_rank,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "status": "final" if final else "provisional",
        "championship": {"name": championship.name, "stages": len(stages)},
        "made_by": {
            "installation": installation_name(),
            "at": timezone.now().replace(microsecond=0).isoformat(),
        },
        "stages": stages,
        "final_ranking": final,
    }


def _who(latest: dict, player_id: int, by_player: dict) -> str:
    """A qualifier as a receiver matches them: their licence, else their name."""
    values = latest.get(player_id)
    if values and values[0]:
        return values[0]
    row = by_player.get(player_id)
    return row.name if row else str(player_id)


def championship_csv(report: dict) -> str:
    """The final ranking, one line per player (empty until the last stage is complete)."""
    return csv_rows(CSV_COLUMNS, report["final_ranking"])

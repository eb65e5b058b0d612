"""A tournament's results report, gathered from the database: the standings (``scoring.standings``)
and each player's licence, série, sex and year of birth, in two queries beyond the standings'
(two more for a championship's stage: what it is, the rule of its carried points).

The format itself, and its JSON and CSV texts, are in ``scoring/documents/results_report.py``;
``docs/results-report.md`` describes it for whoever receives it.
"""

from __future__ import annotations

from django.utils import timezone

from scoring.documents.results_report import ReportEvent, ReportPlayer, ReportTeam, build
from scoring.sealing import installation_name
from scoring.standings import current_standings
from tournaments.championships.selectors import stage_in_words
from tournaments.models import Registration, Tournament


def results_report(tournament: Tournament) -> dict:
    """The report of ``tournament`` as it stands now (``status`` says whether it is final): its
    standings as its pages rank them (a championship's stage: the points carried in included,
    each player's carried points given and the rule said in words)."""
    data = current_standings(tournament)
    details = {
        pk: rest
        for pk, *rest in Registration.objects.filter(tournament=tournament).values_list(
            "pk", "first_name", "last_name", "licence", "series", "sex", "birth_year"
        )
    }
    teams = data.team_names
    players = []
    for standing in data.standings():
        entry = standing.entry
        first, last, licence, series, sex, birth_year = details[entry.id]
        rounds = {
            n: entry.rounds.get(n, 0) + entry.penalties.get(n, 0)
            for n in sorted({*entry.rounds, *entry.penalties})
        }
        players.append(
            ReportPlayer(
                rank=standing.rank,
                tied=standing.tied,
                last_name=last,
                first_name=first,
                club=entry.club,
                licence=licence,
                total=standing.total,
                rounds=rounds,
                deals_played=entry.deals_played,
                withdrawn=entry.withdrawn,
                series=series,
                sex=sex,
                birth_year=birth_year,
                team=teams.get(entry.team, "") if entry.team is not None else "",
                carried=entry.carried,
            )
        )
    team_rows = []
    if tournament.is_team_event:
        for team in data.team_standings():
            members = [
                details[m.id][2] or f"{details[m.id][0]} {details[m.id][1]}".strip()
                for m in team.members
            ]
            team_rows.append(
                ReportTeam(
                    rank=team.rank,
                    tied=team.tied,
                    name=team.name,
                    total=team.total,
                    members=members,
                )
            )
    event = ReportEvent(
        name=tournament.name,
        date=tournament.date.isoformat(),
        place=tournament.place,
        format=tournament.format,
        rule_set=tournament.rule_set,
        rounds=tournament.rounds,
        deals_per_round=tournament.deals_per_round,
        homologation=tournament.homologation,
        finished=tournament.finished,
        installation=installation_name(),
        made_at=timezone.now().replace(microsecond=0).isoformat(),
        stage=stage_in_words(tournament),
    )
    return build(event, players, team_rows)

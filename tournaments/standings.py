"""Standings from the database: a fixed number of queries, then the pure ranking code.

Only sheets that are entered count (complete, signed or amended); the result says which tables
are still pending so that pages can say "provisional".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from scoring.models import Penalty, Score, ScoreSheet
from tournaments import ranking
from tournaments.models import Registration, Round, Seat, Tournament

COUNTED = (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.SIGNED, ScoreSheet.Status.AMENDED)


@dataclass(frozen=True)
class Pending:
    round_number: int
    missing: list[int]  # tables whose sheet is not fully entered
    unsigned: list[int]  # tables entered but not signed


@dataclass(frozen=True)
class StandingsData:
    tournament: Tournament
    entries: list[ranking.Entry]
    registrations: dict[int, Registration]
    rounds: list[int]  # round numbers seated
    pending: list[Pending]

    @property
    def provisional(self) -> bool:
        return any(p.missing or p.unsigned for p in self.pending)

    @property
    def last_complete_round(self) -> int:
        done = [p.round_number for p in self.pending if not p.missing]
        return max(done, default=0)

    def standings(self, through: int | None = None) -> list[ranking.Standing]:
        return ranking.rank(
            self.entries, tie_breaks=self.tournament.tie_break_list, through=through
        )

    def team_standings(self, through: int | None = None) -> list[ranking.TeamStanding]:
        names = {
            r.team_id: r.team.name for r in self.registrations.values() if r.team_id is not None
        }
        return ranking.rank_teams(self.entries, names, through=through)

    def progression(self) -> dict:
        return ranking.progression(self.entries, self.rounds)


def standings_data(tournament: Tournament) -> StandingsData:
    """Five queries whatever the number of players, rounds and deals."""
    registrations = {
        r.pk: r
        for r in Registration.objects.filter(tournament=tournament).select_related(
            "player__club", "team"
        )
    }
    points: dict[int, dict[int, int]] = defaultdict(dict)
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in (
        Score.objects.filter(sheet__table__round__tournament=tournament, sheet__status__in=COUNTED)
        .values("registration_id", "round_number")
        .annotate(
            total=Sum("points"),
            played=Count("pk", filter=Q(played=True)),
            taken=Count("pk", filter=Q(took=True)),
            made=Count("pk", filter=Q(made=True)),
        )
    ):
        points[row["registration_id"]][row["round_number"]] = row["total"]
        c = counts[row["registration_id"]]
        c[0] += row["played"]
        c[1] += row["taken"]
        c[2] += row["made"]
    penalties: dict[int, dict[int, int]] = defaultdict(dict)
    for row in (
        Penalty.objects.filter(sheet__table__round__tournament=tournament)
        .values("registration_id", "sheet__table__round__number")
        .annotate(total=Sum("amount"))
    ):
        penalties[row["registration_id"]][row["sheet__table__round__number"]] = row["total"]
    tables: dict[int, dict[int, int]] = defaultdict(dict)
    table_sizes: dict[int, int] = defaultdict(int)
    for registration_id, round_number, table_id in Seat.objects.filter(
        round__tournament=tournament
    ).values_list("registration_id", "round__number", "table_id"):
        tables[registration_id][round_number] = table_id
        table_sizes[table_id] += 1
    by_round: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for round_number, table_number, status in ScoreSheet.objects.filter(
        table__round__tournament=tournament
    ).values_list("table__round__number", "table__number", "status"):
        by_round[round_number].append((table_number, status))
    pending = [
        Pending(
            round_number=number,
            missing=sorted(t for t, s in sheets if s not in COUNTED),
            unsigned=sorted(t for t, s in sheets if s in COUNTED and s != ScoreSheet.Status.SIGNED),
        )
        for number, sheets in sorted(by_round.items())
    ]
    entries = []
    for pk, registration in registrations.items():
        played, taken, made = counts.get(pk, (0, 0, 0))
        entries.append(
            ranking.Entry(
                id=pk,
                name=registration.player.full_name,
                club=registration.player.club.name if registration.player.club else "",
                team=registration.team_id,
                withdrawn=registration.status == Registration.Status.WITHDRAWN,
                rounds=points.get(pk, {}),
                penalties=penalties.get(pk, {}),
                deals_played=played,
                taken=taken,
                made=made,
                fives=sum(1 for t in tables.get(pk, {}).values() if table_sizes[t] == 5),
                tables=tables.get(pk, {}),
            )
        )
    # Players never seated and with no points stay out of the ranking (absent all day).
    entries = [e for e in entries if e.tables or e.rounds or e.penalties]
    return StandingsData(
        tournament=tournament,
        entries=entries,
        registrations=registrations,
        rounds=sorted(by_round),
        pending=pending,
    )


def current_round(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()

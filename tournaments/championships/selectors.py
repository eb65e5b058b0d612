"""The reads of a championship: each stage's standings as the cut sees them, the cut, and the
whole championship for its public page. Standings come from scoring through
:func:`tournaments.championships.signals.standings_of` (one computation per tournament version)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F
from django.utils.translation import gettext as _

from tournaments import ranking
from tournaments.championships import rules
from tournaments.championships.models import (
    CarriedPoints,
    Championship,
    Invitation,
    Stage,
    StageGroup,
    Withdrawal,
)
from tournaments.championships.signals import standings_of
from tournaments.models import Player, Registration, Round


@dataclass
class StageRow:
    """One player of a stage's standings, with what the cut says of them."""

    player_id: int
    registration_id: int
    name: str
    club: str
    group: str
    series: str
    rank: int
    tied: bool
    total: int
    carried: int
    qualified: bool = False
    declined: bool = False
    tournament_id: int = 0  # the group's tournament the player played


@dataclass
class StageState:
    stage: Stage
    groups: list[StageGroup]
    rows: list[StageRow]
    cut: rules.Cut
    complete: bool  # every round of every group's tournament is closed
    next_stage: Stage | None
    invited_names: dict = field(default_factory=dict)  # player id -> name

    @property
    def qualified_rows(self) -> list[StageRow]:
        by_player = {row.player_id: row for row in self.rows}
        return [by_player[p] for p in self.cut.qualified if p in by_player]


def may_organise(user, championship: Championship) -> bool:
    """Its creator (or a superuser) manages a championship; anyone else sees only its public
    page."""
    return bool(
        user.is_authenticated and (user.is_superuser or championship.created_by_id == user.pk)
    )


def stage_of(tournament) -> Stage | None:
    group = (
        StageGroup.objects.filter(tournament=tournament)
        .select_related("stage__championship")
        .first()
    )
    return group.stage if group else None


def _merged(groups: list[StageGroup], per_group: dict) -> list[ranking.Standing]:
    """One ranking of several groups' players (the cut taken over the whole stage)."""
    entries = [s.entry for group in groups for s in per_group[group.pk]]
    return ranking.rank(entries, tie_breaks=groups[0].tournament.tie_break_list)


def stage_state(stage: Stage, *, next_stage: Stage | None = None) -> StageState:
    """The stage's standings, the cut as it stands (final once every round is closed)."""
    groups = list(stage.groups.select_related("tournament"))
    tournaments = [g.tournament for g in groups]
    per_group = {g.pk: standings_of(g.tournament) for g in groups}
    group_of_tournament = {g.tournament_id: g for g in groups}
    details = {
        pk: (player_id, series, tournament_id)
        for pk, player_id, series, tournament_id in Registration.objects.filter(
            tournament__in=tournaments
        ).values_list("pk", "player_id", "series", "tournament_id")
    }
    declined = set(Withdrawal.objects.filter(stage=stage).values_list("registration_id", flat=True))
    if len(groups) > 1 and stage.scope == Stage.Scope.STAGE:
        ordered = _merged(groups, per_group)
    else:
        ordered = [s for g in groups for s in per_group[g.pk]]
    rows, ranked = [], []
    for standing in ordered:
        entry = standing.entry
        player_id, series, tournament_id = details[entry.id]
        group = group_of_tournament[tournament_id]
        row = StageRow(
            player_id=player_id,
            registration_id=entry.id,
            name=entry.name,
            club=entry.club,
            group=group.name,
            series=series,
            rank=standing.rank,
            tied=standing.tied,
            total=standing.total,
            carried=entry.carried,
            declined=entry.id in declined or entry.withdrawn,
            tournament_id=tournament_id,
        )
        rows.append(row)
        ranked.append(
            rules.Ranked(
                id=player_id,
                rank=standing.rank,
                total=standing.total,
                tied=standing.tied,
                group=group.name,
                series=series,
                tie_break=standing.tie_break,
                declined=row.declined,
            )
        )
    invitations = list(Invitation.objects.filter(stage=stage).select_related("player"))
    cut = rules.cut(
        ranked,
        mode=stage.cut_mode,
        value=stage.cut_value,
        scope=stage.scope,
        seed=stage.championship.seed,
        invitations=[rules.Invitation(id=i.player_id, kind=i.kind) for i in invitations],
    )
    qualified = set(cut.qualified)
    for row in rows:
        row.qualified = row.player_id in qualified
    closed = dict(
        Round.objects.filter(tournament__in=tournaments, status=Round.Status.CLOSED)
        .values("tournament")
        .annotate(n=Count("pk"))
        .values_list("tournament", "n")
    )
    complete = bool(groups) and all(closed.get(t.pk, 0) >= t.rounds for t in tournaments)
    return StageState(
        stage=stage,
        groups=groups,
        rows=rows,
        cut=cut,
        complete=complete,
        next_stage=next_stage,
        invited_names={i.player_id: i.player.full_name for i in invitations},
    )


def next_stage_of(stage: Stage) -> Stage | None:
    return (
        Stage.objects.filter(championship_id=stage.championship_id, number__gt=stage.number)
        .order_by("number")
        .first()
    )


def carry_in_words(carry: str) -> str:
    """What a stage carries into the next, as every page and document that ranks it says."""
    return {
        Stage.Carry.NONE: _("No points are carried into the next stage."),
        Stage.Carry.ALL: _("Each qualifier carries all their points into the next stage."),
        Stage.Carry.HALF: _("Each qualifier carries half their points into the next stage."),
        Stage.Carry.THIRD: _("Each qualifier carries a third of their points into the next stage."),
        Stage.Carry.QUARTER: _(
            "Each qualifier carries a quarter of their points into the next stage."
        ),
    }[carry]


def cut_in_words(stage: Stage) -> str:
    """« Les 104 premiers du classement de l'étape se qualifient. »"""
    if stage.cut_mode == Stage.CutMode.PERCENT:
        text = _("The top %(value)d %% (rounded up) go on") % {"value": stage.cut_value}
    else:
        text = _("The top %(value)d go on") % {"value": stage.cut_value}
    scope = {
        Stage.Scope.STAGE: _("over the whole stage"),
        Stage.Scope.GROUP: _("in each group"),
        Stage.Scope.SERIES: _("in each série"),
    }[stage.scope]
    return f"{text}, {scope}."


def tie_in_words(tie: rules.Tie, names: dict) -> str:
    """« 104e ex æquo (Anne Roux, Paul Martin) : départagés par tirage au sort (graine 7). »"""
    who = ", ".join(names.get(pid, str(pid)) for pid in tie.players)
    if tie.decided_by == "draw":
        how = _("decided by a draw")
    else:
        how = {
            "best_round": _("decided by the better round"),
            "fewer_fives": _("decided by fewer rounds at a table of 5"),
            "head_to_head": _("decided by head-to-head points"),
        }.get(tie.decided_by, tie.decided_by)
    return _("Rank %(rank)d tied (%(who)s): %(how)s.") % {
        "rank": tie.rank,
        "who": who,
        "how": how,
    }


@dataclass
class ChampionshipView:
    championship: Championship
    states: list[StageState]
    final: list[tuple[rules.FinalPlace, str]]  # (place, name), once the last stage is closed


def championship_view(championship: Championship) -> ChampionshipView:
    stages = list(championship.stages.order_by("number"))
    states = [
        stage_state(stage, next_stage=stages[i + 1] if i + 1 < len(stages) else None)
        for i, stage in enumerate(stages)
    ]
    final = []
    if states and states[-1].complete:
        names = {row.player_id: row.name for state in states for row in state.rows}
        places = rules.final_ranking(
            [[(row.player_id, row.rank) for row in state.rows] for state in states]
        )
        final = [(place, names.get(place.id, "")) for place in places]
    return ChampionshipView(championship=championship, states=states, final=final)


def cut_line_of(tournament) -> dict | None:
    """For a stage tournament's standings while it is played: the registrations that go on
    as things stand, the cut and the carry in words (None outside a championship)."""
    group = (
        StageGroup.objects.filter(tournament=tournament)
        .select_related("stage__championship")
        .first()
    )
    if group is None:
        return None
    stage = group.stage
    state = stage_state(stage)
    mine = [row for row in state.rows if row.group == group.name]
    qualified = {row.registration_id for row in mine if row.qualified}
    last = next(
        (row.registration_id for row in reversed(mine) if row.qualified),
        None,
    )
    names = {row.player_id: row.name for row in state.rows}
    return {
        "championship": stage.championship,
        "stage": stage,
        "qualified": qualified,
        "last_in": last,
        "cut": cut_in_words(stage),
        "carry": carry_in_words(stage.carry),
        "ties": [tie_in_words(t, names) for t in state.cut.ties],
        "has_carried": any(row.carried for row in mine),
    }


def carried_of(registration_ids) -> dict[int, int]:
    return dict(
        CarriedPoints.objects.filter(registration_id__in=registration_ids).values_list(
            "registration_id", "points"
        )
    )


def player_names(player_ids) -> dict[int, str]:
    return {p.pk: p.full_name for p in Player.objects.filter(pk__in=player_ids)}


def went_on(next_stage: Stage) -> list[tuple[int, str, str, int]]:
    """Who a closed stage sent on, as closing registered them in ``next_stage`` (by their rank
    in the stage, invited players last): a later correction of the stage changes its
    standings, never who played the next one. Each as (player id, name, the next stage
    tournament's slug, the registration there)."""
    return [
        (player_id, Player.name_of(first, last), slug, pk)
        for player_id, first, last, slug, pk in Registration.objects.filter(
            tournament__stage_group__stage=next_stage
        )
        .order_by(F("carried_points__previous_rank").asc(nulls_last=True), "last_name", "pk")
        .values_list("player_id", "first_name", "last_name", "tournament__slug", "pk")
    ]


def reopen_problem(stage: Stage) -> str | None:
    """Why ``stage`` cannot be reopened now, in a sentence; None when it can: it is the last
    closed stage and the next one has not started (nothing recorded on any of its sheets, no
    round after its first, nobody registered there by hand)."""
    if not stage.closed_at:
        return _("This stage is not closed: there is nothing to reopen.")
    following = next_stage_of(stage)
    if following is None:
        return None
    if following.closed_at:
        return _("The next stage is closed: reopen it first.")
    tournaments = [g.tournament_id for g in following.groups.all()]
    rounds = Round.objects.filter(tournament__in=tournaments)
    if rounds.exclude(number=1).exists() or rounds.exclude(status=Round.Status.SEATED).exists():
        return _(
            "The next stage has started (a deal or a sheet is recorded): this stage can no "
            "longer be reopened."
        )
    by_hand = Registration.objects.filter(tournament__in=tournaments, carried_points__isnull=True)
    if by_hand.exists():
        return _(
            "Players were registered in the next stage by hand since the close: remove them "
            "there first."
        )
    return None

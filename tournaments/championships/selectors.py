"""The reads of a championship: each stage's standings as the cut sees them, the cut, and the
whole championship for its public page. Standings come from scoring through
:func:`tournaments.championships.signals.standings_of` (one computation per tournament version,
a championship's tournaments together)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F
from django.http import Http404
from django.shortcuts import get_object_or_404
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


def organised_championship(user, slug: str) -> Championship:
    """The championship of ``slug`` when ``user`` manages it (``may_organise``); any other is
    404, as a missing one: its staff pages and its report's job ask alike."""
    championship = get_object_or_404(Championship, slug=slug)
    if not may_organise(user, championship):
        raise Http404
    return championship


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


@dataclass
class _Reads:
    """What the stages' states read, for one stage or a whole championship in the same fixed
    number of queries (whatever the stages, groups and players)."""

    groups: dict  # stage id -> its groups (their tournaments selected)
    standings: dict  # tournament id -> its standings
    details: dict  # registration id -> (player id, série, tournament id)
    declined: dict  # stage id -> the registrations withdrawn
    invitations: dict  # stage id -> its invitations (their players selected)
    closed: dict  # tournament id -> its closed rounds


def _reads(stages: list[Stage]) -> _Reads:
    groups: dict = {stage.pk: [] for stage in stages}
    for group in StageGroup.objects.filter(stage__in=stages).select_related("tournament"):
        groups[group.stage_id].append(group)
    tournaments = [g.tournament for stage_groups in groups.values() for g in stage_groups]
    declined: dict = {stage.pk: set() for stage in stages}
    for stage_id, registration_id in Withdrawal.objects.filter(stage__in=stages).values_list(
        "stage_id", "registration_id"
    ):
        declined[stage_id].add(registration_id)
    invitations: dict = {stage.pk: [] for stage in stages}
    for invitation in Invitation.objects.filter(stage__in=stages).select_related("player"):
        invitations[invitation.stage_id].append(invitation)
    return _Reads(
        groups=groups,
        standings=standings_of(tournaments) if tournaments else {},
        details={
            pk: (player_id, series, tournament_id)
            for pk, player_id, series, tournament_id in Registration.objects.filter(
                tournament__in=tournaments
            ).values_list("pk", "player_id", "series", "tournament_id")
        },
        declined=declined,
        invitations=invitations,
        closed=dict(
            Round.objects.filter(tournament__in=tournaments, status=Round.Status.CLOSED)
            .values("tournament")
            .annotate(n=Count("pk"))
            .values_list("tournament", "n")
        ),
    )


def stage_state(
    stage: Stage, *, next_stage: Stage | None = None, reads: _Reads | None = None
) -> StageState:
    """The stage's standings, the cut as it stands (final once every round is closed);
    ``reads``: what :func:`championship_view` read once for all its stages."""
    reads = reads or _reads([stage])
    groups = reads.groups[stage.pk]
    tournaments = [g.tournament for g in groups]
    per_group = {g.pk: reads.standings[g.tournament_id] for g in groups}
    group_of_tournament = {g.tournament_id: g for g in groups}
    details = reads.details
    declined = reads.declined[stage.pk]
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
    invitations = reads.invitations[stage.pk]
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
    closed = reads.closed
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
    reads = _reads(stages)  # every stage's reads at once: a fixed number of queries
    states = [
        stage_state(stage, next_stage=stages[i + 1] if i + 1 < len(stages) else None, reads=reads)
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


def went_on(next_stages: list[Stage]) -> dict[int, list[tuple[int, str, str, int]]]:
    """Who each closed stage sent on, as closing registered them in its next stage (by their
    rank in the stage, invited players last), by the next stage's id, in one query: a later
    correction of a stage changes its standings, never who played the next one. Each as
    (player id, name, the next stage tournament's slug, the registration there)."""
    found: dict[int, list[tuple[int, str, str, int]]] = {stage.pk: [] for stage in next_stages}
    for stage_id, player_id, first, last, slug, pk in (
        Registration.objects.filter(tournament__stage_group__stage__in=next_stages)
        .order_by(
            "tournament__stage_group__stage",
            F("carried_points__previous_rank").asc(nulls_last=True),
            "last_name",
            "pk",
        )
        .values_list(
            "tournament__stage_group__stage",
            "player_id",
            "first_name",
            "last_name",
            "tournament__slug",
            "pk",
        )
    ):
        found[stage_id].append((player_id, Player.name_of(first, last), slug, pk))
    return found


def person_of(player: Player) -> dict:
    """Who a player is, as an archive names them (``player.club`` selected)."""
    return {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club.name if player.club_id else "",
        "licence": player.licence,
    }


def stage_in_words(tournament) -> dict | None:
    """A stage tournament's place in its championship as its results report says it: the
    championship, the stage, its cut and carry, and whether its totals include the points
    carried in (with the previous stage's rule) — None outside a championship."""
    stage = stage_of(tournament)
    if stage is None:
        return None
    previous = (
        Stage.objects.filter(championship_id=stage.championship_id, number__lt=stage.number)
        .order_by("-number")
        .first()
    )
    carried_in = None
    if previous is not None and previous.carry != Stage.Carry.NONE:
        carried_in = _(
            "Totals and ranks include the points carried in from the previous stage "
            "(%(stage)s): %(rule)s"
        ) % {"stage": previous.name, "rule": carry_in_words(previous.carry)}
    return {
        "championship": stage.championship.name,
        "number": stage.number,
        "name": stage.name,
        "cut": cut_in_words(stage),
        "carried_points": carry_in_words(stage.carry),
        "carried_in": carried_in,
    }


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
    if rounds.exclude(number=1, status=Round.Status.SEATED).exists():  # anything but round 1 seated
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

"""The championship's writers: create it and its stages, invite a player, record a
withdrawal, and close a stage (all or nothing: the next stage's registrations from the
qualifiers, their carried points and round 1 seated)."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tarot_club.errors import ServiceError
from tournaments.championships import rules
from tournaments.championships.models import (
    CarriedPoints,
    Championship,
    Invitation,
    Stage,
    StageGroup,
    Withdrawal,
)
from tournaments.championships.selectors import (
    next_stage_of,
    person_of,
    reopen_problem,
    stage_state,
)
from tournaments.models import Club, Player, Registration, Round, Tournament
from tournaments.seating.sizes import table_sizes
from tournaments.selectors import next_round_check
from tournaments.services import ending
from tournaments.services.rounds import lock_round, round_seat_next
from tournaments.services.tournaments import tournament_touch


def championship_create(*, name: str, created_by=None, seed: int | None = None) -> Championship:
    base = slugify(name)[:70] or "championnat"
    slug, n = base, 1
    while Championship.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    championship = Championship(
        name=name,
        slug=slug,
        created_by=created_by,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 10**6),
    )
    championship.full_clean()
    championship.save()
    return championship


def stage_add(
    *,
    championship: Championship,
    name: str,
    tournaments: list[tuple[Tournament, str]],
    cut_mode: str = Stage.CutMode.TOP,
    cut_value: int = 0,
    scope: str = Stage.Scope.STAGE,
    carry: str = Stage.Carry.NONE,
    seating: str = Stage.Seating.RANDOM,
) -> Stage:
    """The next stage of ``championship``: its tournaments (each with its group's name)."""
    with transaction.atomic():
        taken = StageGroup.objects.filter(tournament__in=[t for t, _name in tournaments])
        if taken.exists():
            raise ServiceError(_("A tournament belongs to one stage only."))
        number = championship.stages.count() + 1
        stage = Stage(
            championship=championship,
            number=number,
            name=name,
            cut_mode=cut_mode,
            cut_value=cut_value,
            scope=scope,
            carry=carry,
            seating=seating,
        )
        stage.full_clean()
        stage.save()
        StageGroup.objects.bulk_create(
            [StageGroup(stage=stage, tournament=t, name=group) for t, group in tournaments]
        )
        return stage


def _touch_stage(stage: Stage) -> None:
    for tournament_id in stage.groups.values_list("tournament_id", flat=True):
        tournament_touch(tournament_id=tournament_id)


def invitation_add(*, stage: Stage, player: Player, kind: str = Invitation.Kind.WILDCARD):
    """The organiser adds ``player`` to the stage's qualifiers (seeded or a wildcard)."""
    with transaction.atomic():
        if stage.closed_at:
            raise ServiceError(_("This stage is closed."))
        invitation, _created = Invitation.objects.update_or_create(
            stage=stage, player=player, defaults={"kind": kind}
        )
        _touch_stage(stage)
        return invitation


def withdrawal_add(*, stage: Stage, registration: Registration) -> Withdrawal:
    """``registration`` will not play the next stage: the next in the standings goes on."""
    with transaction.atomic():
        if stage.closed_at:
            raise ServiceError(_("This stage is closed."))
        if not stage.groups.filter(tournament_id=registration.tournament_id).exists():
            raise ServiceError(_("This player did not play this stage."))
        withdrawal, _created = Withdrawal.objects.get_or_create(
            stage=stage, registration=registration
        )
        _touch_stage(stage)
        return withdrawal


def withdrawal_remove(*, stage: Stage, registration: Registration) -> None:
    with transaction.atomic():
        if stage.closed_at:
            raise ServiceError(_("This stage is closed."))
        Withdrawal.objects.filter(stage=stage, registration=registration).delete()
        _touch_stage(stage)


def _split(players: list, groups: int) -> list[list]:
    """The qualifiers (best first) across the next stage's groups, in a snake."""
    sizes = [
        len(players) // groups + (1 if i < len(players) % groups else 0) for i in range(groups)
    ]
    return rules.snake(players, sizes)


def stage_close(*, stage: Stage, expected: tuple | None = None, by: str = "") -> Stage:
    """Close ``stage``: its qualifiers (as the preview showed them: ``expected``) are
    registered in the next stage, present, with their carried points, and its round 1 is
    seated (at random, or by previous rank in a snake); its tournaments are finished (their
    standings read « final » everywhere, as « Terminer le tournoi » makes them). All or
    nothing. Registrations and carried points are bulk-created with their history: 2,000
    players close in a few seconds (``bench/figures.md``)."""
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("championship").get(pk=stage.pk)
        if stage.closed_at:
            raise ServiceError(_("This stage is already closed."))
        state = stage_state(stage)
        if not state.complete:
            raise ServiceError(_("Close every round of the stage's tournaments first."))
        if expected is not None and tuple(expected) != tuple(state.cut.qualified):
            raise ServiceError(
                _("The standings changed since the preview: look at the qualifiers again.")
            )
        following = next_stage_of(stage)
        if following is not None:
            _open_next(state, following, stage)
        for group in stage.groups.select_related("tournament"):
            if not group.tournament.finished:
                ending.tournament_finish(tournament=group.tournament, by=by)
        stage.closed_at = timezone.now()
        stage.save(update_fields=["closed_at"])
        _touch_stage(stage)
        return stage


def stage_reopen(*, stage: Stage, by: str = "") -> Stage:
    """Reopen the last closed stage while the next one has not started: the registrations,
    carried points and round 1 that closing made in the next stage are removed (their history
    is kept), and the stage's tournaments are provisional again. All or nothing."""
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("championship").get(pk=stage.pk)
        problem = reopen_problem(stage)
        if problem:
            raise ServiceError(problem)
        following = next_stage_of(stage)
        if following is not None:
            tournaments = [g.tournament for g in following.groups.select_related("tournament")]
            for round_ in Round.objects.filter(tournament__in=tournaments).order_by("-number"):
                round_ = lock_round(round_.pk)
                round_.tables.all().delete()
                round_.delete()
            registrations = list(Registration.objects.filter(tournament__in=tournaments))
            for carried in CarriedPoints.objects.filter(registration__in=registrations):
                carried.delete()  # one by one: each keeps its history
            for registration in registrations:
                registration.delete()
            for tournament in tournaments:
                tournament_touch(tournament_id=tournament.pk)
        stage.closed_at = None  # first: a closed stage's tournament does not reopen alone
        stage.save(update_fields=["closed_at"])
        reason = _("Stage « %(name)s » reopened.") % {"name": stage.name}
        for group in stage.groups.select_related("tournament"):
            if group.tournament.finished:
                ending.tournament_reopen(tournament=group.tournament, by=by, reason=reason)
        _touch_stage(stage)
        return stage


def _open_next(state, following: Stage, stage: Stage) -> None:
    groups = list(following.groups.select_related("tournament").order_by("name", "pk"))
    if not groups:
        raise ServiceError(_("The next stage has no tournament yet."))
    tournaments = [g.tournament for g in groups]
    if Round.objects.filter(tournament__in=tournaments).exists():
        raise ServiceError(_("The next stage has already started."))
    if Registration.objects.filter(tournament__in=tournaments).exists():
        raise ServiceError(_("The next stage already has players."))
    qualified = list(state.cut.qualified)
    if not qualified:
        raise ServiceError(_("Nobody goes on: set the stage's cut first."))
    rows = {row.player_id: row for row in state.rows}
    source_ids = [rows[p].registration_id for p in qualified if p in rows]
    sources = {r.player_id: r for r in Registration.objects.filter(pk__in=source_ids)}
    invited = {
        p.pk: p
        for p in Player.objects.filter(
            pk__in=[p for p in qualified if p not in sources]
        ).select_related("club")
    }
    new = []
    for tournament, players in zip(tournaments, _split(qualified, len(groups)), strict=True):
        for player_id in players:
            registration = Registration(
                tournament=tournament, player_id=player_id, status=Registration.Status.PRESENT
            )
            source = sources.get(player_id)
            if source is not None:
                for name in ("first_name", "last_name", "club_name", "licence", "series"):
                    setattr(registration, name, getattr(source, name))
                registration.sex, registration.birth_year = source.sex, source.birth_year
            else:
                registration.copy_player(invited[player_id])
            new.append(registration)
    bulk_create_with_history(new, Registration, batch_size=500)
    created = {
        (tournament_id, player_id): pk
        for pk, tournament_id, player_id in Registration.objects.filter(
            tournament__in=tournaments
        ).values_list("pk", "tournament_id", "player_id")
    }
    carried = []
    for registration in new:
        row = rows.get(registration.player_id)
        carried.append(
            CarriedPoints(
                registration_id=created[(registration.tournament_id, registration.player_id)],
                points=rules.carried_points(row.total, stage.carry) if row else 0,
                source_id=sources[registration.player_id].pk if row else None,
                previous_rank=row.rank if row else None,
            )
        )
    bulk_create_with_history(carried, CarriedPoints, batch_size=500)
    order_of = {player_id: index for index, player_id in enumerate(qualified)}
    for tournament in tournaments:
        ids = sorted(
            (
                (order_of[player_id], pk)
                for (tournament_id, player_id), pk in created.items()
                if tournament_id == tournament.pk
            ),
        )
        order = None
        next_round_check(tournament)  # says why a field cannot be seated, before the snake
        if stage.seating == Stage.Seating.SNAKE:
            ranked = [pk for _index, pk in ids]
            tables = rules.snake(ranked, table_sizes(len(ranked), tournament.odd_tables))
            order = [pk for table in tables for pk in table]
        round_seat_next(tournament=tournament, order=order)


def stage_restore(*, tournament: Tournament, data: dict) -> None:
    """An archive's stage (``scoring.archive_stages``, which checked it), inside the archive's
    import: the championship and the stage are created unless already here (a stage already
    here must have the same settings), then the tournament's group, the players who are
    already here as players of another stage of the championship (the import made them anew),
    the carried points, the invitations and the withdrawals."""
    c = data["championship"]
    championship = Championship.objects.filter(slug=c["slug"]).first()
    if championship is None:
        championship = Championship(slug=c["slug"], name=c["name"], seed=c["seed"])
        championship.full_clean()
        championship.save()
    settings = data["settings"]
    stage = Stage.objects.filter(championship=championship, number=data["number"]).first()
    if stage is None:
        stage = Stage(championship=championship, number=data["number"], **settings)
        stage.full_clean()
        stage.save()
    elif any(getattr(stage, name) != value for name, value in settings.items()):
        raise ServiceError(_("This stage is already here with other settings."))
    StageGroup.objects.create(stage=stage, tournament=tournament, name=data["group"])
    known = _known(championship, exclude=tournament)
    players = {}  # registration id -> player id, once the players already here are found
    for registration in Registration.objects.filter(tournament=tournament):
        _same_person(registration, known)
        players[registration.pk] = registration.player_id
    slugs = {row["from"] for row in data["carried"] if row["from"]}
    sources = {
        (r.tournament.slug, r.player_id): r
        for r in Registration.objects.filter(tournament__slug__in=slugs).select_related(
            "tournament"
        )
    }
    bulk_create_with_history(
        [
            CarriedPoints(
                registration=row["registration"],
                points=row["points"],
                source=sources.get((row["from"], players[row["registration"].pk])),
                previous_rank=row["previous_rank"],
            )
            for row in data["carried"]
        ],
        CarriedPoints,
        batch_size=500,
    )
    known = _known(championship)  # each player is invited once to a stage
    for invitation in data["invitations"]:
        person = {name: invitation[name] for name in ("first_name", "last_name", "licence")}
        player = known.get(_person_key(**person, club=invitation["club"]))
        if player is None and person["licence"]:
            player = Player.objects.filter(licence=person["licence"]).first()
        if player is None:
            club = invitation["club"]
            player = Player.objects.create(
                **person, club=Club.objects.get_or_create(name=club)[0] if club else None
            )
        Invitation.objects.update_or_create(
            stage=stage, player=player, defaults={"kind": invitation["kind"]}
        )
    bulk_create_with_history(
        [Withdrawal(stage=stage, registration=r) for r in data["withdrawals"]], Withdrawal
    )


def _person_key(*, first_name: str, last_name: str, club: str, licence: str) -> tuple:
    return (last_name.casefold(), first_name.casefold(), club.casefold(), licence)


def _known(championship: Championship, exclude: Tournament | None = None) -> dict:
    """The championship's players here (registered in a stage, or invited) by name, club and
    licence (a name two players share names nobody)."""
    registrations = Registration.objects.filter(
        tournament__stage_group__stage__championship=championship
    )
    if exclude is not None:
        registrations = registrations.exclude(tournament=exclude)
    invited = Invitation.objects.filter(stage__championship=championship)
    players = Player.objects.filter(
        Q(pk__in=registrations.values("player_id")) | Q(pk__in=invited.values("player_id"))
    ).select_related("club")
    known: dict = {}
    for player in players:
        key = _person_key(**person_of(player))
        known[key] = None if key in known else player
    return known


def _same_person(registration: Registration, known: dict) -> None:
    """``registration`` (just imported) is a player already here when another stage has them:
    it takes that player, and the player the import made goes."""
    player = known.get(
        _person_key(
            first_name=registration.first_name,
            last_name=registration.last_name,
            club=registration.club_name,
            licence=registration.licence,
        )
    )
    if player is None or player.pk == registration.player_id:
        return
    made = registration.player_id
    registration.player = player
    registration.save(update_fields=["player"])
    if not Registration.objects.filter(player_id=made).exists():
        Player.objects.filter(pk=made).delete()

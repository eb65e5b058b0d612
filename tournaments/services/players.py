"""Services for a tournament's players: register (alone or as a team), check in, withdraw,
correct, remove and merge. The import of a whole file is :mod:`tournaments.services.player_import`;
the checks of a row are :mod:`tournaments.rows`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_club.errors import ServiceError
from tournaments.licensees.selectors import filled_from_list
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Team,
    Tournament,
)
from tournaments.rows import (
    PlayerRow,
    checked_details,
    other_holder,
    text_problems,
    validate_row,
)
from tournaments.services.tournaments import tournament_touch
from tournaments.signals import registration_correcting


def _check_licence(tournament: Tournament, row: PlayerRow) -> Player | None:
    """The existing player holding this licence, or None; a ServiceError when it conflicts."""
    if not row.licence:
        return None
    player = Player.objects.filter(licence=row.licence).first()
    if player is None:
        return None
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ServiceError(
            _("Licence %(licence)s is already registered in this tournament (%(name)s).")
            % {"licence": row.licence, "name": player.full_name},
            field="licence",
        )
    if other_holder(player.last_name, player.first_name, row):
        raise ServiceError(
            _("Licence %(licence)s belongs to another player: check the number or the name.")
            % {"licence": row.licence},
            field="licence",
        )
    return player


def _player_for(tournament: Tournament, row: PlayerRow) -> Player:
    player = _check_licence(tournament, row)
    club = Club.objects.get_or_create(name=row.club.strip())[0] if row.club.strip() else None
    if player is None:
        player = Player.objects.create(
            first_name=row.first_name.strip(),
            last_name=row.last_name.strip(),
            club=club,
            licence=row.licence.strip(),
        )
    # An existing player's shared record is not this tournament's to change: the club typed
    # here is this tournament's record of them only (``_snapshot``).
    return player


def _snapshot(registration: Registration, player: Player, row: PlayerRow) -> Registration:
    """This tournament's record of the player: the name as typed (the licence's holder has
    the same name, ignoring case), the club typed or else the player's, the licence."""
    registration.first_name = row.first_name.strip() or player.first_name
    registration.last_name = row.last_name.strip() or player.last_name
    registration.licence = player.licence
    registration.club_name = row.club.strip() or (player.club.name if player.club_id else "")
    return registration


@transaction.atomic
def player_register(
    *, tournament: Tournament, row: PlayerRow, present: bool = False, team: Team | None = None
) -> Registration:
    """Register one player (a late player on the day is registered ``present``); a licence of
    the licensee list fills the name and club left blank, the série, sex and year of birth."""
    row, listed = filled_from_list(row)
    validate_row(row)
    details = checked_details(row, tournament)
    if tournament.is_team_event and team is None:
        raise ServiceError(
            _("In a team tournament, players register with their team."), field="team"
        )
    player = _player_for(tournament, row)
    registration = _snapshot(
        Registration(
            tournament=tournament,
            player=player,
            team=team,
            status=Registration.Status.PRESENT if present else Registration.Status.REGISTERED,
            # What the row gives, else what the licensee list gives.
            **listed,
            **{name: value for name, value in details.items() if value not in ("", None)},
        ),
        player,
        row,
    )
    registration.save()
    tournament_touch(tournament_id=tournament.pk)
    return registration


@transaction.atomic
def team_register(
    *, tournament: Tournament, name: str, members: list[PlayerRow], present: bool = False
) -> Team:
    """A team's members register together: exactly the format's team size."""
    if not tournament.is_team_event:
        raise ServiceError(_("This tournament is individual: it has no teams."))
    name = name.strip()
    if not name:
        raise ServiceError(_("The team name is missing."), field="name")
    problems = text_problems("team", name)
    if problems:
        raise ServiceError(capfirst(problems[0]) + ".", field="name")
    if len(members) != tournament.team_size:
        raise ServiceError(
            ngettext(
                "A team has %(size)d players; %(count)d was given.",
                "A team has %(size)d players; %(count)d were given.",
                len(members),
            )
            % {"size": tournament.team_size, "count": len(members)},
            field="members",
        )
    if Team.objects.filter(tournament=tournament, name=name).exists():
        raise ServiceError(
            _("A team named “%(name)s” already exists.") % {"name": name}, field="name"
        )
    team = Team.objects.create(tournament=tournament, name=name)
    for row in members:
        player_register(tournament=tournament, row=row, present=present, team=team)
    return team


@transaction.atomic
def registration_set_status(*, registration: Registration, status: str) -> Registration:
    """Check-in on the day: present / absent; withdraw between rounds."""
    if status not in Registration.Status.values:
        raise ServiceError(_("Unknown status."))
    tournament = registration.tournament
    if status == Registration.Status.WITHDRAWN:
        # The last round the player took part in: a seated round that has not started yet
        # does not count (the organiser swaps someone in or seats it again).
        registration.withdrawn_after_round = (
            Round.objects.filter(tournament=tournament).exclude(status=Round.Status.SEATED).count()
            or None
        )
    elif registration.status == Registration.Status.WITHDRAWN:
        registration.withdrawn_after_round = None
    registration.status = status
    registration.save(update_fields=["status", "withdrawn_after_round"])
    tournament_touch(tournament_id=tournament.pk)
    return registration


@transaction.atomic
def registration_correct(*, registration: Registration, row: PlayerRow) -> Registration:
    """The organiser corrects this tournament's record of a player (name, club, licence,
    série, sex, year of birth).

    Other tournaments keep theirs. The name, club and licence are refused once a sheet the
    player sat at was signed: what the players signed and the seal holds does not change
    afterwards (the série, sex and year of birth, on no sheet, still may). A licence held by
    another player of the register links the registration to that player (same name only).
    """
    validate_row(row)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    details = checked_details(row, registration.tournament)
    licence = row.licence.strip()
    signed = (registration.first_name, registration.last_name, registration.club_name)
    if signed != (row.first_name.strip(), row.last_name.strip(), row.club.strip()) or (
        licence != registration.licence
    ):  # a série, sex or year of birth is not on the signed sheets: it may change
        registration_correcting.send(sender=Registration, registration=registration)
    player = registration.player
    if licence and licence != registration.licence:
        twin = (
            Registration.objects.filter(tournament_id=registration.tournament_id, licence=licence)
            .exclude(pk=registration.pk)
            .first()
        )
        if twin is not None:
            raise ServiceError(
                _(
                    "Licence %(licence)s is already registered in this tournament (%(name)s): "
                    "merge the two players instead."
                )
                % {"licence": licence, "name": twin.full_name},
                field="licence",
            )
        holder = Player.objects.filter(licence=licence).first()
        if holder is not None and other_holder(holder.last_name, holder.first_name, row):
            raise ServiceError(
                _("Licence %(licence)s belongs to another player: check the number or the name.")
                % {"licence": licence},
                field="licence",
            )
        if holder is None and player.licence and player.registrations.count() > 1:
            holder = Player.objects.create(  # the register's player keeps their licence
                first_name=row.first_name.strip(), last_name=row.last_name.strip(), licence=licence
            )
        if holder is not None:
            player = holder
        else:
            player.licence = licence
            player.save(update_fields=["licence"])
    registration.player = player
    registration.first_name = row.first_name.strip()
    registration.last_name = row.last_name.strip()
    registration.club_name = row.club.strip()
    registration.licence = licence
    for name, value in details.items():
        setattr(registration, name, value)
    registration.save()
    tournament_touch(tournament_id=registration.tournament.pk)
    return registration


def _played(registration: Registration) -> bool:
    return Seat.objects.filter(registration=registration).exists()


@transaction.atomic
def registration_remove(*, registration: Registration) -> None:
    """Remove a player registered by mistake, who has not been seated yet (a player who
    played, or is seated, is withdrawn instead: their results stay)."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if _played(registration):
        raise ServiceError(
            _("%(name)s is already seated: withdraw them instead.")
            % {"name": registration.full_name}
        )
    if registration.team_id is not None:
        raise ServiceError(
            _("%(name)s belongs to a team: correct their name instead.")
            % {"name": registration.full_name}
        )
    tournament = registration.tournament
    registration.delete()
    tournament_touch(tournament_id=tournament.pk)


@transaction.atomic
def registration_merge(*, registration: Registration, into: Registration) -> Registration:
    """Two registrations of the same person: keep ``into``, remove ``registration`` (never
    seated). What only the removed one knew (first name, club, licence) and its presence
    pass to the kept one."""
    pair = {
        r.pk: r
        for r in Registration.objects.select_for_update().filter(pk__in=[registration.pk, into.pk])
    }
    if registration.pk == into.pk or len(pair) != 2:
        raise ServiceError(_("Choose two different players."))
    gone, kept = pair[registration.pk], pair[into.pk]
    if gone.tournament_id != kept.tournament_id:
        raise ServiceError(_("Choose two different players."))
    if _played(gone):
        raise ServiceError(
            _("%(name)s is already seated: merge the other one into them.")
            % {"name": gone.full_name}
        )
    if gone.team_id is not None and gone.team_id != kept.team_id:
        raise ServiceError(_("They belong to different teams: correct the teams first."))
    kept.first_name = kept.first_name or gone.first_name
    kept.club_name = kept.club_name or gone.club_name
    if not kept.licence and gone.licence:
        kept.licence = gone.licence
        kept.player = gone.player  # the register's licensed player
    if gone.status == Registration.Status.PRESENT:
        kept.status = Registration.Status.PRESENT
    gone.delete()
    kept.save()
    tournament_touch(tournament_id=kept.tournament.pk)
    return kept

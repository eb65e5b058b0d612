"""The halls' services: set a tournament's halls (before round 1 is seated), and assign a
referee to a hall. Keyword-only arguments, validation before any write, one transaction, a
:class:`ServiceError` in the user's language."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.halls.messages import hall_error
from tournaments.halls.models import Hall, HallPlan, HallReferee
from tournaments.models import StaffMember, Tournament
from tournaments.seating import halls as rule
from tournaments.services.tournaments import tournament_touch


@dataclass(frozen=True)
class HallRow:
    name: str
    slug: str
    first: int
    last: int


def halls_set(*, tournament: Tournament, halls: list[HallRow], keep_players: bool) -> None:
    """Replace the tournament's halls (none: no halls). Refused once round 1 is seated: the
    tables already have their numbers."""
    try:
        rule.check_halls([rule.Hall(h.slug, h.first, h.last) for h in halls])
    except rule.HallError as error:
        raise hall_error(error) from None
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.round_set.exists():
            raise ServiceError(
                _("The halls are set before seating: round 1 is already seated."), field="halls"
            )
        existing = {h.slug: h for h in Hall.objects.filter(tournament=tournament)}
        for row in halls:
            hall = existing.pop(row.slug, None) or Hall(tournament=tournament, slug=row.slug)
            hall.name, hall.first_table, hall.last_table = row.name, row.first, row.last
            hall.save()
        for gone in existing.values():
            gone.delete()
        plan, _created = HallPlan.objects.get_or_create(tournament=tournament)
        if plan.keep_players != keep_players:
            plan.keep_players = keep_players
            plan.save()
        tournament_touch(tournament_id=tournament.pk)


def referee_hall_set(*, staff: StaffMember, hall: Hall | None) -> None:
    """Assign a staff member of the tournament to a hall (None: every hall)."""
    if hall is not None and hall.tournament_id != staff.tournament_id:
        raise ServiceError(_("This hall is not one of this tournament's."))
    with transaction.atomic():
        if hall is None:
            HallReferee.objects.filter(staff=staff).delete()
        else:
            HallReferee.objects.update_or_create(staff=staff, defaults={"hall": hall})

"""Check-in on the day, for the whole list at once: « tous présents » and its undo.

Services (keyword-only arguments, one short transaction). Marking everyone present touches only
the players still merely registered (someone marked absent or withdrawn stays so) and returns
who changed, so that the undo puts back only those, and of them only the ones still present and
seated in no round (a player marked absent since stays absent; one seated stays present).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.models import Registration, Seat, Tournament
from tournaments.services.tournaments import tournament_touch


@transaction.atomic
def registrations_mark_all_present(*, tournament: Tournament) -> list[int]:
    """Every player still only registered is now present; the ids of those who changed."""
    changed = list(
        tournament.registrations.select_for_update()
        .filter(status=Registration.Status.REGISTERED)
        .values_list("pk", flat=True)
    )
    if changed:
        Registration.objects.filter(pk__in=changed).update(status=Registration.Status.PRESENT)
        tournament_touch(tournament_id=tournament.pk)
    return changed


@transaction.atomic
def registrations_undo_all_present(
    *, tournament: Tournament, ids: list[int], rounds_then: int | None = None
) -> int:
    """Back to registered, those « tous présents » marked who are still present and seated in
    no round; how many went back. Refused once a round was seated after « tous présents »
    (``rounds_then``: the rounds seated when it was done): check-in is then over."""
    if rounds_then is not None and tournament.round_set.count() > rounds_then:
        raise ServiceError(
            _(
                "A round has been seated since “everyone present”: it can no longer be undone. "
                "Mark a player absent or withdrawn on their own line."
            )
        )
    seated = Seat.objects.filter(registration__tournament=tournament).values("registration_id")
    count = (
        tournament.registrations.filter(pk__in=ids, status=Registration.Status.PRESENT)
        .exclude(pk__in=seated)
        .update(status=Registration.Status.REGISTERED)
    )
    if count:
        tournament_touch(tournament_id=tournament.pk)
    return count

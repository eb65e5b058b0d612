"""The end of a tournament: « Terminer le tournoi », once every round is closed, and reopening
it when the organiser must correct something.

Finishing makes the standings final (« Classement final » on the PDF, the exports, the public
pages and the TV; « Classement provisoire » before), counts the tournament in its club's season
(``scoring.season`` counts only finished tournaments) and makes the downloadable archive the
tournament's final record. Reopening takes a reason; both are kept in ``Tournament.finish_log``
(who, when, why), shown on the tournament page. Services: keyword-only arguments, one short
transaction each (the reads, ``finish_problem`` and ``tournament_endings``, in
:mod:`tournaments.selectors`), a ``ServiceError`` in the user's language when
refused (nothing written).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.models import Tournament
from tournaments.selectors import FINISHED, REOPENED, finish_problem

REASON_MAX = 200


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by: str) -> Tournament:
    """Finish the tournament (every round closed): final standings, counted in the season."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    problem = finish_problem(tournament)
    if problem:
        raise ServiceError(problem)
    tournament.finished = True
    tournament.finish_log = [*tournament.finish_log, _entry(FINISHED, by, "")]
    tournament.save(update_fields=["finished", "finish_log", "changed_at"])
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, by: str, reason: str) -> Tournament:
    """Reopen a finished tournament to correct it: provisional again, out of the season until
    finished again. The reason is required and kept."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    reason = " ".join(reason.split())
    if not tournament.finished:
        raise ServiceError(_("The tournament is not finished: there is nothing to reopen."))
    if not reason:
        raise ServiceError(_("Say why the tournament is reopened."), field="reason")
    if len(reason) > REASON_MAX:
        raise ServiceError(
            _("The reason is too long (%(max)d characters at most).") % {"max": REASON_MAX},
            field="reason",
        )
    tournament.finished = False
    tournament.finish_log = [*tournament.finish_log, _entry(REOPENED, by, reason)]
    tournament.save(update_fields=["finished", "finish_log", "changed_at"])
    return tournament


def _entry(action: str, by: str, reason: str) -> dict:
    return {"action": action, "by": by, "at": timezone.now().isoformat(), "reason": reason}

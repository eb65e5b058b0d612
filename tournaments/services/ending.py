"""The end of a tournament: « Terminer le tournoi », once every round is closed, and reopening
it when the organiser must correct something.

Finishing makes the standings final (« Classement final » on the PDF, the exports, the public
pages and the TV; « Classement provisoire » before), counts the tournament in its club's season
(``scoring.season`` counts only finished tournaments) and makes the downloadable archive the
tournament's final record. Reopening takes a reason; both are kept in ``Tournament.finish_log``
(who, when, why), shown on the tournament page. A closed stage's tournament reopens only with
its stage (``tournaments.championships.services.stage_reopen``): its qualifiers went on. Services:
keyword-only arguments, one short transaction each (the reads, ``finish_problem`` and
``tournament_endings``, in :mod:`tournaments.selectors`), a ``ServiceError`` in the user's
language when refused (nothing written).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.championships.models import StageGroup
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
    closed = StageGroup.objects.filter(tournament=tournament, stage__closed_at__isnull=False)
    stage = closed.values_list("stage__name", flat=True).first()
    if stage is not None:  # the stage's cut was read from it: it reopens with its stage
        raise ServiceError(
            _(
                "This tournament is the closed stage “%(stage)s” of a championship: reopen "
                "the stage, not the tournament alone (“Qualifiers and closing the stage”, "
                "above)."
            )
            % {"stage": stage}
        )
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

"""The reads of the jobs' pages: which job a user may see."""

from __future__ import annotations

from django.http import Http404

from scoring.jobs.models import Job
from tournaments.permissions import can_organise, can_run

#: Kinds that hold what only the tournament's organisers see (licences, years of birth).
ORGANISER_KINDS = (Job.Kind.RESULTS_REPORT, Job.Kind.PLAYER_IMPORT)


def may_see(user, job: Job) -> bool:
    """Whoever started it; for a tournament's documents, its staff too (its organisers for a
    results report or a player import)."""
    if user.is_superuser or job.started_by_id == user.pk:
        return True
    if job.tournament is None:
        return False
    allowed = can_organise if job.kind in ORGANISER_KINDS else can_run
    return allowed(user, job.tournament)


def job_for(user, pk: int) -> Job:
    job = (
        Job.objects.select_related("tournament", "season__club", "started_by").filter(pk=pk).first()
    )
    if job is None or not may_see(user, job):
        raise Http404
    return job

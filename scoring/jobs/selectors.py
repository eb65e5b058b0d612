"""The reads of the jobs' pages: which job a user may see."""

from __future__ import annotations

from django.http import Http404

from scoring.jobs.models import Job
from tournaments.permissions import can_run


def may_see(user, job: Job) -> bool:
    """Whoever started it; for a tournament's documents, its staff too."""
    if user.is_superuser or job.started_by_id == user.pk:
        return True
    return job.tournament is not None and can_run(user, job.tournament)


def job_for(user, pk: int) -> Job:
    job = (
        Job.objects.select_related("tournament", "season__club", "started_by").filter(pk=pk).first()
    )
    if job is None or not may_see(user, job):
        raise Http404
    return job

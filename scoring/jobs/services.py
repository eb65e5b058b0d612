"""What changes a job: starting it (its row and its task in one transaction), the worker's
claim, progress and heartbeat, its end, starting it again, and putting back in the queue the jobs
whose worker stopped beating."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scoring.jobs import files
from scoring.jobs.models import Job

#: A job whose worker was lost this many times is failed rather than tried again.
MAX_ATTEMPTS = 3


class JobTakenOver(Exception):
    """This worker no longer owns the job (it was late, and another worker took the job over)."""


#: The task that runs every job, by the path the queue stores for it (``tasks.py`` uses these
#: services: naming it keeps the two modules out of an import cycle).
RUN_JOB = "scoring.jobs.tasks.run_job"


def _enqueue(job: Job) -> None:
    result = import_string(RUN_JOB).enqueue(job_id=job.pk)
    job.task_id = str(result.id)
    job.save(update_fields=["task_id"])


@transaction.atomic
def job_start(*, kind: str, user, tournament=None, season=None, params: dict | None = None) -> Job:
    job = Job.objects.create(
        kind=kind, tournament=tournament, season=season, params=params or {}, started_by=user
    )
    _enqueue(job)
    return job


@transaction.atomic
def job_restart(*, job: Job) -> Job:
    """« Relancer »: a failed job goes back in the queue, from the start."""
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.QUEUED,
        done=0,
        stage="",
        error="",
        worker_id="",
        heartbeat=None,
        attempts=0,
        finished_at=None,
    )
    job.refresh_from_db()
    _enqueue(job)
    return job


def job_claim(*, job_id: int, worker_id: str, task_id: str) -> Job | None:
    """The worker starts the job (again, after another worker was lost): it owns it now. A task
    the job no longer waits for (requeued since) claims nothing."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished or job.task_id != str(task_id):
            return None
        job.status, job.worker_id = Job.Status.RUNNING, worker_id
        job.heartbeat, job.done, job.attempts = timezone.now(), 0, job.attempts + 1
        job.stage = ""
        job.save(update_fields=["status", "worker_id", "heartbeat", "done", "stage", "attempts"])
        return job


def _owned(job_id: int, worker_id: str):
    return Job.objects.filter(pk=job_id, worker_id=worker_id, status=Job.Status.RUNNING)


def job_progress(*, job_id: int, worker_id: str, done: int, total: int, stage: str = "") -> None:
    changes = dict(done=done, total=total, stage=stage, heartbeat=timezone.now())
    if not _owned(job_id, worker_id).update(**changes):
        raise JobTakenOver(job_id)


def job_beat(*, job_id: int, worker_id: str) -> bool:
    """The heartbeat (every few seconds while the job runs); False once the job is not ours."""
    return bool(_owned(job_id, worker_id).update(heartbeat=timezone.now()))


def job_succeed(
    *, job_id: int, worker_id: str, path: str, name: str, season=None, params=None
) -> None:
    changes = dict(status=Job.Status.DONE, result_path=path, result_name=name)
    if season is not None:
        changes["season"] = season
    if params is not None:
        changes["params"] = params
    now = timezone.now()
    if not _owned(job_id, worker_id).update(heartbeat=now, finished_at=now, **changes):
        raise JobTakenOver(job_id)


def job_fail(*, job_id: int, worker_id: str, error: str) -> None:
    now = timezone.now()
    _owned(job_id, worker_id).update(
        status=Job.Status.FAILED, error=error, heartbeat=now, finished_at=now
    )


def jobs_recover(*, stale_seconds: float, lost_message: str) -> list[int]:
    """Put back in the queue the running jobs whose heartbeat is older than ``stale_seconds``
    (their worker was killed or its machine stopped): a new task for each, which a worker takes
    over from the start; the lost worker's task is closed as failed, so that nothing it may still
    write reaches the job. A job lost ``MAX_ATTEMPTS`` times fails with ``lost_message``.
    Returns the jobs requeued."""
    limit = timezone.now() - timedelta(seconds=stale_seconds)
    requeued = []
    with transaction.atomic():
        stale = Job.objects.select_for_update(skip_locked=True).filter(
            status=Job.Status.RUNNING, heartbeat__lt=limit
        )
        for job in stale:
            DBTaskResult.objects.filter(pk=job.task_id).update(
                status=TaskResultStatus.FAILED, finished_at=timezone.now()
            )
            job.worker_id = ""
            if job.attempts >= MAX_ATTEMPTS:
                job.status, job.error = Job.Status.FAILED, lost_message
                job.finished_at = timezone.now()
                job.save(update_fields=["status", "error", "finished_at", "worker_id"])
                continue
            job.status = Job.Status.QUEUED
            job.save(update_fields=["status", "worker_id"])
            _enqueue(job)
            requeued.append(job.pk)
    return requeued


def jobs_purge(*, retention_days: float) -> tuple[int, int]:
    """Remove the jobs finished more than ``retention_days`` ago, the queue's finished rows as
    old, and the files of the jobs' folder no job still names and nobody changed as long (the
    removed jobs' files, uploads never imported). Returns (jobs, folders) removed."""
    limit = timezone.now() - timedelta(days=retention_days)
    finished = (Job.Status.DONE, Job.Status.FAILED)
    old = Job.objects.filter(status__in=finished, finished_at__lt=limit)
    jobs = old.delete()[0]
    DBTaskResult.objects.filter(finished_at__lt=limit).delete()
    keep = set()
    for path, params in Job.objects.values_list("result_path", "params"):
        keep.add(files.top_folder(path))
        keep.add(files.top_folder((params or {}).get("input", "")))
    folders = files.remove_folders(older_than=limit.timestamp(), keep=keep)
    return jobs, folders

"""The one task the queue knows: run a job (its kind says what to do, ``runners.py``)."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import OperationalError, connection
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import task

from scoring.jobs import files, runners
from scoring.jobs.services import (
    JobTakenOver,
    job_beat,
    job_claim,
    job_fail,
    job_progress,
    job_succeed,
)
from tarot_club.errors import ServiceError

logger = logging.getLogger(__name__)


def heartbeat_seconds() -> float:
    return max(0.2, min(10.0, settings.JOBS_STALE_SECONDS / 4))


class Heartbeat(threading.Thread):
    """Beats for the job while it runs, on its own connection, even when a step is long; and
    writes the progress the job reports from inside a transaction of its own (a seating's
    search), which the job's page would not see before the transaction ends."""

    def __init__(self, job_id: int, worker_id: str):
        super().__init__(daemon=True, name=f"job-{job_id}-heartbeat")
        self.job_id, self.worker_id = job_id, worker_id
        self.stopped, self.wake = threading.Event(), threading.Event()
        self.pending: tuple[int, int, str] | None = None
        self.writing = threading.Lock()  # the job's own progress writes wait for this one

    def report(self, done: int, total: int, stage: str) -> None:
        self.pending = (done, total, stage)
        self.wake.set()

    def run(self) -> None:
        try:
            while not self.stopped.is_set():
                self.wake.wait(heartbeat_seconds())
                self.wake.clear()
                if self.stopped.is_set() or not self._beat():
                    return
        finally:
            connection.close()

    def _beat(self) -> bool:
        with self.writing:
            pending, self.pending = self.pending, None
            try:
                if pending is None:
                    return job_beat(job_id=self.job_id, worker_id=self.worker_id)
                done, total, stage = pending
                job_progress(
                    job_id=self.job_id,
                    worker_id=self.worker_id,
                    done=done,
                    total=total,
                    stage=stage,
                )
            except JobTakenOver:
                return False
            except OperationalError:  # SQLite: the job's own transaction holds the write lock
                connection.close()
            return True

    def stop(self) -> None:
        self.stopped.set()
        self.wake.set()
        self.join(timeout=5)  # a beat waiting for a lock ends by itself (the job is ours no more)


class Reporter:
    """Writes the progress at most every half second, and always the last step: one write per
    sheet would be 2,000 write transactions for a page that asks every 2 s
    (``bench/figures.md``)."""

    def __init__(self, beat: Heartbeat):
        self.job_id, self.worker_id, self.beat = beat.job_id, beat.worker_id, beat
        self.last = 0.0
        self.depth = len(connection.atomic_blocks)  # the job's own transactions go deeper

    def __call__(self, done: int, total: int, stage: str = "") -> None:
        now = time.monotonic()
        if done < total and done and now - self.last < 0.5:
            return
        self.last = now
        if len(connection.atomic_blocks) > self.depth:  # inside the job's own transaction
            # Written on the heartbeat's connection; not on SQLite, where that transaction
            # holds the write lock from its start: the page sees the search once it is done.
            if connection.vendor != "sqlite":
                self.beat.report(done, total, stage)
            return
        with self.beat.writing:  # after any progress the heartbeat is writing, never before
            self.beat.pending = None
            job_progress(
                job_id=self.job_id, worker_id=self.worker_id, done=done, total=total, stage=stage
            )


@task(takes_context=True)
def run_job(context, job_id: int) -> str:
    worker_id = (context.task_result.worker_ids or ["-"])[-1][:64]
    job = job_claim(job_id=job_id, worker_id=worker_id, task_id=context.task_result.id)
    if job is None:
        return "nothing to do"
    beat = Heartbeat(job_id, worker_id)
    beat.start()
    try:
        with translation.override(job.params.get("language") or settings.LANGUAGE_CODE):
            try:
                outcome = runners.run(job, Reporter(beat))
                job_succeed(
                    job_id=job_id,
                    worker_id=worker_id,
                    path=files.relative_name(outcome.path) if outcome.path else "",
                    name=outcome.name,
                    season=outcome.season,
                    params={**job.params, **outcome.params} if outcome.params else None,
                )
            except JobTakenOver:
                return "taken over by another worker"
            except ServiceError as error:
                job_fail(job_id=job_id, worker_id=worker_id, error=str(error))
                return "failed"
            except Exception as error:
                logger.exception("Job %s failed", job_id)
                job_fail(
                    job_id=job_id,
                    worker_id=worker_id,
                    error=_("The job stopped on an unexpected error (%(error)s): start it again.")
                    % {"error": type(error).__name__},
                )
                return "failed"
    finally:
        beat.stop()
    return "done"

"""Progress a job reports from inside its own transaction (a seating's search, issue 28) is
written beside it, by the heartbeat's thread on its own connection: the job's page sees the
count move before the transaction ends. Not on SQLite, where that transaction holds the write
lock from its start: there the page sees the count at the end."""

from __future__ import annotations

import time

import pytest
from django.db import connection, transaction

from scoring.jobs import tasks
from scoring.jobs.models import Job

pytestmark = pytest.mark.django_db(transaction=True)


def seen_done(job_id: int, wanted: int, seconds: float = 10.0) -> int:
    deadline = time.monotonic() + seconds
    done = Job.objects.get(pk=job_id).done
    while done != wanted and time.monotonic() < deadline:
        time.sleep(0.05)
        done = Job.objects.get(pk=job_id).done
    return done


def test_the_count_is_seen_while_the_jobs_transaction_runs():
    job = Job.objects.create(kind=Job.Kind.SEATING, status=Job.Status.RUNNING, worker_id="w1")
    beat = tasks.Heartbeat(job.pk, "w1")
    beat.start()
    report = tasks.Reporter(beat)
    try:
        with transaction.atomic():  # as the seating's service holds its transaction
            report(400, 1000, Job.Stage.SEARCHING)
            if connection.vendor == "sqlite":
                assert beat.pending is None  # nothing can be written beside it
            else:
                assert seen_done(job.pk, 400) == 400  # committed by the heartbeat's thread
        report(1000, 1000, Job.Stage.SEARCHING)  # the end, the job's own write
        job.refresh_from_db()
        assert (job.done, job.total, job.stage) == (1000, 1000, "search")
    finally:
        beat.stop()

"""A job survives its worker: ``jobs_worker`` killed with SIGKILL mid-job (its heartbeat stops),
another ``jobs_worker`` takes the job over and finishes it. Real processes, real database
(SQLite here, PostgreSQL when the suite runs on it)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from scoring.jobs import files
from scoring.jobs.models import Job
from scoring.jobs.services import job_start
from tests.scoring.conftest import make_tournament

from .worker import database_environment

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def start_worker(name: str, jobs_dir: Path, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        **database_environment(),
        "DJANGO_TESTING": "1",
        "DJANGO_JOBS_DIR": str(jobs_dir),
        "DJANGO_JOBS_STALE_SECONDS": "3",
        "DJANGO_JOBS_TEST_STEP_SECONDS": "1",  # each sheet takes a second: time to kill it
    }
    if "SQLITE_PATH" in env:
        env.pop("DATABASE_URL", None)
    with log.open("wb") as out:  # the child keeps its own copy of the file
        return subprocess.Popen(
            [sys.executable, "manage.py", "jobs_worker", "--worker-id", name, "--no-startup-delay"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def wait_for(condition, seconds: float = 120.0) -> Job:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = Job.objects.get()
        if condition(job):
            return job
        time.sleep(0.2)
    pytest.fail(f"the job did not get there in {seconds} s: {Job.objects.values().get()}")


def test_a_job_killed_with_its_worker_is_finished_by_another(jobs_dir, tmp_path):
    tournament, _round = make_tournament(24)  # six tables: six sheets
    job_start(
        kind=Job.Kind.SHEETS_PDF,
        user=None,
        tournament=tournament,
        params={"round": 1, "language": "fr"},
    )
    first = start_worker("first", jobs_dir, tmp_path / "first.log")
    second = None
    try:
        wait_for(lambda job: job.worker_id == "first" and job.stage == "writing" and job.done)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        lost = Job.objects.get()
        assert (lost.status, lost.stage) == ("running", "writing")
        assert lost.done < 6  # killed mid-job: sheets were laid out, not all of them

        second = start_worker("second", jobs_dir, tmp_path / "second.log")
        job = wait_for(lambda job: job.status in ("done", "failed"))
        assert (job.status, job.worker_id, job.attempts) == ("done", "second", 2), job.error
        assert (job.done, job.total) == (6, 6)
        pdf = PdfReader(io.BytesIO(files.stored(job.result_path).read_bytes()))
        assert len(pdf.pages) == 6
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

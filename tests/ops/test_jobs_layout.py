"""How the background jobs' worker runs: `make worker` in production, beside the server that
`make run` and `make club` start (and stopped with it); `make serve`'s gunicorn flags."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import gunicorn
import pytest

from tests.jobs.worker import database_environment

ROOT = Path(__file__).resolve().parents[2]


def target(makefile: str, name: str) -> str:
    return makefile.split(f"\n{name}:")[1].split("\n\n")[0]


def test_the_makefile_runs_a_worker_everywhere_and_serves_pages_with_short_timeouts():
    makefile = (ROOT / "Makefile").read_text()
    assert "manage.py jobs_worker --parent $$$$ & exec env" in target(makefile, "run")
    assert target(makefile, "worker").strip().endswith("$(BIN)/python manage.py jobs_worker")
    flags = makefile.split("GUNICORN_FLAGS ?=")[1].split("\n")[0].split()
    assert flags == [
        "--no-control-socket",
        "--timeout",
        "30",
        "--max-requests",
        "2000",
        "--max-requests-jitter",
        "200",
    ]
    assert "$(GUNICORN_FLAGS)" in target(makefile, "serve").splitlines()[-1]
    assert gunicorn.version_info >= (27,)  # the first with --no-control-socket


@pytest.mark.django_db
def test_the_club_rooms_worker_stops_with_its_server(tmp_path):
    """``make club`` starts the worker with ``--parent`` its own process: when the server
    ends, so does the worker (within a few seconds), with nothing left running."""
    parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    env = {**os.environ, "DJANGO_TESTING": "1", "DJANGO_JOBS_DIR": str(tmp_path / "jobs")}
    env.pop("DATABASE_URL", None)
    env.update(database_environment())  # the test database, its tables made
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "jobs_worker", "--parent", str(parent.pid), "-v", "0"],
        cwd=ROOT,
        env=env,
    )
    try:
        time.sleep(2)
        assert worker.poll() is None  # its server runs: so does the worker
        parent.kill()
        parent.wait()
        assert worker.wait(timeout=60) == 0
    finally:
        for process in (parent, worker):
            if process.poll() is None:
                process.kill()
                process.wait()

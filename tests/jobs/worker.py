"""``run_worker()``: every queued job run to its end, in this process, by the queue's own worker
loop (``django_tasks_db``'s), as ``manage.py jobs_worker`` runs them."""

from __future__ import annotations

from unittest import mock

from django.db import connection
from django_tasks_db.management.commands import db_worker


def run_worker(worker_id: str = "test-worker") -> None:
    """The loop closes connections between tasks, which would end a test's transaction: not
    here."""
    worker = db_worker.Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )
    with mock.patch.object(db_worker, "close_old_connections", lambda: None):
        worker.run()


def database_environment() -> dict:
    """The variables that point a ``manage.py`` process at the test database."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        return {"DATABASE_URL": f"postgres://{db['USER']}{password}@{host}:{port}/{db['NAME']}"}
    return {"SQLITE_PATH": db["NAME"]}


def job_document(client, url: str, data: dict | None = None) -> bytes:
    """A document as a user gets it: the page's button starts its job (POST ``url``), a worker
    runs it (here, in this process), and its file is read back from the job's page."""
    from django.urls import resolve, reverse

    from scoring.jobs.models import Job

    started = client.post(url, data or {})
    assert started.status_code == 302, started.status_code
    job_id = resolve(started["Location"]).kwargs["job_id"]
    run_worker()
    job = Job.objects.get(pk=job_id)
    assert job.status == "done", job.error
    response = client.get(reverse("jobs:file", args=[job_id]))
    assert response.status_code == 200
    return b"".join(response.streaming_content)  # read to its end, the test client closes it

"""``run_worker()``: every queued job run to its end, in this process, by the queue's own worker
loop (``django_tasks_db``'s), as ``manage.py jobs_worker`` runs them."""

from __future__ import annotations

from unittest import mock

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

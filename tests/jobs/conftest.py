"""Jobs run by a real worker: in this process (``run_worker``) or as ``manage.py jobs_worker``."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client
from django_tasks_db.management.commands import db_worker
from django_tasks_db.management.commands.db_worker import Worker


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = str(tmp_path / "jobs")
    return tmp_path / "jobs"


def run_worker(worker_id: str = "test-worker") -> None:
    """Every queued job, run to its end by the queue's own worker loop, then back. (The loop
    closes connections between tasks, which would end the test's transaction: not here.)"""
    with mock.patch.object(db_worker, "close_old_connections", lambda: None):
        _worker(worker_id).run()


def _worker(worker_id: str) -> Worker:
    return Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )


def french_client(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(user)
    return client

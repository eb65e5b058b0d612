"""The worker's own duties besides running tasks (``django_tasks_db``'s worker does that): put
back in the queue the jobs whose worker was lost, remove the jobs and files older than
``settings.JOBS_RETENTION_DAYS`` (every hour), and stop with the server that started it."""

from __future__ import annotations

import logging
import os
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.jobs.services import jobs_purge, jobs_recover
from scoring.jobs.tasks import heartbeat_seconds

logger = logging.getLogger(__name__)

#: How often a worker removes the jobs past their retention.
PURGE_EVERY_SECONDS = 3600


def recover_once() -> list[int]:
    with translation.override(settings.LANGUAGE_CODE):
        message = _(
            "The job was interrupted several times (its worker stopped): start it again, and "
            "check that the workers are running."
        )
    return jobs_recover(stale_seconds=settings.JOBS_STALE_SECONDS, lost_message=message)


def purge_once() -> tuple[int, int]:
    jobs, folders = jobs_purge(retention_days=settings.JOBS_RETENTION_DAYS)
    if jobs or folders:
        logger.info("Old jobs removed: %s jobs, %s folders of files", jobs, folders)
    return jobs, folders


class Recovery(threading.Thread):
    """Every few seconds, takes over the jobs whose heartbeat is stale; every hour (and when
    the worker starts), removes the jobs past their retention."""

    def __init__(self):
        super().__init__(daemon=True, name="jobs-recovery")
        self.purged = None

    def run(self) -> None:
        stop = threading.Event()
        while True:
            try:
                requeued = recover_once()
                if requeued:
                    logger.warning("Jobs taken over from a lost worker: %s", requeued)
                now = time.monotonic()
                if self.purged is None or now - self.purged >= PURGE_EVERY_SECONDS:
                    self.purged = now
                    purge_once()
            except Exception:  # the database away for a moment: try again at the next beat
                logger.exception("Could not look for lost jobs")
                connection.close()
            close_old_connections()
            stop.wait(heartbeat_seconds())


class ParentWatch(threading.Thread):
    """Ends this worker when the server that started it (``make run``, ``make club``) ends."""

    def __init__(self, pid: int):
        super().__init__(daemon=True, name="jobs-parent-watch")
        self.pid = pid

    def run(self) -> None:
        stop = threading.Event()
        while not stop.wait(1.0):
            if not _alive(self.pid):
                os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

"""``manage.py jobs_worker`` (``make worker``): runs the background jobs (``scoring.jobs``).

``django_tasks_db``'s worker with this project's duties added (``scoring/jobs/worker.py``): jobs
whose worker was lost are put back in the queue, and ``--parent PID`` stops the worker with the
server that started it. Run as many as needed, on as many machines, against the same database.
"""

from __future__ import annotations

from django_tasks_db.management.commands import db_worker

from scoring.jobs.worker import ParentWatch, Recovery
from tarot_club.commands import ProjectCommand


class Command(ProjectCommand, db_worker.Command):
    help = "Run the background jobs (score sheet documents, season archives)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--parent",
            type=int,
            default=None,
            help="Stop when this process (the server that started the worker) ends.",
        )
        parser.set_defaults(reload=False, interval=0.5)

    def handle(self, *args, parent: int | None = None, **options):
        if parent is not None:
            ParentWatch(parent).start()
        Recovery().start()
        return super().handle(*args, **options)

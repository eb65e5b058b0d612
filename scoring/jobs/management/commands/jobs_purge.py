"""``manage.py jobs_purge``: removes the jobs finished more than ``DJANGO_JOBS_RETENTION_DAYS``
ago (7 by default), their queue rows and their files. Every worker does it every hour; this is
for a deployment that wants it from its own scheduler, or now."""

from __future__ import annotations

from django.conf import settings

from scoring.jobs.services import jobs_purge
from tarot_club.commands import ProjectCommand, check_range


class Command(ProjectCommand):
    help = "Remove the background jobs, and their files, older than the retention."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=float,
            default=None,
            help="The retention in days (default: DJANGO_JOBS_RETENTION_DAYS, 7).",
        )

    def handle(self, *args, days: float | None = None, **options):
        check_range("--days", days, 0, 3650)
        retention = settings.JOBS_RETENTION_DAYS if days is None else days
        jobs, folders = jobs_purge(retention_days=retention)
        self.stdout.write(f"{jobs} jobs and {folders} folders of files removed.")

"""``manage.py backup_db [-o FILE]``: a consistent copy of the database, safe while it runs."""

from datetime import datetime
from pathlib import Path

from django.core.management.base import CommandError

from tarot_club.backup import BackupError, backup
from tarot_club.commands import ProjectCommand, output_file


class Command(ProjectCommand):
    help = "Back up the database (SQLite: online backup API; PostgreSQL: pg_dump)."

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", help="Backup file (default: backups/<date>.db)")

    def handle(self, *args, output=None, **options):
        if output is None:
            Path("backups").mkdir(exist_ok=True)
            output = f"backups/tarot-{datetime.now():%Y%m%d-%H%M%S}.backup"
        try:
            path = backup(output_file(output))
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backup written to {path}")

"""``manage.py restore_db FILE``: put a backup back (stop the app servers first)."""

from pathlib import Path

from django.core.management.base import CommandError

from tarot_club.backup import BackupError, restore
from tarot_club.commands import ProjectCommand


class Command(ProjectCommand):
    help = "Restore the database from a backup made by backup_db. Stop the app servers first."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            restore(Path(file))
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Database restored from {file}")

"""``manage.py import_season FILE.json``: a season archive (its club, formula and tournaments)."""

from pathlib import Path

from django.core.management.base import CommandError

from scoring.season_archive import MAX_BYTES, import_season_json, too_large_message
from tarot_club.commands import ProjectCommand
from tarot_club.errors import ServiceError


class Command(ProjectCommand):
    help = "Import a season archive, all or nothing (its tournaments must not be here already)."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No file {file}.")
        if path.stat().st_size > MAX_BYTES:  # before reading it into memory
            raise CommandError(too_large_message())
        try:
            season = import_season_json(path.read_bytes())
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Season {season.name} of {season.club.name} imported.")

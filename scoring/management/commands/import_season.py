"""``manage.py import_season FILE.json``: a season archive (its club, formula and tournaments)."""

from pathlib import Path

from django.core.management.base import CommandError

from scoring import season_archive
from scoring.season_archive import ExistingClub, import_season_json, too_large_message
from tarot_club.commands import ProjectCommand
from tarot_club.errors import ServiceError


class Command(ProjectCommand):
    help = "Import a season archive, all or nothing (its tournaments must not be here already)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--merge-into-existing-club",
            action="store_true",
            dest="merge",
            help="Add the season to the archive's club when this database already has it.",
        )

    def handle(self, *args, file, merge, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No file {file}.")
        if path.stat().st_size > season_archive.MAX_BYTES:  # before reading it into memory
            raise CommandError(too_large_message())
        try:
            season = import_season_json(path.read_bytes(), merge_club=merge)
        except ExistingClub as error:
            raise CommandError(
                f"{error} Run again with --merge-into-existing-club to add them to it."
            ) from None
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Season {season.name} of {season.club.name} imported.")

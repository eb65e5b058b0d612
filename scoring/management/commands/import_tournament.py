"""``manage.py import_tournament FILE.json [--trust FINGERPRINT]``: all or nothing, with
integrity checks; seals by a key not trusted here are refused with its fingerprint, until it is
trusted (``--trust`` with that fingerprint, once compared, or ``manage.py trust_key``)."""

from pathlib import Path

from django.core.management.base import CommandError

from scoring.archive import MAX_BYTES, import_json, too_large_message
from tarot_club.commands import ProjectCommand
from tarot_club.errors import ServiceError


class Command(ProjectCommand):
    help = "Import a tournament archive made by export_tournament (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--trust",
            action="append",
            default=[],
            metavar="FINGERPRINT",
            help="trust this sealing key, after comparing it with the one its club publishes",
        )

    def handle(self, *args, file, trust, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No file {file!r}.")
        if path.stat().st_size > MAX_BYTES:  # refused before it is read
            raise CommandError(too_large_message())
        try:
            tournament = import_json(path.read_bytes(), trust=trust)
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Tournament {tournament.slug} imported.")

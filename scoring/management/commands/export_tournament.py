"""``manage.py export_tournament <slug> -o FILE.json``: the whole tournament in one archive."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.archive import export_json
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament archive (JSON): players, rounds, every deal version, signatures."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, *args, slug, output, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament with the short name {slug!r}.")
        Path(output).write_bytes(export_json(tournament))
        self.stdout.write(f"Tournament {slug} written to {output}")

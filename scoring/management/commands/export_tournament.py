"""``manage.py export_tournament <slug> -o FILE.json``: the whole tournament in one archive."""

from django.core.management.base import CommandError

from scoring.archive import export_json
from tarot_club.commands import ProjectCommand, output_file
from tournaments.models import Tournament


class Command(ProjectCommand):
    help = "Write a tournament archive (JSON): players, rounds, every deal version, signatures."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, *args, slug, output, **options):
        path = output_file(output)
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament with the short name {slug!r}.")
        path.write_bytes(export_json(tournament))
        self.stdout.write(f"Tournament {slug} written to {output}")

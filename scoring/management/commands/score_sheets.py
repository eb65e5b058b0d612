"""``manage.py score_sheets <slug> [--round N] [--table T] --format pdf|xlsx [--blank] -o FILE``."""

from __future__ import annotations

from django.core.management.base import CommandError

from scoring.links import site_url
from scoring.sheet_documents import render_sheets, tables_in_scope
from tarot_club.commands import ProjectCommand, output_file
from tarot_club.errors import ServiceError
from tournaments.models import Tournament


class Command(ProjectCommand):
    help = "Write the score sheets of a tournament, a round or a table as PDF or Excel."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--round", type=int, dest="round_number")
        parser.add_argument("--table", type=int, dest="table_number")
        parser.add_argument("--format", choices=["pdf", "xlsx"], required=True, dest="fmt")
        parser.add_argument("--blank", action="store_true", help="Pre-filled empty sheets.")
        parser.add_argument("-o", "--output", required=True)
        parser.add_argument(
            "--base-url",
            default=site_url(),
            help="Address of the app, printed in the verification QR codes.",
        )

    def handle(
        self, *args, slug, round_number, table_number, fmt, blank, output, base_url, **options
    ):
        path = output_file(output)
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament with the short name {slug!r}.")
        if table_number is not None and round_number is None:
            raise CommandError("--table needs --round.")
        tables = tables_in_scope(tournament, round_number=round_number, table_number=table_number)
        try:
            content = render_sheets(
                tournament,
                tables,
                fmt=fmt,
                blank=blank,
                url_for=lambda path: base_url.rstrip("/") + path,
            )
        except ServiceError as error:
            raise CommandError(str(error)) from None
        path.write_bytes(content)
        self.stdout.write(f"{tables.count()} sheet(s) written to {output}")

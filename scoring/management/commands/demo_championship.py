"""``manage.py demo_championship``: a championship of successive cuts, played through the real
services (the Pontarlier funnel: ``--players 488 --stages 488,244,104,4``)."""

from __future__ import annotations

import json
from itertools import pairwise

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from scoring.championship_demo import create_demo_championship
from scoring.management.commands.setup_demo import USERNAME as DEMO_ORGANISER
from tarot_club.commands import MAX_SEED, ProjectCommand, check_range
from tarot_club.errors import ServiceError

MAX_PLAYERS = 2000


class Command(ProjectCommand):
    help = "Create a championship of successive stages and play it to its final."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=488)
        parser.add_argument(
            "--stages", default="488,244,104,4", help="The field of each stage, the final last."
        )
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players, stages, seed, **options):
        try:
            sizes = [int(part) for part in stages.split(",")]
        except ValueError:
            raise CommandError("--stages lists the field of each stage: 488,244,104,4") from None
        if not 3 <= players <= MAX_PLAYERS:
            raise CommandError(f"A demo championship has 3 to {MAX_PLAYERS} players.")
        if len(sizes) < 2 or sizes[0] != players:
            raise CommandError("--stages starts with --players and has a final after it.")
        if any(b > a or b < 3 for a, b in pairwise(sizes)):
            raise CommandError("Each stage has fewer players than the one before (3 at least).")
        check_range("--seed", seed, 0, MAX_SEED)
        try:
            result = create_demo_championship(
                players=players,
                stages=sizes,
                seed=seed,
                # The demo's organiser (make run) manages it, as they do the demo tournament.
                created_by=get_user_model().objects.filter(username=DEMO_ORGANISER).first(),
            )
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result.summary, ensure_ascii=False))

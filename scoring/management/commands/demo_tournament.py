"""``manage.py demo_tournament``: a whole tournament played with random legal deals."""

from __future__ import annotations

import json

from django.core.management.base import CommandError

from scoring.demo import create_demo
from tarot_club.commands import MAX_SEED, ProjectCommand, check_range
from tarot_club.errors import ServiceError

# As many players as a demo season's tournament: seating more takes minutes, not seconds.
MAX_PLAYERS = 500


class Command(ProjectCommand):
    help = "Create a demonstration tournament, seat every round and play every deal."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=20)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--deals", type=int, default=4, help="Deals per round at a table of 4.")
        parser.add_argument("--teams", type=int, choices=[0, 2, 4], default=0)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--play-rounds", type=int, default=None, help="Play only the first N rounds."
        )

    def handle(self, *args, players, rounds, deals, teams, seed, play_rounds, **options):
        if players < 3:
            raise CommandError("At least 3 players are needed to seat a round.")
        if players > MAX_PLAYERS:
            raise CommandError(
                f"A demo tournament has at most {MAX_PLAYERS} players (not {players})."
            )
        if teams and players % teams:
            raise CommandError(f"{players} players cannot form teams of {teams}.")
        if not 1 <= rounds <= 30 or not 1 <= deals <= 30:
            raise CommandError("Rounds and deals per round go from 1 to 30.")
        check_range("--seed", seed, 0, MAX_SEED)
        check_range("--play-rounds", play_rounds, 0, rounds)
        try:
            result = create_demo(
                players=players,
                rounds=rounds,
                deals=deals,
                teams=teams,
                seed=seed,
                play_rounds=play_rounds,
            )
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False))

"""``manage.py demo_season``: a club's season of tournaments played through the real services."""

from __future__ import annotations

import json

from django.core.management.base import CommandError

from scoring.demo import create_demo_season
from scoring.season import formula_in_words, season_data
from tarot_club.commands import MAX_SEED, ProjectCommand, check_range
from tarot_club.errors import ServiceError
from tournaments.models import Club


class Command(ProjectCommand):
    help = (
        "Create a club with a season of tournaments, each seated, played, signed and closed, "
        "then the next one open for registration; print the season's summary as JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tournaments", type=int, required=True)
        parser.add_argument("--players", type=int, required=True, help="Players per tournament.")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--rounds", type=int, default=2)
        parser.add_argument("--deals", type=int, default=2, help="Deals per round at a table of 4.")

    def handle(self, *args, tournaments, players, seed, rounds, deals, **options):
        if not 1 <= tournaments <= 60:
            raise CommandError("A season holds 1 to 60 tournaments.")
        if not 4 <= players <= 500:
            raise CommandError("A tournament of the season has 4 to 500 players.")
        if not 1 <= rounds <= 30 or not 1 <= deals <= 30:
            raise CommandError("Rounds and deals per round go from 1 to 30.")
        check_range("--seed", seed, 0, MAX_SEED)
        club_name = f"Club de Tarot de la Saison {seed}"
        if Club.objects.filter(name=club_name).exclude(slug=None).exists():
            raise CommandError(
                f"This database already holds the demo season of seed {seed} ({club_name}): "
                "nothing was changed; choose another --seed."
            )
        try:
            demo = create_demo_season(
                tournaments=tournaments,
                players=players,
                seed=seed,
                rounds=rounds,
                deals=deals,
                club_name=club_name,
            )
        except ServiceError as error:
            raise CommandError(str(error)) from None
        data = season_data(demo.season)
        summary = {
            "club": {"name": demo.club.name, "slug": demo.club.slug, "members": demo.members},
            "season": {"id": demo.season.pk, "name": demo.season.name},
            "tournaments": len(demo.tournaments),
            "players": players,
            "upcoming": demo.upcoming.slug if demo.upcoming else None,
            "formula": formula_in_words(data.formula),
            "standings": [
                {
                    "rank": s.rank,
                    "tied": s.tied,
                    "name": s.name,
                    "points": s.points,
                    "played": s.played,
                }
                for s in data.standings()[:5]
            ],
        }
        self.stdout.write(json.dumps(summary, ensure_ascii=False))

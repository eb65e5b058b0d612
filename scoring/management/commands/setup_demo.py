"""``manage.py setup_demo``: on an empty database, an organiser account, a lived-in tournament
(its players with séries, sexes and years of birth, two halls, categories and a prize list), a
small club season (``/club/club-de-tarot-de-villeurbanne/``) and a small championship whose
first stage is played, ready to close.

Run by ``make run``; does nothing when tournaments already exist.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from scoring.demo import create_demo, create_demo_season
from scoring.demo_showcase import HALLS, add_prize_list, create_demo_stages
from scoring.engine.sampling import random_legal_deal
from scoring.selectors import round_tables
from scoring.services import Actor, deal_record
from tarot_club.commands import ProjectCommand
from tournaments.models import Tournament
from tournaments.services import round_seat_next

USERNAME = "organisateur"
PASSWORD = "tarot-demo"


def organiser_group() -> Group:
    group, _ = Group.objects.get_or_create(name="Organisateurs")
    group.permissions.add(Permission.objects.get(codename="add_tournament"))
    return group


def in_progress(tournament) -> None:
    """Seat the next round and play part of it, so the referee's dashboard is alive."""
    rng = random.Random(5)
    round_ = round_seat_next(tournament=tournament, seed=99)
    for index, table in enumerate(round_tables(round_)):
        for number in range(1, index + 1):  # table 1: nothing yet, table 2: one deal, ...
            if number > tournament.deals_per_round:
                break
            deal_record(
                sheet=table.sheet,
                number=number,
                kind="played",
                deal=random_legal_deal(rng, 4),
                actor=Actor.table(page="demo"),
            )


class Command(ProjectCommand):
    help = "Create the demo organiser and a demo tournament on an empty database."

    def handle(self, *args, **options):
        if Tournament.objects.exists():
            self.stdout.write("Tournaments exist already: demo not loaded.")
            return
        User = get_user_model()
        user = User.objects.filter(username=USERNAME).first()
        if user is None:
            user = User.objects.create_user(username=USERNAME, password=PASSWORD)
        user.groups.add(organiser_group())
        demo = create_demo(
            players=20,
            rounds=3,
            deals=4,
            teams=2,
            seed=7,
            play_rounds=2,
            name="Tournoi de démonstration par équipes",
            created_by=user,
            details=True,
            halls=HALLS,
        )
        add_prize_list(demo.tournament)
        in_progress(demo.tournament)
        create_demo(
            players=16,
            rounds=5,
            deals=4,
            seed=3,
            play_rounds=0,
            name="Open du club (à préparer)",
            created_by=user,
        )
        # A small club season: three closed tournaments and the next one open for registration.
        create_demo_season(tournaments=3, players=8, seed=11, rounds=2, deals=2, organiser=user)
        # A small championship: its first stage played, its cut to preview and close.
        create_demo_stages(created_by=user)
        self.stdout.write(f"Demo loaded: log in as '{USERNAME}' / '{PASSWORD}'.")

"""``manage.py setup_demo``: on an empty database, an organiser account and a lived-in tournament.

Run by ``make run``; does nothing when tournaments already exist.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand

from tournaments.demo import create_demo
from tournaments.models import Tournament

USERNAME = "organisateur"
PASSWORD = "tarot-demo"


def organiser_group() -> Group:
    group, _ = Group.objects.get_or_create(name="Organisateurs")
    group.permissions.add(Permission.objects.get(codename="add_tournament"))
    return group


class Command(BaseCommand):
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
        create_demo(
            players=20,
            rounds=3,
            deals=4,
            teams=2,
            seed=7,
            play_rounds=2,
            name="Tournoi de démonstration par équipes",
            created_by=user,
        )
        create_demo(
            players=16,
            rounds=5,
            deals=4,
            seed=3,
            play_rounds=0,
            name="Open du club (à préparer)",
            created_by=user,
        )
        self.stdout.write(f"Demo loaded: log in as '{USERNAME}' / '{PASSWORD}'.")

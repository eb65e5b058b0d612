"""Championships made through the real services: a first stage played (deals entered and
signed), the next stages created empty, as an organiser would set them up."""

from __future__ import annotations

import itertools
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import translation

from scoring.demo import create_demo
from tournaments import services
from tournaments.championships import services as championship_services
from tournaments.championships.models import Stage

_users = itertools.count(1)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def organiser(name: str | None = None):
    name = name or f"orga-champ-{next(_users)}"
    user = get_user_model().objects.create_user(username=name, password="pw-" + name)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def client_for(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def make_championship(
    players: int = 12,
    *,
    cut: int = 8,
    carry: str = Stage.Carry.HALF,
    seating: str = Stage.Seating.SNAKE,
    next_sizes: tuple = (8,),
    play_rounds: int | None = None,
    seed: int = 5,
    by=None,
    rounds: int = 1,
):
    """A championship whose first stage (``players``, ``rounds`` of one deal) is played, then
    one empty stage per ``next_sizes`` (each the cut of the stage before it)."""
    by = by or organiser()
    championship = championship_services.championship_create(
        name="Championnat de test", created_by=by, seed=seed
    )
    first = create_demo(
        players=players,
        rounds=rounds,
        deals=1,
        seed=seed,
        play_rounds=play_rounds,
        created_by=by,
        name="Étape 1",
    ).tournament
    stages = [
        championship_services.stage_add(
            championship=championship,
            name="Étape 1",
            tournaments=[(first, "")],
            cut_value=cut,
            carry=carry,
            seating=seating,
        )
    ]
    for index in range(len(next_sizes)):
        tournament = services.tournament_create(
            created_by=by,
            name=f"Étape {index + 2}",
            date=date(2026, 4, 2 + index),
            rounds=1,
            deals_per_round=1,
            seed=seed + index,
        )
        stages.append(
            championship_services.stage_add(
                championship=championship,
                name=f"Étape {index + 2}",
                tournaments=[(tournament, "")],
                cut_value=next_sizes[index + 1] if index + 1 < len(next_sizes) else 0,
                carry=carry,
                seating=seating,
            )
        )
    return championship, stages


def tournament_of(stage):
    return stage.groups.get().tournament

"""A tournament archive carries its halls: exported, imported before the rounds, and exported
again identical; damaged halls are refused, naming where, and nothing is imported."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.utils import translation

from scoring.archive import export_json, export_tournament, import_json
from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.halls.models import Hall
from tournaments.halls.services import HallRow, halls_set
from tournaments.models import Player, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db

DAY = date(2026, 5, 1)


def seated_in_halls() -> Tournament:
    tournament = services.tournament_create(
        created_by=None, name="Open de Pontarlier", date=DAY, rounds=2, seed=3
    )
    for i in range(12):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:02d}", first_name="Ana"),
            present=True,
        )
    halls_set(
        tournament=tournament,
        halls=[HallRow("Salle Pourny", "pourny", 1, 2), HallRow("Capucins", "capucins", 61, 62)],
        keep_players=False,
    )
    services.round_seat_next(tournament=tournament)
    return tournament


def test_halls_round_trip_identical():
    tournament = seated_in_halls()
    archive = export_tournament(tournament)
    assert archive["halls"] == {
        "keep_players": False,
        "list": [
            {"name": "Salle Pourny", "slug": "pourny", "first": 1, "last": 2},
            {"name": "Capucins", "slug": "capucins", "first": 61, "last": 62},
        ],
    }
    assert sorted(t["number"] for t in archive["rounds"][0]["tables"]) == [1, 2, 61]
    content = export_json(tournament)
    tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    imported = import_json(content)
    assert list(Hall.objects.filter(tournament=imported).values_list("slug", flat=True)) == [
        "pourny",
        "capucins",
    ]
    again = export_tournament(imported)
    assert again["halls"] == archive["halls"]
    assert [t["number"] for t in again["rounds"][0]["tables"]] == [1, 2, 61]


def test_an_archive_without_halls_has_no_halls_key():
    tournament = services.tournament_create(created_by=None, name="Sans salles", date=DAY)
    assert "halls" not in export_tournament(tournament)


@translation.override("en")
def test_damaged_halls_are_refused_and_nothing_is_imported():
    tournament = seated_in_halls()
    archive = export_tournament(tournament)
    tournament_delete(tournament=tournament)
    archive["halls"]["list"][1]["first"] = 2
    with pytest.raises(ServiceError) as caught:
        import_json(json.dumps(archive))
    assert "halls.list" in str(caught.value)
    assert "both hold table 2" in str(caught.value)
    assert not Tournament.objects.exists()
    archive["halls"]["list"][1]["first"] = 61
    archive["halls"]["list"][1]["slug"] = "Pas Un Nom"
    with pytest.raises(ServiceError) as caught:
        import_json(json.dumps(archive))
    assert "halls.list[1].slug" in str(caught.value)
    assert not Tournament.objects.exists()

"""The web import's refusal when the archive's club is already here reads right in both
languages: « 1 saison », not « 1 saisons »; in English the box is quoted the English way."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.jobs.models import Job
from scoring.season_archive import export_season_json
from tournaments.models import SeatRequest, Tournament
from tournaments.services import tournament_delete

from .conftest import french_client
from .worker import run_worker

pytestmark = pytest.mark.django_db


def _refusal(client, content: bytes) -> str:
    client.post(
        reverse("jobs:season_import"),
        {"file": SimpleUploadedFile("saison.json", content, "application/json")},
    )
    run_worker()
    job = Job.objects.latest("pk")
    assert job.status == "failed"
    return client.get(reverse("jobs:job", args=[job.pk])).content.decode()


def test_one_season_and_one_tournament_are_singular_in_both_languages(season_of, organiser):
    demo = season_of(1, players=8)
    archive = json.loads(export_season_json(demo.season))
    archive["season"]["name"] = "Saison importée"
    content = json.dumps(archive).encode()
    SeatRequest.objects.all().delete()
    for tournament in Tournament.objects.all():
        tournament_delete(tournament=tournament)

    french = _refusal(french_client(organiser), content)
    assert "1 saison)" in french and "(2 tournois)" in french
    assert "Cochez « Ajouter au club existant »" in french

    english_client = Client(HTTP_ACCEPT_LANGUAGE="en")
    english_client.force_login(organiser)
    english = _refusal(english_client, content)
    assert "1 season)" in english and "(2 tournaments)" in english
    assert "Tick “Add to the existing club”" in english and "«" not in english

"""A season's archive as a job (« Préparer l'archive de la saison »), and its import on the web
(`manage.py import_season` on the command line): the same checks and messages, as a job."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from scoring.jobs.models import Job
from scoring.season_archive import export_season_json
from tests.season.test_season_archive import standings
from tournaments.models import Club, Season, SeatRequest, Tournament
from tournaments.services import tournament_delete

from .conftest import french_client
from .worker import run_worker

pytestmark = pytest.mark.django_db


def _empty_of_tournaments():
    """As on another machine that knows the club but none of these tournaments."""
    SeatRequest.objects.all().delete()
    for tournament in Tournament.objects.all():
        tournament_delete(tournament=tournament)


def upload(content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("saison.json", content, "application/json")


def test_the_season_archive_is_prepared_by_a_worker(season_of, organiser):
    demo = season_of(1, players=8)
    client = french_client(organiser)
    page = client.get(reverse("tournaments:season", args=[demo.club.slug, demo.season.pk]))
    assert "Préparer l’archive de la saison" in page.content.decode()
    response = client.post(reverse("jobs:season_archive", args=[demo.club.slug, demo.season.pk]))
    run_worker()
    job = Job.objects.get()
    assert response["Location"] == reverse("jobs:job", args=[job.pk]) and job.status == "done"
    download = client.get(reverse("jobs:file", args=[job.pk]))
    assert "attachment" in download["Content-Disposition"]
    archive = json.loads(b"".join(download.streaming_content))
    assert archive == json.loads(export_season_json(demo.season))


def test_the_web_import_is_a_job_with_the_commands_checks(season_of, organiser):
    demo = season_of(1, players=8)
    before = standings(demo.season)
    content = export_season_json(demo.season)
    _empty_of_tournaments()
    Club.objects.all().delete()
    client = french_client(organiser)
    assert (
        "Importer une archive de saison" in client.get(reverse("tournaments:list")).content.decode()
    )

    # Not JSON: the job fails with the command's sentence, in French, and imports nothing.
    client.post(reverse("jobs:season_import"), {"file": upload(b"pas du json")})
    run_worker()
    failed = Job.objects.get()
    assert failed.status == "failed"
    assert failed.error == "Ce fichier n'est pas une archive de saison (ce n'est pas du JSON)."
    page = client.get(reverse("jobs:job", args=[failed.pk])).content.decode()
    assert escape(failed.error) in page and "Relancer" in page

    response = client.post(reverse("jobs:season_import"), {"file": upload(content)})
    job = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:job", args=[job.pk])
    run_worker()
    job.refresh_from_db()
    assert job.status == "done", job.error
    imported = Season.objects.get()
    assert job.season == imported and standings(imported) == before
    page = client.get(reverse("jobs:job", args=[job.pk])).content.decode()
    assert "Saison importée." in page
    assert reverse("tournaments:season", args=[imported.club.slug, imported.pk]) in page


def test_a_club_already_here_is_merged_only_when_ticked(season_of, organiser):
    demo = season_of(1, players=8)
    archive = json.loads(export_season_json(demo.season))
    archive["season"]["name"] = "Saison importée"
    content = json.dumps(archive).encode()
    _empty_of_tournaments()
    counts = (Club.objects.count(), Season.objects.count(), Tournament.objects.count())
    client = french_client(organiser)
    client.post(reverse("jobs:season_import"), {"file": upload(content)})
    run_worker()
    refused = Job.objects.get()
    assert refused.status == "failed"
    assert "Saison importée" in refused.error and "Ajouter au club existant" in refused.error
    assert (Club.objects.count(), Season.objects.count(), Tournament.objects.count()) == counts

    client.post(reverse("jobs:season_import"), {"file": upload(content), "merge": "on"})
    run_worker()
    assert Job.objects.latest("pk").status == "done"
    assert Season.objects.get(name="Saison importée").club_id == demo.club.pk


def test_the_import_form_says_what_is_missing_and_starts_nothing(organiser):
    response = french_client(organiser).post(reverse("jobs:season_import"), {})
    assert response.status_code == 422
    assert "Ce champ est obligatoire" in response.content.decode()
    assert not Job.objects.exists()

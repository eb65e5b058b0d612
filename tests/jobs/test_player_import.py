"""A long player import (past ``tournaments.long_work.IMPORT_JOB_LINES`` lines) is confirmed by
a job: all or nothing still, and a line that turned bad since the preview is named with its
reason; a short one stays immediate."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import resolve, reverse

from scoring.jobs.models import Job
from tests.tournaments.conftest import make_tournament, make_user
from tournaments import long_work, services
from tournaments.models import Registration

from .conftest import french_client
from .worker import run_worker

pytestmark = pytest.mark.django_db
LINES = 6


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def long_import(monkeypatch):
    monkeypatch.setattr(long_work, "IMPORT_JOB_LINES", LINES - 1)  # a long file, made short


def csv_file(lines: int = LINES) -> SimpleUploadedFile:
    rows = ["nom;prénom;club;licence"]
    rows += [f"Nom{i:02d};Prénom{i};Club {i // 3};B{i:07d}" for i in range(lines)]
    return SimpleUploadedFile("joueurs.csv", ("\n".join(rows) + "\n").encode(), "text/csv")


def preview(client, tournament) -> tuple[str, dict]:
    """The preview page's confirm form: where it posts, what it sends."""
    page = client.post(reverse("tournaments:import", args=[tournament.slug]), {"file": csv_file()})
    html = page.content.decode()
    form = re.search(r'<form method="post"(?: action="([^"]*)")?>(.*?)</form>', html, re.S)
    token = re.search(r'name="confirm" value="([^"]*)"', form.group(2)).group(1)
    return form.group(1) or "", {"confirm": token}


def test_a_long_import_is_confirmed_by_a_worker(organiser, long_import):
    tournament = make_tournament(0, organiser=organiser)
    client = french_client(organiser)
    action, data = preview(client, tournament)
    assert action == reverse("jobs:player_import", args=[tournament.slug])

    job_id = resolve(client.post(action, data)["Location"]).kwargs["job_id"]
    assert not Registration.objects.exists()  # nothing imported inside the request
    run_worker()
    job = Job.objects.get(pk=job_id)
    assert (job.status, job.done, job.total, job.params["imported"]) == (
        "done",
        LINES,
        LINES,
        LINES,
    ), job.error
    assert sorted(
        Registration.objects.filter(tournament=tournament).values_list("licence", flat=True)
    ) == [f"B{i:07d}" for i in range(LINES)]
    fragment = client.get(reverse("jobs:progress", args=[job_id])).content.decode()
    assert f"{LINES} joueurs importés." in fragment
    # The preview was used: the same confirmation again starts nothing.
    again = client.post(action, data)
    assert again["Location"] == reverse("tournaments:import", args=[tournament.slug])
    assert Job.objects.count() == 1


def test_lines_that_turned_bad_are_named_and_nothing_is_imported(organiser, long_import):
    tournament = make_tournament(0, organiser=organiser)
    client = french_client(organiser)
    action, data = preview(client, tournament)
    # Meanwhile, two of the file's licences were registered by hand.
    for i in (1, 4):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(
                last_name=f"Nom{i:02d}", first_name=f"Prénom{i}", licence=f"B{i:07d}"
            ),
        )
    job_id = resolve(client.post(action, data)["Location"]).kwargs["job_id"]
    run_worker()
    job = Job.objects.get(pk=job_id)
    assert job.status == "failed"
    assert job.error.startswith("Rien n'a été importé.")
    assert "Ligne 3 : licence B0000001 déjà inscrite." in job.error
    assert "Ligne 6 : licence B0000004 déjà inscrite." in job.error
    assert Registration.objects.filter(tournament=tournament).count() == 2  # all or nothing
    page = client.get(reverse("jobs:job", args=[job_id])).content.decode()
    assert "Ligne 3" in page and "Relancer" in page

    Registration.objects.filter(tournament=tournament).delete()
    client.post(reverse("jobs:restart", args=[job_id]))
    run_worker()
    assert Job.objects.get(pk=job_id).status == "done"
    assert Registration.objects.filter(tournament=tournament).count() == LINES


def test_a_short_import_stays_immediate(organiser):
    tournament = make_tournament(0, organiser=organiser)
    client = french_client(organiser)
    action, data = preview(client, tournament)
    assert action == ""  # posted to the import page itself
    client.post(reverse("tournaments:import", args=[tournament.slug]), data)
    assert Registration.objects.filter(tournament=tournament).count() == LINES
    assert not Job.objects.exists()


def test_a_preview_shown_before_the_threshold_is_confirmed_by_a_worker(organiser, monkeypatch):
    """The server decides, not the form: a preview page that posts to the import itself (the
    file was short then, or the page is older than the rule) starts the job past the
    threshold, and nothing is imported inside the request."""
    tournament = make_tournament(0, organiser=organiser)
    client = french_client(organiser)
    action, data = preview(client, tournament)
    assert action == ""
    monkeypatch.setattr(long_work, "IMPORT_JOB_LINES", LINES - 1)

    response = client.post(reverse("tournaments:import", args=[tournament.slug]), data, follow=True)
    job = Job.objects.get()
    assert response.redirect_chain[-1][0] == reverse("jobs:job", args=[job.pk])
    assert job.kind == "player_import" and job.params["lines"] == LINES
    assert not Registration.objects.exists()  # nothing imported inside the request
    run_worker()
    assert Registration.objects.filter(tournament=tournament).count() == LINES


def test_a_referee_confirms_no_import(organiser):
    tournament = make_tournament(0, organiser=organiser)
    referee = make_user("arbitre")
    tournament.staff.create(user=referee, role="referee")
    url = reverse("jobs:player_import", args=[tournament.slug])
    assert french_client(referee).post(url, {"confirm": "x"}).status_code == 404

"""« Préparer le rapport »: the tournament's and the championship's results reports (JSON, CSV)
made by a worker, with their steps on the job's page, the file read back; a failure says why
and starts again."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import resolve, reverse

from scoring.demo import create_demo
from scoring.jobs.models import Job
from tests.championships.conftest import client_for, make_championship
from tests.tournaments.conftest import make_user
from tournaments.championships.models import Championship

from .conftest import french_client
from .worker import job_document, run_worker

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def tournament(organiser):
    return create_demo(players=8, rounds=2, deals=1, seed=5, created_by=organiser).tournament


def test_the_tournament_report_is_a_job_with_its_steps(tournament, organiser):
    client = french_client(organiser)
    url = reverse("jobs:results_report", args=[tournament.slug, "csv"])
    assert (
        url in client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content.decode()
    )
    job_id = resolve(client.post(url)["Location"]).kwargs["job_id"]
    page = client.get(reverse("jobs:job", args=[job_id])).content.decode()
    assert "Rapport de résultats" in page and "En attente" in page

    Job.objects.filter(pk=job_id).update(status="running", stage="gather", done=0, total=2)
    fragment = client.get(reverse("jobs:progress", args=[job_id])).content.decode()
    assert "Rassemblement des résultats" in fragment and 'max="2" value="0"' in fragment
    Job.objects.filter(pk=job_id).update(status="queued", stage="")

    run_worker()
    job = Job.objects.get(pk=job_id)
    assert (job.status, job.done, job.total, job.result_name) == (
        "done",
        2,
        2,
        f"rapport-{tournament.slug}.csv",
    )
    download = client.get(reverse("jobs:file", args=[job_id]))
    assert "attachment" in download["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(b"".join(download.streaming_content).decode())))
    assert len(rows) == 8
    assert sum(int(row["total"]) for row in rows) == 0  # zero-sum: the report loses no point


def test_the_championship_report_is_a_job_and_says_why_it_failed():
    by = make_user("orga-champ", organiser=True)
    championship, _stages = make_championship(8, cut=4, next_sizes=(4,), by=by)
    client = client_for(by)
    url = reverse("jobs:championship_report", args=[championship.slug, "json"])
    report = json.loads(job_document(client, url))
    assert report["status"] == "provisional" and len(report["stages"]) == 2

    french = french_client(by)
    job_id = resolve(french.post(url)["Location"]).kwargs["job_id"]
    page = french.get(reverse("jobs:job", args=[job_id])).content.decode()
    assert championship.name in page
    Championship.objects.filter(pk=championship.pk).delete()  # gone before a worker was free
    run_worker()
    failed = Job.objects.get(pk=job_id)
    assert failed.status == "failed" and failed.error == "Ce championnat n'existe plus."
    page = french.get(reverse("jobs:job", args=[job_id])).content.decode()
    assert "Ce championnat n" in page and "Relancer" in page
    french.post(reverse("jobs:restart", args=[job_id]))
    assert Job.objects.get(pk=job_id).status == "queued"


def test_a_referee_starts_no_report(tournament):
    referee = make_user("arbitre")
    tournament.staff.create(user=referee, role="referee")
    url = reverse("jobs:results_report", args=[tournament.slug, "json"])
    assert french_client(referee).post(url).status_code == 404
    assert not Job.objects.exists()

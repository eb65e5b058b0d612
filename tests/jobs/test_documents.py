"""« Préparer le PDF »: a round's and the whole tournament's score sheets made by a worker, the
page's progress bar (polled with htmx), the file, a failure said in French with « Relancer »."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.jobs.models import Job
from tests.scoring.conftest import make_tournament
from tournaments import services
from tournaments.models import StaffMember

from .conftest import french_client
from .worker import run_worker

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")


@pytest.fixture
def tournament(referee):
    tournament, _round = make_tournament(12)  # three tables
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    return tournament


def test_the_round_pdf_is_prepared_by_a_worker_with_its_progress(tournament, referee):
    client = french_client(referee)
    round_page = client.get(reverse("tournaments:round", args=[tournament.slug, 1]))
    start = reverse("jobs:sheets_round", args=[tournament.slug, 1, "pdf"])
    assert start in round_page.content.decode() and "Préparer le PDF" in round_page.content.decode()

    response = client.post(start)
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "jobs:job", args=[job.pk]
    )
    page = client.get(response["Location"]).content.decode()
    assert "En attente" in page
    assert f'hx-get="{reverse("jobs:progress", args=[job.pk])}"' in page
    assert 'hx-trigger="every 2s"' in page

    run_worker()

    job.refresh_from_db()
    assert (job.status, job.done, job.total, job.started_by) == ("done", 3, 3, referee)
    fragment = client.get(reverse("jobs:progress", args=[job.pk])).content.decode()
    assert "3 feuilles sur 3" in fragment
    assert "hx-trigger" not in fragment  # finished: the page stops asking
    download = client.get(reverse("jobs:file", args=[job.pk]))
    assert download["Content-Type"] == "application/pdf"
    assert f'filename="{tournament.slug}-position-1.pdf"' in download["Content-Disposition"]
    reader = PdfReader(io.BytesIO(b"".join(download.streaming_content)))
    assert len(reader.pages) == 3
    assert "Joueur00" in "".join(page.extract_text() for page in reader.pages)


def test_the_tournament_workbook_is_a_job_too(tournament, referee):
    client = french_client(referee)
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    start = reverse("jobs:sheets_tournament", args=[tournament.slug, "xlsx"])
    assert start in dashboard.content.decode()
    client.post(start)
    run_worker()
    job = Job.objects.get()
    download = client.get(reverse("jobs:file", args=[job.pk]))
    assert "attachment" in download["Content-Disposition"]
    workbook = load_workbook(io.BytesIO(b"".join(download.streaming_content)))
    assert len(workbook.sheetnames) == 1 + 3  # the standings, then a worksheet per sheet


def test_a_failed_job_says_why_in_french_and_starts_again(referee):
    tournament = services.tournament_create(
        created_by=referee, name="Sans tables", date=date(2026, 11, 30), seed=1
    )
    client = french_client(referee)
    client.post(reverse("jobs:sheets_tournament", args=[tournament.slug, "pdf"]))
    run_worker()
    job = Job.objects.get()
    assert job.status == "failed"
    page = client.get(reverse("jobs:job", args=[job.pk])).content.decode()
    assert job.error in page and "Aucune table" in job.error
    assert "Relancer" in page
    assert client.get(reverse("jobs:file", args=[job.pk])).status_code == 404

    response = client.post(reverse("jobs:restart", args=[job.pk]))
    assert response.status_code == 302
    job.refresh_from_db()
    assert (job.status, job.error) == ("queued", "")


def test_another_tournaments_staff_never_see_the_job(tournament, referee):
    client = french_client(referee)
    client.post(reverse("jobs:sheets_round", args=[tournament.slug, 1, "pdf"]))
    job = Job.objects.get()
    outsider = get_user_model().objects.create_user("autre", password="pw-autre-12")
    other = french_client(outsider)
    for name in ("job", "progress", "file"):
        assert other.get(reverse(f"jobs:{name}", args=[job.pk])).status_code == 404
    assert (
        other.post(reverse("jobs:sheets_round", args=[tournament.slug, 1, "pdf"])).status_code
        == 404
    )
    assert Job.objects.count() == 1


def test_the_bar_counts_the_sheets_read_then_the_sheets_laid_out(tournament, referee):
    client = french_client(referee)
    client.post(reverse("jobs:sheets_tournament", args=[tournament.slug, "pdf"]))
    job = Job.objects.get()
    url = reverse("jobs:progress", args=[job.pk])
    Job.objects.filter(pk=job.pk).update(status="running", stage="reading", done=1, total=2000)
    assert "lecture des feuilles : 1 sur 2\xa0000" in client.get(url).content.decode()
    Job.objects.filter(pk=job.pk).update(stage="writing", done=312)
    fragment = client.get(url).content.decode()
    assert "312 feuilles sur 2\xa0000" in fragment
    assert 'max="2000" value="312"' in fragment

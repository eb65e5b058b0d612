"""Jobs and their files are kept ``settings.JOBS_RETENTION_DAYS`` after they finish, then
removed: by every worker every hour (``worker.purge_once``) or by ``manage.py jobs_purge``. A job
still waiting or running, and a recent one, keep their rows and files."""

from __future__ import annotations

import io
import os
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scoring.jobs import files, worker
from scoring.jobs.models import Job
from scoring.jobs.services import job_start
from tests.scoring.conftest import make_tournament
from tests.tournaments.conftest import make_user

from .conftest import french_client
from .worker import run_worker

pytestmark = pytest.mark.django_db
DAY = 24 * 3600


def finished_job(tournament, days_ago: float) -> Job:
    job = job_start(kind=Job.Kind.SHEETS_PDF, user=None, tournament=tournament, params={"round": 1})
    run_worker()
    job.refresh_from_db()
    assert job.status == "done", job.error
    when = timezone.now() - timedelta(days=days_ago)
    Job.objects.filter(pk=job.pk).update(finished_at=when)
    DBTaskResult.objects.filter(pk=job.task_id).update(finished_at=when)
    folder = files.stored(job.result_path).parent
    os.utime(folder, (when.timestamp(), when.timestamp()))
    return job


def test_old_jobs_and_their_files_go_recent_ones_stay(settings, jobs_dir):
    settings.JOBS_RETENTION_DAYS = 7
    tournament, _round = make_tournament(8)
    old, recent = finished_job(tournament, 8), finished_job(tournament, 2)
    old_file, recent_file = files.stored(old.result_path), files.stored(recent.result_path)
    waiting = job_start(kind=Job.Kind.SHEETS_PDF, user=None, tournament=tournament)
    Job.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(days=30))
    stray = files.new_path("upload", "season.json")  # an upload no job names, long ago
    files.write_file(stray, b"{}")
    long_ago = time.time() - 10 * DAY
    os.utime(stray.parent, (long_ago, long_ago))

    assert worker.purge_once() == (1, 2)

    assert set(Job.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}
    assert not old_file.exists() and not stray.exists() and recent_file.exists()
    assert not DBTaskResult.objects.filter(pk=old.task_id).exists()
    assert DBTaskResult.objects.filter(pk=recent.task_id).exists()
    assert DBTaskResult.objects.filter(pk=waiting.task_id).exists()


def test_the_command_removes_them_too_and_the_page_is_gone(settings, jobs_dir):
    settings.JOBS_RETENTION_DAYS = 7
    organiser = make_user("orga", organiser=True)
    tournament, _round = make_tournament(8, user=organiser)
    old = finished_job(tournament, 8)
    page = reverse("jobs:job", args=[old.pk])
    assert french_client(organiser).get(page).status_code == 200
    out = io.StringIO()
    call_command("jobs_purge", stdout=out)
    assert out.getvalue() == "1 jobs and 1 folders of files removed.\n"
    assert not Job.objects.exists()
    assert french_client(organiser).get(page).status_code == 404
    recent = finished_job(tournament, 2)
    call_command("jobs_purge", "--days", "1", stdout=io.StringIO())
    assert not Job.objects.filter(pk=recent.pk).exists()

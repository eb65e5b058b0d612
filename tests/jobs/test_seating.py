"""Seating a round as a job when it takes more than a moment (``tournaments.long_work``): the
dashboard's form posts to the job then, a worker seats the round with the tournament's own
service, the job's page links to the round; a quick seating stays immediate; a failure says why
and starts again."""

from __future__ import annotations

import io
from collections import OrderedDict

import pytest
from django.urls import resolve, reverse
from pypdf import PdfReader

from scoring.jobs import tasks
from scoring.jobs.models import Job
from tests.tournaments.conftest import add_players, make_tournament, make_user
from tournaments import long_work, services
from tournaments.models import Registration, Round, StaffMember
from tournaments.seating import planning

from .conftest import french_client
from .worker import job_document, run_worker

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee():
    return make_user("arbitre")


def staffed(players: int, referee, **settings):
    tournament = make_tournament(players, **settings)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    return tournament


def test_where_seating_becomes_a_job():
    """One place says it: a large field, or a small one with odd tables after round 1."""
    large = long_work.SEATING_JOB_PLAYERS
    assert long_work.seating_in_background(large, 1)
    assert not long_work.seating_in_background(large - 4, 1)
    assert long_work.seating_in_background(21, 2)  # tables of 5: the search hunts zero repeats
    assert not long_work.seating_in_background(21, 1)  # round 1 is a draw
    assert not long_work.seating_in_background(24, 2)  # full tables: quick
    assert not long_work.seating_in_background(12, 3)


def test_a_large_field_is_seated_by_a_worker(referee, monkeypatch):
    monkeypatch.setattr(long_work, "SEATING_JOB_PLAYERS", 12)  # a large field, made small
    tournament = staffed(12, referee)
    client = french_client(referee)
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content
    start = reverse("jobs:seating", args=[tournament.slug])
    assert f'action="{start}"'.encode() in dashboard

    job_id = resolve(client.post(start, {"seed": "7"})["Location"]).kwargs["job_id"]
    assert not Round.objects.exists()  # nothing seated inside the request
    page = client.get(reverse("jobs:job", args=[job_id])).content.decode()
    assert "Placement d’une position" in page and "En attente" in page
    run_worker()

    job = Job.objects.get(pk=job_id)
    assert (job.status, job.done, job.total, job.params["round"]) == ("done", 1, 1, 1), job.error
    round_ = Round.objects.get(tournament=tournament)
    assert (round_.number, round_.seed, round_.seats.count()) == (1, 7, 12)
    fragment = client.get(reverse("jobs:progress", args=[job_id])).content.decode()
    assert "Position 1 placée." in fragment
    assert reverse("tournaments:round", args=[tournament.slug, 1]) in fragment
    # The seated round's sheets, read back: every present player at a table.
    pdf = job_document(client, reverse("jobs:sheets_round", args=[tournament.slug, 1, "pdf"]))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert all(f"Joueur{i:02d}" in text for i in range(12))


def test_seating_again_a_long_round_is_a_job_too(referee, monkeypatch):
    monkeypatch.setattr(long_work, "SEATING_JOB_PLAYERS", 12)
    tournament = staffed(12, referee)
    client = french_client(referee)
    client.post(reverse("jobs:seating", args=[tournament.slug]), {"seed": "7"})
    run_worker()
    response = client.post(
        reverse("tournaments:round_action", args=[tournament.slug, 1, "regenerate"])
    )
    job = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:job", args=[job.pk])
    run_worker()
    job.refresh_from_db()
    assert job.status == "done", job.error
    assert Round.objects.get(tournament=tournament).seed == job.params["seed"] != 7


def test_a_page_opened_before_the_field_grew_still_seats_by_a_worker(referee, monkeypatch):
    """The server decides, not the form: a dashboard (or a second tab) opened while the
    seating was quick posts to the seating in the request; past the threshold, that starts
    the job instead, with the job's own checks."""
    tournament = staffed(12, referee)
    client = french_client(referee)
    seat = reverse("tournaments:seat_round", args=[tournament.slug])
    assert (
        f'action="{seat}"'.encode()
        in client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content
    )
    monkeypatch.setattr(long_work, "SEATING_JOB_PLAYERS", 12)  # the field is large now

    bad = client.post(seat, {"seed": "x"}, follow=True)
    assert "Vérifiez le numéro de tirage" in bad.content.decode() and not Job.objects.exists()
    response = client.post(seat, {"seed": "7"}, follow=True)
    job = Job.objects.get()
    assert response.redirect_chain[-1][0] == reverse("jobs:job", args=[job.pk])
    assert (job.kind, job.params["round"], job.params["seed"]) == ("seating", 1, 7)
    assert not Round.objects.exists()  # nothing seated inside the request
    run_worker()
    assert Round.objects.get(tournament=tournament).seats.count() == 12


def test_the_seating_job_counts_its_search(referee, monkeypatch):
    """A real count for the page's bar, not a named step: the search's progress, growing,
    ending at its total (21 players at tables of 5, round 2: the long case)."""
    monkeypatch.setattr(planning, "_PLAN_CACHE", OrderedDict())  # a search, not the memo
    seen = []

    class Recording(tasks.Reporter):
        def __call__(self, done, total, stage=""):
            seen.append((done, total, stage))
            super().__call__(done, total, stage)

    monkeypatch.setattr(tasks, "Reporter", Recording)
    tournament = staffed(21, referee, rounds=6)
    client = french_client(referee)
    client.post(reverse("tournaments:seat_round", args=[tournament.slug]), {"seed": "3"})
    assert not Job.objects.exists()  # round 1: a draw, in the request
    services.round_close(round_=Round.objects.get(tournament=tournament), reason="Joué")
    client.post(reverse("tournaments:seat_round", args=[tournament.slug]), follow=True)
    run_worker()

    job = Job.objects.get()
    assert job.status == "done" and job.done == job.total, job.error
    assert {stage for _d, _t, stage in seen} == {Job.Stage.SEARCHING}
    ratios = [done / total for done, total, _stage in seen]
    assert ratios == sorted(ratios) and ratios[-1] == 1
    assert len([r for r in ratios if 0 < r < 1]) >= 5
    assert Round.objects.get(tournament=tournament, number=2).seats.count() == 21


def test_a_quick_seating_stays_immediate(referee):
    tournament = staffed(12, referee)
    client = french_client(referee)
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content
    assert reverse("tournaments:seat_round", args=[tournament.slug]).encode() in dashboard
    assert reverse("jobs:seating", args=[tournament.slug]).encode() not in dashboard
    client.post(reverse("tournaments:seat_round", args=[tournament.slug]))
    assert Round.objects.filter(tournament=tournament).count() == 1 and not Job.objects.exists()


def test_a_seating_that_cannot_be_done_says_why_and_starts_again(referee, monkeypatch):
    monkeypatch.setattr(long_work, "SEATING_JOB_PLAYERS", 1)
    tournament = staffed(0, referee)  # nobody present yet
    client = french_client(referee)
    job_id = resolve(
        client.post(reverse("jobs:seating", args=[tournament.slug]))["Location"]
    ).kwargs["job_id"]
    run_worker()
    job = Job.objects.get(pk=job_id)
    assert job.status == "failed" and job.error
    page = client.get(reverse("jobs:job", args=[job_id])).content.decode()
    assert "Relancer" in page and not Round.objects.exists()

    add_players(tournament, 4)  # the players arrive: it can be done now
    client.post(reverse("jobs:restart", args=[job_id]))
    run_worker()
    assert Job.objects.get(pk=job_id).status == "done"
    assert Registration.objects.filter(tournament=tournament, seats__isnull=False).count() == 4

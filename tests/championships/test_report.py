"""A championship's results report: its stages (cut, carried points, qualifiers by licence) and
its final ranking (the final's order, then those eliminated at each stage by their rank there),
for the championship's organiser only, in JSON (checked against its published schema) and CSV."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from django.urls import resolve, reverse
from jsonschema import Draft202012Validator

from scoring.demo import play_round
from scoring.jobs.models import Job
from tests.jobs.worker import job_document, run_worker
from tournaments import services
from tournaments.championships.services import stage_close
from tournaments.models import Registration

from .conftest import client_for, make_championship, organiser, tournament_of

pytestmark = pytest.mark.django_db
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "championship-report.schema.json").read_text()
)


def report_url(championship, fmt="json") -> str:
    return reverse("jobs:championship_report", args=[championship.slug, fmt])


def report_of(client, championship, fmt="json") -> bytes:
    """« Préparer le rapport »: a job, run here, its file read back."""
    return job_document(client, report_url(championship, fmt))


def test_the_report_follows_the_funnel_to_the_final_ranking():
    by = organiser()
    championship, (first, second) = make_championship(12, cut=8, next_sizes=(8,), by=by)
    for index, registration in enumerate(tournament_of(first).registrations.order_by("pk")):
        registration.licence = f"07{index:05d}"
        registration.series = "2e série" if index % 2 else "Open"
        registration.save()
    client = client_for(by)
    page = client.get(reverse("championships:staff", args=[championship.slug])).content.decode()
    assert report_url(championship) in page
    before = json.loads(report_of(client, championship))
    assert before["status"] == "provisional" and before["final_ranking"] == []
    assert Draft202012Validator(SCHEMA).is_valid(before)

    stage_close(stage=first)
    final_round = tournament_of(second).round_set.get()
    play_round(final_round, random.Random(1))
    services.round_close(round_=final_round)
    report = json.loads(report_of(client, championship))
    errors = [e.message for e in Draft202012Validator(SCHEMA).iter_errors(report)]
    assert errors == []
    assert report["status"] == "final"
    one, two = report["stages"]
    assert (one["players"], two["players"]) == (12, 8)
    assert len(one["qualified"]) == 8 and two["qualified"] == []
    # The qualifiers are named by licence: exactly those registered in the final.
    finalists = set(
        Registration.objects.filter(tournament=tournament_of(second)).values_list(
            "licence", flat=True
        )
    )
    assert set(one["qualified"]) == finalists
    ranking = report["final_ranking"]
    assert [place["position"] for place in ranking][:1] == [1] and len(ranking) == 12
    assert {p["licence"] for p in ranking[:8]} == finalists
    assert all(p["last_stage"] == 2 for p in ranking[:8])
    assert all(p["last_stage"] == 1 for p in ranking[8:])
    assert {p["series"] for p in ranking} == {"Open", "2e série"}
    lines = list(csv.DictReader(io.StringIO(report_of(client, championship, "csv").decode())))
    assert [line["licence"] for line in lines] == [p["licence"] for p in ranking]


def test_only_the_championship_organiser_downloads_it(client):
    championship, _stages = make_championship(8, cut=4, next_sizes=(4,))
    assert client_for(organiser()).post(report_url(championship)).status_code == 404
    anonymous = client.post(report_url(championship))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    own = client_for(championship.created_by)
    assert own.post(report_url(championship, "pdf")).status_code == 404
    assert not Job.objects.exists()
    # Its organiser's job is theirs alone: another organiser never sees it.
    job_id = resolve(own.post(report_url(championship))["Location"]).kwargs["job_id"]
    run_worker()
    other = client_for(organiser())
    for name in ("job", "progress", "file"):
        assert other.get(reverse(f"jobs:{name}", args=[job_id])).status_code == 404
    download = own.get(reverse("jobs:file", args=[job_id]))
    assert download.status_code == 200 and json.loads(b"".join(download.streaming_content))


def test_a_stage_report_ranks_as_its_standings_with_the_carried_points_in_words():
    by = organiser()
    _championship, (first, second) = make_championship(12, cut=8, by=by)
    stage_close(stage=first)
    tournament = tournament_of(second)
    round_ = tournament.round_set.get()
    play_round(round_, random.Random(2))
    services.round_close(round_=round_)
    client = client_for(by)
    url = reverse("jobs:results_report", args=[tournament.slug, "json"])
    report = json.loads(job_document(client, url))
    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "results-report.schema.json").read_text()
    )
    assert [e.message for e in Draft202012Validator(schema).iter_errors(report)] == []
    stage = report["tournament"]["stage"]
    assert (stage["number"], stage["name"]) == (2, "Étape 2")
    assert stage["carried_in"] == (
        "Totals and ranks include the points carried in from the previous stage (Étape 1): "
        "Each qualifier carries half their points into the next stage."
    )
    players = report["players"]
    assert any(p["carried_points"] for p in players)
    for p in players:
        assert p["total"] == p["carried_points"] + sum(r["points"] for r in p["rounds"])
    # The same totals and ranks as the stage's standings page gives (its CSV download).
    exported = client.get(reverse("public:standings_export", args=[tournament.slug, "csv"]))
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))[: len(players)]
    assert [(r["Rank"].rstrip("="), r["Player"], int(r["Total"]), r["Carried"]) for r in rows] == [
        (
            str(p["rank"]),
            f"{p['first_name']} {p['last_name']}",
            p["total"],
            str(p["carried_points"] or ""),
        )
        for p in players
    ]
    csv_report = list(
        csv.DictReader(
            io.StringIO(
                job_document(
                    client, reverse("jobs:results_report", args=[tournament.slug, "csv"])
                ).decode()
            )
        )
    )
    assert [int(r["carried_points"]) for r in csv_report] == [p["carried_points"] for p in players]

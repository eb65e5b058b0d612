"""The results report a tournament sends out: its published format (docs/results-report.md and
its JSON Schema), who may download it, and the values a receiver reads (ranks, shared ranks,
licences, série, sex, year of birth, teams), in JSON and read back from the CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.urls import resolve, reverse
from jsonschema import Draft202012Validator

from scoring.demo import create_demo
from scoring.documents.results_report import (
    FORMAT,
    ReportEvent,
    ReportPlayer,
    ReportTeam,
    build,
    to_csv,
)
from tests.jobs.worker import job_document, run_worker
from tests.tournaments.conftest import en_client, make_user
from tournaments.models import StaffMember

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "results-report.schema.json").read_text()
)
EVENT = ReportEvent(
    name="Open de Pontarlier",
    date="2026-07-14",
    place="Pontarlier",
    format="individual",
    rule_set="fft",
    rounds=2,
    deals_per_round=4,
    homologation="25-0042",
    finished=True,
    installation="Club de Tarot de Pontarlier",
    made_at="2026-07-14T19:02:00+00:00",
)


def _valid(report: dict) -> None:
    errors = sorted(Draft202012Validator(SCHEMA).iter_errors(report), key=str)
    assert errors == [], [e.message for e in errors]


def test_a_report_names_its_format_and_follows_its_published_schema():
    players = [
        ReportPlayer(
            1,
            False,
            "Martin",
            "Léa",
            "Tarot Doubs",
            "0123456",
            412,
            {1: 300, 2: 112},
            8,
            series="1re série",
            sex="F",
            birth_year=2008,
        ),
        ReportPlayer(2, True, "Durand", "Paul", "", "", -206, {1: -250, 2: 44}, 8),
        ReportPlayer(2, True, "=Bad", "", "X", "", -206, {1: -206}, 4, withdrawn=True),
    ]
    report = build(EVENT, players)
    _valid(report)
    assert (report["format"], report["version"], report["status"]) == (FORMAT, 1, "final")
    assert report["tournament"]["homologation"] == "25-0042"
    assert report["tournament"]["players"] == 3
    lea, paul, bad = report["players"]
    assert lea["rounds"] == [{"round": 1, "points": 300}, {"round": 2, "points": 112}]
    assert (lea["series"], lea["sex"], lea["birth_year"]) == ("1re série", "F", 2008)
    # What is not known is null, never "" (a receiver tells "none" from "empty").
    assert (paul["licence"], paul["series"], paul["sex"], paul["birth_year"]) == (None,) * 4
    assert (paul["rank"], paul["tied"], bad["rank"], bad["tied"]) == (2, True, 2, True)
    lines = list(csv.reader(io.StringIO(to_csv(report))))
    assert lines[0][-2:] == ["round_1", "round_2"]
    assert lines[1][:9] == [
        "1",
        "0",
        "0123456",
        "Martin",
        "Léa",
        "Tarot Doubs",
        "1re série",
        "F",
        "2008",
    ]
    assert lines[2][2] == "" and lines[2][-2:] == ["-250", "44"]
    # A name that a spreadsheet would run as a formula stays text; a round not played is empty.
    assert lines[3][3] == "'=Bad" and lines[3][-1] == "" and lines[3][12] == "1"


def test_a_provisional_report_says_so_and_teams_list_their_members():
    event = ReportEvent(
        **{**EVENT.__dict__, "finished": False, "homologation": "", "format": "teams_2"}
    )
    team = ReportTeam(1, False, "Les Excuses", 50, members=("0123456", "Paul Durand"))
    report = build(event, [], [team])
    _valid(report)
    assert report["status"] == "provisional"
    assert report["tournament"]["homologation"] is None
    assert report["teams"] == [
        {
            "rank": 1,
            "tied": False,
            "name": "Les Excuses",
            "total": 50,
            "members": ["0123456", "Paul Durand"],
        }
    ]


@pytest.mark.django_db
def test_the_organiser_downloads_the_tournament_report_as_its_standings_rank_it():
    organiser = make_user("orga", organiser=True)
    tournament = create_demo(players=8, rounds=2, deals=1, seed=5, created_by=organiser).tournament
    tournament.homologation = "26-0007"
    tournament.save()
    first = tournament.registrations.order_by("pk").first()
    first.series, first.sex, first.birth_year, first.licence = "2e série", "F", 1961, "0999001"
    first.save()
    client = en_client(organiser)
    url = reverse("jobs:results_report", args=[tournament.slug, "json"])
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert url in dashboard.content.decode()
    report = json.loads(job_document(client, url))  # « Préparer le rapport »: a job
    _valid(report)
    assert report["tournament"]["homologation"] == "26-0007"
    assert len(report["players"]) == 8
    totals = [p["total"] for p in report["players"]]
    assert totals == sorted(totals, reverse=True)
    assert sum(totals) == 0  # the game is zero-sum: the report loses no point
    mine = next(p for p in report["players"] if p["licence"] == "0999001")
    assert (mine["series"], mine["sex"], mine["birth_year"]) == ("2e série", "F", 1961)
    assert mine["total"] == sum(r["points"] for r in mine["rounds"])
    csv_url = reverse("jobs:results_report", args=[tournament.slug, "csv"])
    rows = list(csv.DictReader(io.StringIO(job_document(client, csv_url).decode())))
    assert [int(r["total"]) for r in rows] == totals
    pdf_url = reverse("jobs:results_report", args=[tournament.slug, "pdf"])
    assert client.post(pdf_url).status_code == 404


@pytest.mark.django_db
def test_the_report_is_for_organisers_only(client):
    organiser = make_user("orga", organiser=True)
    tournament = create_demo(players=8, rounds=1, deals=1, seed=2, created_by=organiser).tournament
    referee = make_user("arbitre")
    StaffMember.objects.create(tournament=tournament, user=referee, role=StaffMember.Role.REFEREE)
    url = reverse("jobs:results_report", args=[tournament.slug, "json"])
    assert en_client(referee).post(url).status_code in (403, 404)
    anonymous = client.post(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    # The organiser's report job: its page and file are not the referee's either.
    job_id = resolve(en_client(organiser).post(url)["Location"]).kwargs["job_id"]
    run_worker()
    for name in ("job", "progress", "file"):
        assert en_client(referee).get(reverse(f"jobs:{name}", args=[job_id])).status_code == 404

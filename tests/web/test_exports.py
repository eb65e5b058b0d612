"""The standings an organiser takes home (``classement.csv``, the CSV for French Excel, ``.xlsx``,
PDF), each read back as the organiser's software would read it.

Empty means empty (a missing club, an unplayed round, no penalty); a team event exports its team
standings in every format; any name the app accepts exports, and no cell acts as a formula.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from pypdf import PdfReader

from scoring.demo import create_demo
from scoring.documents import exports
from scoring.standings import forget_standings, standings_data
from tests.jobs.worker import job_document
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

FORMATS = ("csv", "csv-fr", "xlsx", "pdf")


def export(client, tournament: Tournament, fmt: str, **query):
    url = reverse("public:standings_export", args=[tournament.slug, fmt])
    response = client.get(url, query)
    assert response.status_code == 200, (fmt, response.status_code)
    return response.content


def read_csv(content: bytes, fmt: str) -> list[list[str]]:
    if fmt == "csv-fr":
        assert content.startswith(b"\xef\xbb\xbf")
        return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    return list(csv.reader(io.StringIO(content.decode("utf-8"))))


def read_xlsx(content: bytes) -> dict[str, list[list]]:
    workbook = load_workbook(io.BytesIO(content))
    return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in workbook}


def read_pdf(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def every_text(client, tournament: Tournament) -> dict[str, str]:
    """Each format's whole content as text, cell by cell."""
    out = {}
    for fmt in ("csv", "csv-fr"):
        rows = read_csv(export(client, tournament, fmt), fmt)
        out[fmt] = "\n".join("|".join(r) for r in rows)
    sheets = read_xlsx(export(client, tournament, "xlsx"))
    out["xlsx"] = "\n".join(
        "|".join("" if v is None else str(v) for v in row)
        for rows in sheets.values()
        for row in rows
    )
    out["pdf"] = read_pdf(export(client, tournament, "pdf"))
    return out


@pytest.fixture
def in_progress(db):
    """Round 1 played; round 2 seated, nothing entered; one player without a club, nobody
    penalised: empty cells everywhere the exports used to print "None"."""
    tournament = create_demo(players=8, rounds=2, deals=1, seed=5, play_rounds=1).tournament
    services.round_seat_next(tournament=tournament, seed=52)
    registration = Registration.objects.filter(tournament=tournament).first()
    registration.club_name = ""
    registration.save()
    Tournament.objects.filter(pk=tournament.pk).update(finished=True)
    forget_standings()
    return Tournament.objects.get(pk=tournament.pk)


def test_empty_means_empty_in_every_format(client, in_progress):
    texts = every_text(client, in_progress)
    for fmt, text in texts.items():
        assert "None" not in text, f"{fmt} prints None"
        assert "none" not in text.lower().split(), fmt


def test_a_missing_club_and_no_penalty_are_empty_cells(client, in_progress):
    sheets = read_xlsx(export(client, in_progress, "xlsx"))
    rows = next(iter(sheets.values()))
    headers = rows[0]
    club, penalties = headers.index("Club"), headers.index("Pénalités")
    assert any(row[club] is None for row in rows[1:]), "the player without a club"
    assert all(row[penalties] is None for row in rows[1:]), "nobody was penalised"
    for row in read_csv(export(client, in_progress, "csv"), "csv")[1:]:
        assert row[penalties] == ""


def test_the_score_sheets_workbook_ranking_leaves_no_club_and_no_penalty_empty(
    client, django_user_model, in_progress
):
    """The ranking sheet of the score-sheet workbook reads like the standings exports."""
    staff = django_user_model.objects.create_superuser("chef", password="x")
    client.force_login(staff)
    content = job_document(client, reverse("jobs:sheets_round", args=[in_progress.slug, 1, "xlsx"]))
    sheets = read_xlsx(content)
    rows = next(rows for rows in sheets.values() if rows and "Pénalités" in rows[0])
    club, penalties = rows[0].index("Club"), rows[0].index("Pénalités")
    assert len(rows) == 9
    assert any(row[club] is None for row in rows[1:]), "the player without a club"
    assert all(row[penalties] is None for row in rows[1:]), "nobody was penalised"


@pytest.fixture
def team_event(db):
    tournament = create_demo(players=8, rounds=1, deals=1, teams=2, seed=6).tournament
    Tournament.objects.filter(pk=tournament.pk).update(finished=True)
    return Tournament.objects.get(pk=tournament.pk)


def test_a_team_event_exports_its_team_standings_in_every_format(client, team_event):
    teams = standings_data(team_event).team_standings()
    assert len(teams) == 4
    for fmt in ("csv", "csv-fr"):
        rows = read_csv(export(client, team_event, fmt), fmt)
        team_rows = [r for r in rows if len(r) > 1 and r[1] in {t.name for t in teams}]
        assert [(r[1], int(r[-1])) for r in team_rows] == [(t.name, t.total) for t in teams]
    sheets = read_xlsx(export(client, team_event, "xlsx"))
    assert len(sheets) == 2, list(sheets)
    team_sheet = sheets[list(sheets)[1]]
    assert [(r[1], r[-1]) for r in team_sheet[1:]] == [(t.name, t.total) for t in teams]
    text = read_pdf(export(client, team_event, "pdf"))
    assert "Classement par équipes" in text
    for team in teams:
        assert team.name in text


def test_team_standings_after_a_round_follow_the_round(client, team_event):
    rows = read_csv(export(client, team_event, "csv", apres=1), "csv")
    names = {t.name for t in standings_data(team_event).team_standings(1)}
    assert names <= {r[1] for r in rows if len(r) > 1}


@pytest.mark.parametrize("name", ["²", "--5", "½", "-", "=1+1", "+33 6", "@home", "٣", "1e5"])
def test_any_name_exports(client, db, name):
    tournament = create_demo(players=4, rounds=1, deals=1, seed=9).tournament
    registration = Registration.objects.filter(tournament=tournament).first()
    registration.last_name = name
    registration.first_name = ""
    registration.club_name = name
    registration.save()
    Tournament.objects.filter(pk=tournament.pk).update(finished=True)
    tournament.refresh_from_db()
    for fmt in FORMATS:
        export(client, tournament, fmt)
    rows = next(iter(read_xlsx(export(client, tournament, "xlsx")).values()))
    headers = rows[0]
    row = next(r for r in rows[1:] if r[1] == name)
    assert row[headers.index("Club")] == name  # text stays text, as typed
    assert isinstance(row[headers.index("Total")], int)  # numbers stay numbers
    csv_rows = read_csv(export(client, tournament, "csv"), "csv")
    shown = next(r[1] for r in csv_rows if r[1].lstrip("'") == name)
    # A spreadsheet reads a cell starting with = + - @ as a formula: those are neutralised.
    assert shown == ("'" + name if name[0] in "=+-@" else name)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=80).filter(lambda s: s.strip()))
def test_any_text_a_name_can_hold_makes_a_workbook(name):
    """The workbook writer itself, for any text (control characters, surrogates aside)."""
    content = exports.to_xlsx("Classement", ["Rang", "Joueur", "Total"], [[1, name, -5]])
    rows = next(iter(read_xlsx(content).values()))
    assert rows[1][2] == -5
    # What a workbook cell can hold: one line, no control character.
    printable = ILLEGAL_CHARACTERS_RE.sub("", re.sub(r"[\r\n\t]+", " ", name))
    assert rows[1][1] == (printable or None)


def test_registering_a_strange_name_through_the_service_exports(client, db):
    tournament = create_demo(players=3, rounds=1, deals=1, seed=2).tournament
    services.player_register(
        tournament=tournament, row=services.PlayerRow(last_name="--5", first_name="²")
    )
    Tournament.objects.filter(pk=tournament.pk).update(finished=True)
    tournament.refresh_from_db()
    for fmt in FORMATS:
        export(client, tournament, fmt)

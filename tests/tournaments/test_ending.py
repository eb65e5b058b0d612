"""Issue 27, the end of the tournament: « Terminer le tournoi » offered on the tournament page once
every round is closed (and saying what it does), one transaction with its history; « Final
standings » printed only after it, « Provisional standings » before; counted in the season only
then; reopened with a reason, traced; no more « finished » checkbox in the settings."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.demo import create_demo
from scoring.season import season_data
from tarot_club.errors import ServiceError
from tests.jobs.worker import job_document
from tournaments import selectors, services
from tournaments.models import Round, Tournament
from tournaments.services import clubs, ending

from .conftest import en_client, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def played(organiser):
    """Two rounds seated and played; the first closed, the second still open."""
    tournament = create_demo(players=8, rounds=2, deals=1, seed=5, created_by=organiser).tournament
    last = tournament.round_set.get(number=2)
    if last.status == Round.Status.CLOSED:  # the demo closes its rounds: round 2 is still open
        services.round_reopen(round_=last)
    assert list(tournament.round_set.values_list("status", flat=True)) == ["closed", "playing"]
    return tournament


def dashboard(client, tournament) -> str:
    return client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content.decode()


def standings_pdf(client, tournament) -> str:
    url = reverse("public:standings_export", args=[tournament.slug, "pdf"])
    pdf = PdfReader(io.BytesIO(client.get(url).content))
    return "\n".join(page.extract_text() for page in pdf.pages)


def xlsx_titles(client, tournament) -> list[str]:
    url = reverse("public:standings_export", args=[tournament.slug, "xlsx"])
    return load_workbook(io.BytesIO(client.get(url).content)).sheetnames


def test_finishing_is_offered_once_every_round_is_closed_and_says_what_it_does(played, organiser):
    client = en_client(organiser)
    page = dashboard(client, played)
    assert "Finish the tournament</button>" not in page
    assert "round 2 is not closed yet" in page
    refused = client.post(reverse("tournaments:finish", args=[played.slug]))
    assert refused.status_code == 422
    assert "round 2 is not closed yet" in refused.content.decode()
    played.refresh_from_db()
    assert not played.finished and played.finish_log == []

    services.round_close(round_=played.round_set.get(number=2))
    page = dashboard(client, played)
    assert "Finish the tournament</button>" in page
    for promise in ("makes the standings final", "counts the tournament in its club", "archive"):
        assert promise in page


def test_final_standings_are_printed_only_once_finished(played, organiser):
    services.round_close(round_=played.round_set.get(number=2))
    client = en_client(organiser)
    public = en_client()
    text = standings_pdf(public, played)
    assert "Provisional standings" in text and "Final standings" not in text
    assert xlsx_titles(public, played)[0] == "Provisional standings"
    for name in ("public:standings", "public:home", "public:tv"):
        html = public.get(reverse(name, args=[played.slug])).content.decode()
        assert "Provisional standings" in html and "Final standings" not in html, name

    response = client.post(reverse("tournaments:finish", args=[played.slug]), follow=True)
    assert "its standings are final" in response.content.decode()
    played.refresh_from_db()
    assert played.finished
    (entry,) = selectors.tournament_endings(played)
    assert entry.finished and entry.by == "orga" and entry.at is not None
    assert "Finished by orga on" in response.content.decode()

    text = standings_pdf(public, played)
    assert "Final standings" in text and "Provisional" not in text
    assert xlsx_titles(public, played)[0] == "Final standings"
    for name in ("public:standings", "public:home", "public:tv"):
        html = public.get(reverse(name, args=[played.slug])).content.decode()
        assert "Final standings" in html and "Provisional standings" not in html, name


def test_the_season_counts_the_tournament_once_finished_and_not_after_reopening(played, organiser):
    club = clubs.club_create(name="Club du test", place="Lyon", organiser=organiser)
    season = clubs.season_create(
        club=club, name="2026", start=played.date, end=played.date.replace(month=12, day=31)
    )
    clubs.tournament_season_set(user=organiser, tournament=played, season=season)
    services.round_close(round_=played.round_set.get(number=2))
    played.refresh_from_db()

    def counted() -> bool:
        data = season_data(season)
        return any(t.counted for t in data.tournaments if t.tournament.pk == played.pk)

    assert not counted()
    ending.tournament_finish(tournament=played, by="orga")
    assert counted()
    ending.tournament_reopen(tournament=played, by="orga", reason="Donne 3 mal saisie")
    assert not counted()


def test_reopening_needs_a_reason_keeps_what_was_typed_and_is_traced(played, organiser):
    services.round_close(round_=played.round_set.get(number=2))
    client = en_client(organiser)
    client.post(reverse("tournaments:finish", args=[played.slug]))
    url = reverse("tournaments:reopen", args=[played.slug])

    refused = client.post(url, {"reason": "   "})
    assert refused.status_code == 422
    assert "Say why the tournament is reopened." in refused.content.decode()
    too_long = client.post(url, {"reason": "x" * 201})
    assert too_long.status_code == 422 and 'value="' + "x" * 201 + '"' in too_long.content.decode()
    played.refresh_from_db()
    assert played.finished and len(played.finish_log) == 1

    # While finished, nothing changes a round: reopening the round is refused.
    with pytest.raises(ServiceError, match="reopen the tournament first"):
        services.round_reopen(round_=played.round_set.get(number=2))

    page = client.post(url, {"reason": "Donne 3 de la table 2 mal saisie"}, follow=True)
    played.refresh_from_db()
    assert not played.finished
    assert [e.action for e in selectors.tournament_endings(played)] == [
        selectors.FINISHED,
        selectors.REOPENED,
    ]
    assert "(reason: Donne 3 de la table 2 mal saisie)" in page.content.decode()
    assert services.round_reopen(round_=played.round_set.get(number=2)).status == "playing"


def test_the_settings_no_longer_hold_a_finished_checkbox(played, organiser):
    page = en_client(organiser).get(reverse("tournaments:settings", args=[played.slug]))
    assert 'name="finished"' not in page.content.decode()


def test_only_an_organiser_finishes_the_tournament(played, organiser):
    services.round_close(round_=played.round_set.get(number=2))
    referee = make_user("arbitre")
    services.referee_add(tournament=played, username="arbitre")
    client = en_client(referee)
    assert "An organiser of the tournament can now finish it." in dashboard(client, played)
    assert client.post(reverse("tournaments:finish", args=[played.slug])).status_code == 404
    assert not Tournament.objects.get(pk=played.pk).finished
    assert Round.objects.filter(tournament=played, status="closed").count() == 2


def test_the_score_sheets_workbook_names_its_standings_provisional_then_final(played, organiser):
    """The whole tournament's workbook (staff « feuilles.xlsx ») titles its standings sheet by
    whether the tournament was finished, in the language of whoever downloads it."""
    url = reverse("jobs:sheets_tournament", args=[played.slug, "xlsx"])
    french, english = Client(HTTP_ACCEPT_LANGUAGE="fr"), en_client(organiser)
    french.force_login(organiser)

    def first_sheet(client) -> str:
        return load_workbook(io.BytesIO(job_document(client, url))).sheetnames[0]

    assert first_sheet(french) == "Classement provisoire"
    assert first_sheet(english) == "Provisional standings"
    services.round_close(round_=played.round_set.get(number=2))
    ending.tournament_finish(tournament=played, by="orga")
    assert first_sheet(french) == "Classement final"
    assert first_sheet(english) == "Final standings"

"""Issue 15, players, in a real browser: the organiser registers a player already on the list
under another spelling, sees the likely duplicate flagged and merges it; corrects a player's
club for this tournament; removes a player registered by mistake; the swap menu tells two
namesakes apart and offers no absent player."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Registration

from .helpers import fr, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Petit-au-bout-2026"


@pytest.fixture
def tournament():
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=organiser, name="Tournoi de printemps", date=date(2026, 4, 18), rounds=2
    )
    for last, first, club, licence in [
        ("Lefèvre", "Hélène", "Excuse d'Évry", "0412345"),
        ("Martin", "Paul", "Club de Nantes", "0400001"),
        ("Martin", "Paul", "Petit Club", ""),
        ("Dupont", "Marc", "", ""),
        ("Roux", "Zoé", "", ""),
    ]:
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first, club=club, licence=licence),
            present=True,
        )
    return tournament


def row_of(page, registration):
    return page.locator(f"#reg-{registration.pk}")


def test_the_organiser_merges_corrects_and_removes_players(tournament, page, shot):
    login(page, "orga", PASSWORD)
    page.goto(f"/t/{tournament.slug}/gestion/joueurs/")

    # A late arrival typed without accents: registered, and flagged as likely Hélène.
    form = page.locator("form:has(input[name=last_name])")
    form.locator("input[name=last_name]").fill("LEFEVRE")
    form.locator("input[name=first_name]").fill("helene")
    with page.expect_navigation():
        form.get_by_role("button", name=fr("Register")).click()
    shot(page, "flagged")
    expect(page.locator("body")).to_contain_text("Hélène Lefèvre (Excuse d'Évry · 0412345)")
    late = Registration.objects.get(tournament=tournament, last_name="LEFEVRE")
    helene = Registration.objects.get(tournament=tournament, last_name="Lefèvre")
    merge = row_of(page, late).get_by_role(
        "button", name=fr("Merge into %(name)s") % {"name": "Hélène Lefèvre"}
    )
    with page.expect_navigation():
        merge.click()
    shot(page, "merged")
    expect(row_of(page, late)).to_have_count(0)
    expect(row_of(page, helene)).to_be_visible()
    assert Registration.objects.filter(tournament=tournament).count() == 5

    # Marc plays for a club after all: his record in this tournament is corrected.
    marc = Registration.objects.get(tournament=tournament, last_name="Dupont")
    with page.expect_navigation():
        row_of(page, marc).get_by_role("link", name=fr("Correct")).click()
    page.locator("input[name=club]").fill("Les Bouts d'Annecy")
    with page.expect_navigation():
        page.get_by_role("button", name=fr("Save the correction")).click()
    shot(page, "corrected")
    expect(row_of(page, marc)).to_contain_text("Les Bouts d'Annecy")

    # Zoé was registered by mistake: removed (she never played).
    zoe = Registration.objects.get(tournament=tournament, last_name="Roux")
    with page.expect_navigation():
        row_of(page, zoe).get_by_role("button", name=fr("Remove")).click()
    expect(row_of(page, zoe)).to_have_count(0)
    assert not Registration.objects.filter(pk=zoe.pk).exists()

    # Marc is absent today; round 1 is seated: the swap menu tells the two Paul Martin apart
    # and does not offer Marc.
    services.registration_set_status(registration=marc, status="absent")
    services.round_seat_next(tournament=tournament)
    page.goto(f"/t/{tournament.slug}/gestion/position/1/")
    options = page.locator("select[name=first] option").all_inner_texts()
    assert "Paul Martin (Club de Nantes · 0400001)" in options
    assert "Paul Martin (Petit Club)" in options
    assert not any("Dupont" in option for option in options)

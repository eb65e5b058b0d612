"""Issue 17 in a real browser: a player finds themself by typing their name without accents on
a phone; at check-in the referee prints one player's PIN slip from the players page; a new
referee's weak password is refused with Django's message on the field."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from tournaments import services
from tournaments.models import StaffMember

from .helpers import fr, horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tournament():
    organiser = get_user_model().objects.create_user("orga", password="Petit-au-bout-2026")
    tournament = services.tournament_create(
        created_by=organiser, name="Tournoi d'hiver", date=date(2026, 12, 19), rounds=2
    )
    for last, first in [("Lefèvre", "Hélène"), ("Lefebvre", "Marc"), ("Œuvray", "Noël")]:
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first, club="Excuse d'Évry"),
        )
    referee = get_user_model().objects.create_user("arbitre", password="Garde-contre-1987")
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    return tournament


def test_a_player_finds_themself_without_typing_accents(tournament, phone, shot):
    page = phone.new_page()
    page.goto(f"/t/{tournament.slug}/moi/")
    search = page.locator("form.search input[name=q]")
    search.fill("lefevre helene")
    with page.expect_navigation():
        search.press("Enter")
    shot(page, "found")
    links = page.locator("ul.cards a.big-link")
    expect(links).to_have_count(1)
    expect(links.first).to_have_text("Hélène Lefèvre")
    assert horizontal_overflow(page) == 0
    search = page.locator("form.search input[name=q]")
    search.fill("OEUVRAY")
    with page.expect_navigation():
        search.press("Enter")
    expect(page.locator("ul.cards a.big-link")).to_have_text(["Noël Œuvray"])


def test_the_referee_prints_one_players_pin_slip_at_check_in(tournament, page, shot):
    login(page, "arbitre", "Garde-contre-1987")
    page.goto(f"/t/{tournament.slug}/gestion/joueurs/")
    shot(page, "players")
    registration = tournament.registrations.get(last_name="Œuvray")
    row = page.locator(f"#reg-{registration.pk}")
    expect(row).not_to_contain_text(registration.pin)  # no PIN on the screen the room sees
    slip = row.get_by_role("link", name=fr("Slip"))
    answer = page.request.get(slip.get_attribute("href"))
    assert answer.ok and "no-store" in answer.headers["cache-control"]
    text = PdfReader(io.BytesIO(answer.body())).pages[0].extract_text()
    assert "Noël Œuvray" in text and registration.pin in text
    assert "Hélène Lefèvre" not in text
    expect(page.get_by_role("link", name=fr("PIN slips of every player (PDF)"))).to_be_visible()


def test_a_weak_password_for_a_new_referee_is_refused_on_the_field(tournament, page, shot):
    login(page, "orga", "Petit-au-bout-2026")
    page.goto(f"/t/{tournament.slug}/gestion/arbitres/")
    page.locator("input[name=username]").fill("nouvel-arbitre")
    page.locator("input[name=password]").fill("1")
    with page.expect_navigation():
        page.locator("form button.primary, form button[type=submit]").last.click()
    shot(page, "refused")
    expect(page.locator("body")).to_contain_text("trop court")
    expect(page.locator("input[name=username]")).to_have_value("nouvel-arbitre")
    assert not get_user_model().objects.filter(username="nouvel-arbitre").exists()

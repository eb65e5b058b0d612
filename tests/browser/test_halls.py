"""One hall in a real browser: the TV of « Salle Pourny » on a 1920x1080 screen shows that hall's
players only, readable from the back of the room, with its tables still playing; a referee
assigned to « Salle des Capucins » opens the round on their hall's tables and can see every hall.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from tests.browser.helpers import fr, login
from tournaments import services
from tournaments.halls.models import Hall
from tournaments.halls.services import HallRow, halls_set, referee_hall_set
from tournaments.models import StaffMember, Tournament

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_in_halls(players: int = 24) -> Tournament:
    tournament = services.tournament_create(
        created_by=None, name="Open de Pontarlier", date=date(2026, 5, 1), rounds=3, seed=5
    )
    for i in range(players):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:02d}", first_name="Ana"),
            present=True,
        )
    halls_set(
        tournament=tournament,
        halls=[
            HallRow("Salle Pourny", "pourny", 1, 3),
            HallRow("Salle des Capucins", "capucins", 61, 63),
        ],
        keep_players=True,
    )
    services.round_seat_next(tournament=tournament)
    return tournament


def test_one_halls_tv_on_a_1920x1080_screen(page, shot):
    tournament = open_in_halls()
    pourny = {
        str(r)
        for r in tournament.round_set.get()
        .seats.filter(table__number__lte=3)
        .values_list("registration_id", flat=True)
    }
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/t/{tournament.slug}/ecran/?salle=pourny&secondes=0.4")
    expect(page.locator("h1")).to_have_text(re.compile(r"Open de Pontarlier — Salle Pourny"))
    rows = page.locator(".tv-row")
    expect(rows).to_have_count(len(pourny))
    shown = set(rows.evaluate_all("(rows) => rows.map((r) => r.dataset.id)"))
    assert shown == pourny
    visible = rows.evaluate_all(
        "(rows) => rows.filter((r) => r.offsetParent !== null).map((r) => {"
        " const b = r.getBoundingClientRect(); return [b.bottom <= innerHeight + 0.5,"
        " parseFloat(getComputedStyle(r).fontSize)]; })"
    )
    assert len(visible) == 12, "12 players fit on one page of a 1080-line screen"
    assert all(inside and size >= 36 for inside, size in visible)
    status = page.locator(".tv-status")
    expect(status).to_contain_text("1")
    expect(status).not_to_contain_text("61")
    shot(page, "tv-pourny-1080p")


def test_a_referees_round_page_opens_on_their_hall(page, django_user_model, shot):
    tournament = open_in_halls()
    user = django_user_model.objects.create_user("arbitre-capucins", password="pw-capucins-1")
    staff = StaffMember.objects.create(tournament=tournament, user=user, role="referee")
    referee_hall_set(staff=staff, hall=Hall.objects.get(tournament=tournament, slug="capucins"))
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, "arbitre-capucins", "pw-capucins-1")
    page.goto(f"/t/{tournament.slug}/gestion/position/1/")
    expect(page.locator("h1")).to_contain_text("Salle des Capucins")
    numbers = page.locator("table.dashboard td.num a")
    expect(numbers).to_have_text(["61", "62", "63"])
    shot(page, "round-capucins")
    page.get_by_role("link", name=fr("Every hall")).click()
    expect(numbers).to_have_text(["1", "2", "3", "61", "62", "63"])
    page.get_by_role("link", name="Salle Pourny").click()
    expect(numbers).to_have_text(["1", "2", "3"])
    plan = page.get_by_role("link", name=re.compile(re.escape(fr("Seating plan (PDF)"))))
    assert plan.get_attribute("href").endswith("?salle=pourny")

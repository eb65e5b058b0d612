"""Issue 27: seating a round takes seconds; meanwhile the organiser's button says
« Placement en cours… » with the seconds elapsed, and a second click does not post twice."""

from __future__ import annotations

import json
import re
import time
from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Round
from tournaments.services import rounds as round_services

from .helpers import fr, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Garde-contre-2026"

# What the button says while the page waits, kept in sessionStorage (read back on the next page:
# Playwright cannot query a page whose form post is under way).
RECORD_BUTTON = """
var recording = false;
addEventListener("submit", function () {
  if (recording) return;
  recording = true;
  var button = document.querySelector("form[data-busy] button[type=submit]");
  if (!button) return;
  var seen = [button.textContent];
  sessionStorage.setItem("seen", JSON.stringify(seen));
  new MutationObserver(function () {
    seen.push(button.textContent);
    sessionStorage.setItem("seen", JSON.stringify(seen));
  }).observe(button, {childList: true, characterData: true, subtree: true});
  setTimeout(function () { button.click(); }, 300);  // an impatient second click
});
"""


@pytest.fixture
def tournament():
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=organiser, name="Tournoi d'hiver", date=date(2026, 12, 5), rounds=3
    )
    for i in range(8):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i}", first_name="Jean", club="", licence=""),
            present=True,
        )
    return tournament


def test_the_seat_button_shows_progress_and_posts_once(tournament, page, monkeypatch):
    seat = round_services._seat

    def slow_seat(*args, **kwargs):  # a busy machine: the search takes seconds
        time.sleep(2.5)
        return seat(*args, **kwargs)

    monkeypatch.setattr(round_services, "_seat", slow_seat)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    login(page, "orga", PASSWORD)
    page.goto(f"/t/{tournament.slug}/gestion/")
    page.evaluate("() => {" + RECORD_BUTTON + "}")
    posts.clear()
    with page.expect_navigation(url=re.compile(r"/gestion/position/1/$"), timeout=20_000):
        page.get_by_role("button", name=fr("Seat round %(n)s") % {"n": 1}).click()
    seen = json.loads(page.evaluate("sessionStorage.getItem('seen')"))
    label = fr("Seating in progress…")
    assert seen[0] == f"{label} 0 s"
    assert f"{label} 2 s" in seen  # the seconds go on while the server works
    assert len(posts) == 1
    assert Round.objects.filter(tournament=tournament).count() == 1

"""Issue 27, the room's screen for a team event (1920×1080 and 1280×720) and the phone's
standings (390×844): team pages balanced (12 teams where 11 fit: not 11 and 1) with no member's
name cut; no pause nor FR/EN button on the screen (P on a keyboard still pauses); namesakes
(two « Chloé Morel ») told apart by their club."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.demo import create_demo
from scoring.standings import forget_standings, standings_data
from tournaments.models import Registration, Tournament

from .test_tv_screen import SIZES, one_cycle, open_tv

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAM_TEXT = """() => Array.from(document.querySelectorAll('.tv-row')).filter((row) =>
    row.offsetParent !== null && row.dataset.id.startsWith('team-')).map((row) => {
    const name = row.querySelector('.tv-name');
    const box = row.getBoundingClientRect();
    return {cut: name.scrollWidth > name.clientWidth + 1, left: Math.round(box.left),
            right: box.right, width: box.width};
})"""


def team_event_with_namesakes() -> Tournament:
    """12 teams of two, and two players called Chloé Morel, of two clubs."""
    tournament = create_demo(
        players=24, rounds=2, deals=1, teams=2, seed=27, play_rounds=1, name="Coupe de Noël"
    ).tournament
    two = Registration.objects.filter(tournament=tournament).order_by("pk")[:2]
    for registration, club in zip(two, ["Excuse de Lyon", "Petit Club de Nantes"], strict=True):
        Registration.objects.filter(pk=registration.pk).update(
            first_name="Chloé", last_name="Morel", club_name=club
        )
    Tournament.objects.filter(pk=tournament.pk).update(changed_at=timezone.now())
    forget_standings()
    return tournament


@pytest.mark.parametrize("size", list(SIZES))
def test_team_pages_are_balanced_and_the_screen_has_no_buttons(page, size, shot):
    tournament = team_event_with_namesakes()
    teams = standings_data(tournament).team_standings()
    assert len(teams) == 12
    open_tv(page, tournament.slug, size, "secondes=3600")
    shot(page, f"teams-{size}")
    rows = page.evaluate(TEAM_TEXT)
    assert rows and not [r for r in rows if r["cut"]], "a team's members are cut short"
    width = page.viewport_size["width"]
    # The rows take the screen's width: one wide column, or several side by side.
    columns = sorted({r["left"] for r in rows})
    assert max(r["right"] for r in rows) >= 0.9 * width, rows
    if len(columns) == 1:
        assert rows[0]["width"] >= 0.9 * width, rows
    # No button: nobody is there to press it.
    assert page.locator(".tv-foot button:visible, .tv-foot a:visible, nav.lang").count() == 0

    open_tv(page, tournament.slug, size, "secondes=0.4")
    pages = one_cycle(page)
    team_pages = [len([r for r in p["rows"] if r.startswith("team-")]) for p in pages]
    team_pages = [n for n in team_pages if n]
    assert sum(team_pages) == 12, team_pages
    assert max(team_pages) - min(team_pages) <= 1, f"unbalanced pages: {team_pages}"


def test_namesakes_are_told_apart_on_the_screen_and_the_phone(page, phone_at, shot):
    tournament = team_event_with_namesakes()
    open_tv(page, tournament.slug, "1080p", "secondes=3600")
    names = page.evaluate(
        "() => Array.from(document.querySelectorAll('.tv-view:not([data-fit]) .tv-name'))"
        ".map((n) => n.textContent.replace(/\\s+/g, ' ').trim())"
    )
    morels = sorted(n for n in names if n.startswith("Chloé Morel"))
    assert morels == ["Chloé Morel (Excuse de Lyon)", "Chloé Morel (Petit Club de Nantes)"]
    others = [n for n in names if not n.startswith("Chloé Morel")]
    assert not [n for n in others if "(" in n], "only namesakes carry their club"

    phone = phone_at(390, 844).new_page()
    phone.goto(f"/t/{tournament.slug}/classement/")
    shot(phone, "phone-standings")
    rows = phone.locator("table.standings:not(.teams) tbody tr td:nth-child(2)")
    shown = [t.replace("\n", " ").strip() for t in rows.all_inner_texts()]
    morels = sorted(t for t in shown if t.startswith("Chloé Morel"))
    assert morels == ["Chloé Morel (Excuse de Lyon)", "Chloé Morel (Petit Club de Nantes)"]
    for cell in phone.locator("small.namesake").all():
        expect(cell).to_be_visible()


def test_p_on_the_keyboard_pauses_the_screen(page):
    tournament = team_event_with_namesakes()
    open_tv(page, tournament.slug, "1080p", "secondes=0.4")
    page.wait_for_function("() => document.querySelector('.tv').dataset.page === '1'")
    page.keyboard.press("p")
    shown = page.evaluate("() => document.querySelector('.tv').dataset.page")
    page.wait_for_timeout(1500)
    assert page.evaluate("() => document.querySelector('.tv').dataset.page") == shown
    page.keyboard.press("p")
    page.wait_for_function(
        f"() => document.querySelector('.tv').dataset.page !== '{shown}'", timeout=5_000
    )


def test_the_screen_prints_no_template_text(page):
    tournament = team_event_with_namesakes()
    open_tv(page, tournament.slug, "1080p", "secondes=3600")
    text = page.locator("body").inner_text()
    assert "{#" not in text and "{%" not in text

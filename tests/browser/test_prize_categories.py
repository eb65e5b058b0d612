"""The categories of an open as people see them: on a phone (390x844) from the standings to
each category and the prize list, and on the room's screen (1920x1080) in turn with the
scratch standings."""

from __future__ import annotations

import pytest

from scoring.prizes.selectors import category_standings
from scoring.standings import standings_data
from tests.prizes.conftest import build_open

from .helpers import fr
from .test_tv_screen import one_cycle, open_tv

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= innerWidth + 1"


FRENCH = {"Women": "Dames", "Young players (under 18)": "Jeunes (moins de 18 ans)"}
FRENCH["Seniors (60 and over)"] = "Seniors (60 ans et plus)"


def translated(category) -> str:
    return FRENCH.get(category.label, category.label)


def test_a_player_reads_the_category_standings_on_a_phone(phone_at, shot):
    tournament = build_open()
    categories = category_standings(tournament, standings_data(tournament))
    phone = phone_at(width=390, height=844).new_page()
    phone.goto(f"/t/{tournament.slug}/classement/")
    phone.get_by_role("link", name=fr("Categories and prize list")).click()
    expect(phone.get_by_role("heading", level=1)).to_have_text(fr("Categories"), timeout=10_000)
    for category in categories:
        phone.locator("nav.pills a", has_text=translated(category)).first.click()
        section = phone.locator(f"#categorie-{category.key}")
        expect(section).to_be_visible(timeout=10_000)
        expect(section.get_by_role("heading")).to_contain_text(translated(category))
        names = section.locator("tbody tr td:nth-child(2) a")
        expect(names).to_have_count(len(category.rows), timeout=10_000)
        assert names.all_inner_texts() == [row.name for row in category.rows]
        assert phone.evaluate(NO_SIDEWAYS_SCROLL), "the page scrolls sideways on a phone"
    assert phone.evaluate(NO_SIDEWAYS_SCROLL), "the page scrolls sideways on a phone"
    shot(phone, "categories")
    prizes = phone.locator("#palmares")
    expect(prizes).to_contain_text(fr("Prize list"), timeout=10_000)
    expect(prizes).to_contain_text("Un seul prix par joueur")


def test_the_screen_shows_each_category_in_turn_with_the_scratch_standings(page, shot):
    tournament = build_open()
    open_tv(page, tournament.slug, "1080p", "secondes=0.4")
    titles = [p["title"] for p in one_cycle(page)]
    expected = ["Dames", "Jeunes (moins de 18 ans)", "Seniors (60 ans et plus)", "Promotion"]
    assert titles[0] == fr("Standings"), titles
    shown = [t for t in dict.fromkeys(titles) if t != fr("Standings")]
    assert shown == expected, titles
    shot(page, "tv")

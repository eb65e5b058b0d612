"""A club's season read on a phone (390 px), in French: the club page, then the season's
standings, then a player's career with the chart of their season, all by tapping links."""

from __future__ import annotations

import pytest

from scoring.demo import create_demo_season
from scoring.season import season_data

from .test_public_pages import assert_no_sideways_scroll

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_follows_the_season_from_the_club_page(phone, shot):
    demo = create_demo_season(tournaments=3, players=8, rounds=1, deals=1, seed=5)
    data = season_data(demo.season)
    leader = data.standings()[0]
    page = phone.new_page()
    page.goto(f"/club/{demo.club.slug}/")
    expect(page.get_by_role("heading", name="Prochains tournois")).to_be_visible()
    expect(page.get_by_text("8 places restantes")).to_be_visible()
    expect(page.get_by_text("Seuls les tournois clos et définitifs comptent.")).to_be_visible()
    assert_no_sideways_scroll(page, "club page")
    shot(page, "club")

    page.get_by_role("link", name="Tout le classement de la saison").click()
    rows = page.locator("table.season tbody tr")
    expect(rows).to_have_count(len(data.standings()))
    points = [int(t) for t in page.locator("table.season tbody td.strong").all_inner_texts()]
    assert points == [s.points for s in data.standings()]
    assert_no_sideways_scroll(page, "season standings")

    page.get_by_role("link", name=leader.name).first.click()
    expect(page.get_by_role("heading", name=leader.name, exact=True)).to_be_visible()
    expect(page.locator("figure.chart svg circle.dot")).to_have_count(leader.played)
    expect(page.locator("table.career tbody tr")).to_have_count(leader.played)
    assert_no_sideways_scroll(page, "career")
    shot(page, "career")

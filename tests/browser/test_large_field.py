"""A 3,000-player field's standings on a phone (390 × 844): the page opens on the top, a reader
finds themselves by the search box or from their own page, and any row is one tap away."""

from __future__ import annotations

import pytest

from tests.web.test_field_pages import build_field

from .test_public_pages import assert_no_sideways_scroll

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROWS = "table.standings tbody tr"


def test_a_phone_opens_a_large_field_on_its_top_and_reaches_every_row(phone_at, shot):
    tournament, ids = build_field()
    page = phone_at(390, 844).new_page()
    page.goto(f"/t/{tournament.slug}/classement/")
    expect(page.locator(ROWS)).to_have_count(30)
    expect(page.locator(ROWS).first.locator("td").first).to_have_text("1")
    assert_no_sideways_scroll(page, "a large field's standings")
    shot(page, "top")

    # The search box: the reader types their name and sees their rank.
    page.get_by_role("searchbox").fill("numéro2345")
    page.get_by_role("searchbox").press("Enter")
    found = page.locator("#part-search + * " + ROWS)
    expect(found).to_have_count(1)
    expect(found.first.locator("td").first).to_have_text("2346")

    # Every row one tap away: ranks 1601 to 1700.
    link = page.get_by_role("link", name="1601–1700")
    link.click()
    expect(page.locator(ROWS)).to_have_count(100)
    expect(page.locator(ROWS).first.locator("td").first).to_have_text("1601")
    assert_no_sideways_scroll(page, "a page of a large field's standings")

    # From the player's own page, their place.
    page.goto(f"/t/{tournament.slug}/joueur/{ids[1499]}/")
    page.get_by_role("link", name="Ma place au classement").click()
    expect(page.locator("#part-reader + * " + ROWS)).to_have_count(5)
    expect(page.locator("#part-reader + * " + ROWS).nth(2).locator("td").first).to_have_text("1500")
    shot(page, "my-place")

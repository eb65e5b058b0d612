"""Public pages follow the tournament without reloading under the reader's eyes, and a reader can
pause them: a phone on the standings page while a table enters its last deal.
"""

from __future__ import annotations

import pytest

from scoring.standings import standings_data
from tests.scene import build_scene, finish_table
from tournaments.models import Table, Tournament

from .helpers import fr

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


INDIVIDUAL_TOTALS = "table.standings:not(.teams) tbody td.strong"


def totals_shown(page) -> list[str]:
    return [t.strip() for t in page.locator(INDIVIDUAL_TOTALS).all_inner_texts()]


def test_standings_update_in_place_and_a_reader_can_pause_them(phone, shot):
    scene = build_scene()
    tournament = Tournament.objects.get(slug=scene.slug)
    page = phone.new_page()
    page.goto(f"/t/{scene.slug}/classement/?maj=0.3")
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    page.evaluate("() => { window.notReloaded = true; }")
    control = page.locator("[data-live-control]")
    expect(control).to_be_visible()
    pause = control.locator("button")
    expect(pause).to_have_text(fr("Pause updates"))
    before = totals_shown(page)

    # The reader pauses (keyboard): a table finishes, the figures they are reading stay put.
    pause.focus()
    page.keyboard.press("Enter")
    expect(pause).to_have_text(fr("Resume updates"))
    expect(control.locator("[role=status]")).to_have_text(fr("Updates paused."))
    finish_table(Table.objects.get(pk=scene.penalty_table))
    tournament.refresh_from_db()
    expected = [str(s.total) for s in standings_data(tournament).standings()]
    assert expected != before, "the table's deals change the standings"
    page.wait_for_timeout(1200)
    assert totals_shown(page) == before
    shot(page, "paused")

    # Resumed: the new figures come in place, without a reload; the status line says when.
    page.keyboard.press("Enter")
    expect(pause).to_have_text(fr("Pause updates"))
    page.wait_for_function(
        "(expected) => JSON.stringify(Array.from("
        f"document.querySelectorAll('{INDIVIDUAL_TOTALS}'),"
        " (td) => td.innerText.trim())) === JSON.stringify(expected)",
        arg=expected,
    )
    assert page.evaluate("() => window.notReloaded === true"), "the page was reloaded"
    expect(control.locator("[role=status]")).to_contain_text(fr("Updated at"))
    shot(page, "updated")


def test_an_open_deal_stays_open_when_a_players_page_updates(phone):
    scene = build_scene()
    page = phone.new_page()
    page.goto(f"/t/{scene.slug}/joueur/{scene.registration}/?maj=0.3")
    first = page.locator("ol.deals details").first
    first.locator("summary").click()
    expect(first).to_have_attribute("open", "")
    page.evaluate("() => { window.notReloaded = true; }")
    deals = page.locator("ol.deals li").count()
    finish_table(Table.objects.get(pk=scene.penalty_table))
    # The player's table now shows every deal: the page grew, the open deal is still open.
    page.wait_for_function(
        "(before) => document.querySelectorAll('ol.deals li').length > before",
        arg=deals,
        timeout=30_000,  # a few refreshes of 0.3 s, however busy the machine
    )
    expect(page.locator("ol.deals details").first).to_have_attribute("open", "")
    assert page.evaluate("() => window.notReloaded === true")


def test_the_referees_round_page_follows_the_tables_and_can_be_paused(page, shot):
    """The referee watches round 2 from the laptop: a table finishing shows up in place; paused,
    the page holds still while the referee reads it."""
    from tests.scene import REFEREE

    from .helpers import login

    scene = build_scene()
    table = Table.objects.get(pk=scene.penalty_table)
    login(page, *REFEREE)
    page.goto(f"/t/{scene.slug}/gestion/position/{table.round.number}/?maj=0.3")
    page.evaluate("() => { window.notReloaded = true; }")
    row = page.locator("#tables tbody tr").nth(table.number - 1)
    expect(row).to_contain_text(fr("In progress"))
    pause = page.locator("[data-live-control] button")
    pause.click()
    expect(pause).to_have_text(fr("Resume updates"))
    finish_table(table)
    page.wait_for_timeout(1200)
    expect(row).to_contain_text(fr("In progress"))
    shot(page, "paused")

    pause.click()
    expect(row).to_contain_text(fr("Complete"))
    assert page.evaluate("() => window.notReloaded === true"), "the page was reloaded"

"""A deal saved at a table shows within 5 s on the phones open on the public pages (390 × 844)
and on the room's TV (1920 × 1080), at their own pace: no ``?maj=`` in the address, the pages
poll every 4 s and an unchanged page costs a 304. The waits below are generous (15 s) for a busy
CI machine: the 4 s are the pages' own setting, checked on the page."""

from __future__ import annotations

import random

import pytest

from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.engine.table import active_positions
from scoring.models import ScoreSheet
from scoring.services import Actor, deal_record
from scoring.standings import standings_data
from tests.scene import build_scene, finish_table
from tournaments.models import Seat, Table, Tournament

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15_000


def save_one_deal(table: Table) -> None:
    """North saves the table's next deal."""
    tournament = table.round.tournament
    size = table.seats.count()
    sheet = ScoreSheet.objects.get(table=table)
    deal_record(
        sheet=sheet,
        number=sheet.deals.count() + 1,
        kind="played",
        deal=random_legal_deal(
            random.Random(5), len(active_positions(size, 0)), get_rule_set(tournament.rule_set)
        ),
        actor=Actor.table(page="test"),
    )


def test_a_deal_saved_shows_on_open_phones_and_on_the_tv_within_seconds(phone_at, page):
    scene = build_scene()
    tournament = Tournament.objects.get(slug=scene.slug)
    table = Table.objects.get(pk=scene.penalty_table)
    player = Seat.objects.filter(table=table).order_by("position").first().registration_id
    phone = phone_at(390, 844)
    own = phone.new_page()
    own.goto(f"/t/{scene.slug}/joueur/{player}/")
    standings = phone.new_page()
    standings.goto(f"/t/{scene.slug}/classement/")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/t/{scene.slug}/ecran/")
    page.wait_for_function("() => document.querySelector('.tv').dataset.pages")
    for opened in (own, standings, page):
        assert opened.locator("[data-live-control]").get_attribute("data-live-seconds") == "4"
        opened.evaluate("() => { window.notReloaded = true; }")
    deals = own.locator("ol.deals").first.locator("li")
    before = deals.count()

    # One deal: the player's phone shows it.
    save_one_deal(table)
    expect(deals).to_have_count(before + 1, timeout=WAIT_MS)

    # The table's last deals: the standings move on the phone and on the TV.
    finish_table(table)
    tournament.refresh_from_db()
    data = standings_data(tournament)
    leader = data.standings()[0]
    mine = data.standing_of(player)
    expect(
        standings.locator(
            "table.standings:not(.teams) tbody tr", has_text=leader.entry.name
        ).first.locator("td.strong")
    ).to_have_text(str(leader.total), timeout=WAIT_MS)
    expect(page.locator(f".tv-row[data-id='{leader.entry.id}'] .tv-total")).to_have_text(
        str(leader.total), timeout=WAIT_MS
    )
    expect(page.locator(f".tv-row[data-id='{player}'] .tv-total")).to_have_text(
        str(mine.total), timeout=WAIT_MS
    )
    expect(page.locator(".tv-status")).not_to_contain_text(f"{table.number}, ", timeout=WAIT_MS)
    for opened in (own, standings, page):
        assert opened.evaluate("() => window.notReloaded === true"), "a page was reloaded"

"""A timed round on the day: the referee calls time from the round page on a phone
(390 × 844), after a confirming step; North's phone then shows the table stopped where it was
(« temps écoulé »), with no deal entry left and the sheet ready to sign."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.engine import Contract, Deal
from scoring.services import Actor, deal_record
from tests.scoring.test_timed_rounds import timed_tournament
from tournaments.models import Round

from .helpers import SHEET_DEAL_ROWS, horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE = Actor.table(page="test")
GARDE = Deal(players=4, taker=1, contract=Contract.GARDE, oudlers=2, points=Decimal(49))


def _timed_round():
    """A timed tournament of 8 players (see the service tests), its round 1 seated, table 2
    two deals in, and its referee ``arbitre``."""
    tournament, round_, _referee, _first, second = timed_tournament()
    for number in (1, 2):
        deal_record(sheet=second, number=number, kind="played", deal=GARDE, actor=TABLE)
    return tournament, round_, second


def test_the_referee_calls_time_and_north_sees_the_table_stop(phone_at, shot):
    tournament, round_, sheet = _timed_round()
    referee = phone_at(390, 844).new_page()
    login(referee, "arbitre", "pw-arbitre-1")
    referee.goto(f"/t/{tournament.slug}/gestion/position/1/")
    button = referee.locator("#call-time button")
    # One tap is not enough to stop every table: the button sits behind a confirming step.
    expect(button).to_be_hidden()
    referee.locator("details.call-time summary").tap()
    expect(referee.locator("#call-time")).to_contain_text("ne peut pas être annulé")
    for control in (referee.locator("details.call-time summary"), button):
        box = control.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    shot(referee, "before-calling-time")
    with referee.expect_navigation():
        button.tap()
    expect(referee.locator("#time-called")).to_contain_text("Temps écoulé à")
    expect(referee.locator("#call-time")).to_have_count(0)
    assert Round.objects.get(pk=round_.pk).time_called_at is not None
    assert horizontal_overflow(referee) <= 0
    shot(referee, "time-called")

    north = phone_at(390, 844).new_page()
    north.goto(f"/table/{sheet.token}/")
    expect(north.locator("#time-up")).to_have_text("temps écoulé")
    expect(north.locator("#sheet-count")).to_contain_text("2 sur 5")
    expect(north.locator(SHEET_DEAL_ROWS)).to_have_count(2)
    expect(north.locator("#queue-complete")).to_have_text(
        "Temps écoulé : cette table s'arrête après 2 donnes."
    )
    expect(north.locator("tr.deals-played")).to_contain_text("jouées")
    # No deal can be added any more; the players sign what they played.
    expect(north.locator("#entry")).to_have_count(0)
    expect(north.locator("#sign")).to_be_visible()
    shot(north, "north-after-time")

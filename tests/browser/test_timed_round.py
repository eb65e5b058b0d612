"""A timed round on the day: the referee calls time from the round page on a phone
(390 × 844), after a confirming step; North's phone then shows the table stopped where it was
(« temps écoulé »), with no deal entry left and the sheet ready to sign."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from scoring.engine import Contract, Deal
from scoring.models import ScoreSheet
from scoring.services import Actor, deal_record
from tournaments import services
from tournaments.models import Round, StaffMember

from .helpers import SHEET_DEAL_ROWS, horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE = Actor.table(page="test")
GARDE = Deal(players=4, taker=1, contract=Contract.GARDE, oudlers=2, points=Decimal(49))


def _timed_round():
    tournament = services.tournament_create(
        created_by=None,
        name="Tournoi en 60 minutes",
        date=date.today(),
        rounds=2,
        deals_per_round=5,
        timed_rounds=True,
        seed=3,
    )
    for i in range(8):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:02d}", first_name="Ève"),
            present=True,
        )
    round_ = services.round_seat_next(tournament=tournament)
    _first, second = ScoreSheet.objects.filter(table__round=round_).order_by("table__number")
    for number in (1, 2):
        deal_record(sheet=second, number=number, kind="played", deal=GARDE, actor=TABLE)
    referee = get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
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

"""North's phone left open on the table page while the room moves on (390 × 844).

The referee calls time, closes the round, or the players sign, while North has the page open:
the page shows it by itself within its refresh interval (the form gone, the true sentence in its
place), and a deal saved late (or sent from the queue after a Wi-Fi drop) is not recorded and
gets that same sentence, never « Les 4 donnes de cette table sont enregistrées. »
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.engine import Contract, Deal
from scoring.models import Deal as StoredDeal
from scoring.services import Actor, deal_record, round_call_time, sheet_sign_on_paper
from tests.scoring.test_timed_rounds import timed_tournament
from tournaments import services as tournament_services

from .helpers import SHEET_DEAL_ROWS, fr
from .test_offline_queue import PAGE_QUEUE_ONLY, back_online, type_deal

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE = Actor.table(page="test")
GARDE = Deal(players=4, taker=1, contract=Contract.GARDE, oudlers=2, points=Decimal(49))
TIME_UP = "Temps écoulé : cette table s'arrête après 2 donnes."
THIRD = (2, Contract.PETITE, 1, 55)  # (taker, contract, oudlers, points) typed as deal 3


def _two_deals_in(deals: int | None = None):
    """Table 2 of a timed round of 5 deals, 2 deals in (``deals``: that many instead)."""
    _tournament, round_, referee, _first, sheet = timed_tournament()
    for number in range(1, (deals or 2) + 1):
        deal_record(sheet=sheet, number=number, kind="played", deal=GARDE, actor=TABLE)
    return round_, Actor.staff(referee, page="test"), sheet


def _north(context, sheet, query: str = ""):
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/{query}")
    return page


def _stored(sheet) -> list[int]:
    return list(StoredDeal.objects.filter(sheet=sheet).values_list("number", flat=True))


def test_the_open_page_shows_time_called_by_itself_and_hides_the_form(phone_at, shot):
    round_, referee, sheet = _two_deals_in()
    north = _north(phone_at(390, 844), sheet, "?maj=1")
    expect(north.locator("#entry")).to_be_visible()
    round_call_time(round_=round_, actor=referee)
    # Nobody touches the phone: within its refresh interval it says the table stopped.
    expect(north.locator("#queue-complete")).to_have_text(TIME_UP, timeout=10_000)
    expect(north.locator("#queue-complete")).to_be_visible()
    expect(north.locator("#entry")).to_have_count(0)
    expect(north.locator("#time-up")).to_have_text("temps écoulé")
    expect(north.locator("#sheet-count")).to_contain_text("2 sur 5")
    expect(north.locator("#sign")).to_be_visible()
    shot(north, "time-called-by-itself")


def test_a_deal_saved_after_time_was_called_gets_the_same_sentence(phone_at, shot):
    round_, referee, sheet = _two_deals_in()
    north = _north(phone_at(390, 844), sheet)  # refreshes every 15 s: the save comes first
    expect(north.locator("#entry")).to_be_visible()
    round_call_time(round_=round_, actor=referee)
    type_deal(north, *THIRD)
    stopped = north.locator("#queue-status li.queue-stopped")
    expect(stopped).to_contain_text("Donne 3")
    expect(stopped).to_contain_text(fr("not recorded"))
    expect(stopped.locator(".queue-message")).to_have_text(TIME_UP)
    expect(north.locator("#queue-complete")).to_have_text(TIME_UP)
    expect(north.locator("#entry")).to_have_count(0)
    expect(north.locator("#queue-status")).not_to_contain_text("enregistrées")
    assert _stored(sheet) == [1, 2]
    shot(north, "late-save")


def test_a_deal_waiting_offline_while_time_was_called_gets_the_same_sentence(phone_at, shot):
    round_, referee, sheet = _two_deals_in()
    context = phone_at(390, 844, service_workers=PAGE_QUEUE_ONLY)
    north = _north(context, sheet)
    expect(north.locator("#entry")).to_be_visible()
    context.set_offline(True)
    type_deal(north, *THIRD)
    expect(north.locator("#queue-status li.queue-waiting")).to_contain_text("Donne 3")
    round_call_time(round_=round_, actor=referee)
    back_online(context, north)
    stopped = north.locator("#queue-status li.queue-stopped")
    expect(stopped.locator(".queue-message")).to_have_text(TIME_UP, timeout=30_000)
    expect(north.locator("#queue-complete")).to_have_text(TIME_UP)
    expect(north.locator("#entry")).to_have_count(0)
    assert _stored(sheet) == [1, 2]
    shot(north, "offline-late-save")


def test_the_open_page_shows_the_round_closed_by_itself_and_a_late_save_says_so(phone_at, shot):
    round_, _referee, sheet = _two_deals_in()
    context = phone_at(390, 844)
    watching = _north(context, sheet, "?maj=1")
    typing = _north(context, sheet)  # a second tab, saved before its next refresh
    expect(typing.locator("#entry")).to_be_visible()
    tournament_services.round_close(round_=round_, reason="fin de la position")
    expect(watching.locator("#round-closed")).to_contain_text(
        "Cette position est clôturée", timeout=10_000
    )
    expect(watching.locator("#entry")).to_have_count(0)
    shot(watching, "round-closed-by-itself")
    type_deal(typing, *THIRD)
    message = typing.locator("#queue-status li.queue-stopped .queue-message")
    expect(message).to_have_text(
        fr("Round %(number)d is closed: a referee must reopen it before any change.")
        % {"number": 1}
    )
    expect(typing.locator("#round-closed")).to_be_visible()
    expect(typing.locator("#entry")).to_have_count(0)
    assert _stored(sheet) == [1, 2]


def test_the_open_correction_goes_when_the_sheet_is_signed_meanwhile(phone_at, shot):
    _round, referee, sheet = _two_deals_in(deals=5)
    context = phone_at(390, 844)
    watching = _north(context, sheet, "?donne=2&maj=1")
    typing = _north(context, sheet, "?donne=2")
    for page in (watching, typing):
        expect(page.locator("#entry [data-slot=title]")).to_contain_text("2")
    sheet_sign_on_paper(sheet=sheet, actor=referee)
    signed = fr(
        "This sheet is signed: its deals can no longer be changed from this phone. Ask the "
        "referee if something is wrong."
    )
    expect(watching.locator("#sheet-locked")).to_have_text(signed, timeout=10_000)
    expect(watching.locator("#entry")).to_have_count(0)
    shot(watching, "signed-by-itself")
    typing.locator("#entry input[name=points]").fill("60")
    typing.locator("#entry button.primary").tap()
    message = typing.locator("#queue-status li.queue-stopped .queue-message")
    expect(message).to_have_text(
        fr("This sheet is signed and locked: ask the referee for any correction.")
    )
    expect(typing.locator("#sheet-locked")).to_have_text(signed)
    expect(typing.locator(SHEET_DEAL_ROWS)).to_have_count(5)
    assert StoredDeal.objects.get(sheet=sheet, number=2).points == Decimal(49)


def test_without_a_signature_the_page_keeps_its_form(phone_at):
    """The refresh changes nothing while the sheet still takes deals (the form stays, typed
    choices kept)."""
    _round, _referee, sheet = _two_deals_in()
    north = _north(phone_at(390, 844), sheet, "?maj=1")
    north.locator("#entry input[name=taker][value='2'] + label").tap()
    north.wait_for_timeout(2500)  # two refreshes
    expect(north.locator("#entry [data-slot=title]")).to_contain_text("Donne 3")
    expect(north.locator("#entry input[name=taker][value='2']")).to_be_checked()

"""Nothing lost when the club's Wi-Fi drops: North's deals wait on the phone until the server has
confirmed them, then go in order, each exactly once.

- Offline mode (Playwright's, which cuts the service worker's requests too): two deals typed,
  the page reloaded while offline (the service worker serves it on localhost, a secure
  context), back online: both stored once, in order, with the right scores.
- The room's server (``make club``'s command, gunicorn) stopped and restarted instead.
- On the room's plain http:// address (no secure context: no service worker, no
  crypto.randomUUID) deals typed while the server is down wait in localStorage and go when the
  page is opened again.
- A lost answer: the server recorded the deal but the phone never heard; the resend is
  answered with the stored deal, not recorded twice.
- A conflict: the referee entered the deal meanwhile; North sees it, nothing is overwritten.
"""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import ngettext
from playwright.sync_api import Error as PlaywrightError

from scoring.engine import Contract
from scoring.models import Deal as StoredDeal
from scoring.services import deal_record
from tarot_club.club import room_addresses

from .helpers import INPUT_COUNTER, SHEET_DEAL_ROWS, input_counts, reset_input_counts
from .room import RoomServer, free_port
from .test_north_phone import TABLE, engine_scores, table_of_four, typical_deal

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (taker, contract, oudlers, points) of the deals North types while the network is down.
DEALS = [(1, Contract.GARDE, 2, 47), (3, Contract.PETITE, 1, 55)]


def type_deal(page, taker, contract, oudlers, points) -> None:
    entry = page.locator("#entry")
    for name, value in (("taker", taker), ("contract", contract.value), ("oudlers", oudlers)):
        entry.locator(f"input[name={name}][value='{value}'] + label").tap()
    entry.locator("input[name=points]").fill(str(points))
    entry.locator("button.primary").tap()


def pending_text(n: int) -> str:
    """« 2 donnes en attente d'envoi »."""
    with translation.override("fr"):
        return ngettext("%(n)s deal waiting to be sent", "%(n)s deals waiting to be sent", n) % {
            "n": n
        }


def type_two_deals_while_down(page, shot, label: str) -> None:
    for index, deal in enumerate(DEALS):
        type_deal(page, *deal)
        expect(page.locator("#queue-status")).to_contain_text(pending_text(index + 1))
        # The form moved on to the next deal at once.
        expect(page.locator("#entry [data-slot=title]")).to_contain_text(str(index + 2))
    shot(page, f"{label}-two-waiting")


def assert_stored_once_in_order(sheet) -> None:
    deals = list(StoredDeal.objects.filter(sheet=sheet).order_by("number"))
    assert [(d.number, d.taker, d.contract, d.oudlers, int(d.points)) for d in deals] == [
        (number, taker, contract.value, oudlers, points)
        for number, (taker, contract, oudlers, points) in enumerate(DEALS, start=1)
    ]
    assert [d.scores for d in deals] == [engine_scores(*deal) for deal in DEALS]
    assert all(d.entry_key for d in deals)
    assert [d.version for d in deals] == [1] * len(DEALS)  # a deal sent twice is not rewritten


#: The tests of the page's own queue run without the service worker: once it controls the
#: page, its requests escape the browser's offline switch and the test's routes (Chromium), so
#: what the test cuts would depend on whether it installed in time.
PAGE_QUEUE_ONLY = "block"


def back_online(context, page) -> None:
    """The network comes back. Chromium may tell the page itself (its ``online`` event) or not:
    the test tells it too, unless the page has already moved on (sent its queue, reloaded)."""
    context.set_offline(False)
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as error:
        if "Execution context was destroyed" not in str(error):
            raise


def wait_until_sent(page) -> None:
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(len(DEALS), timeout=30_000)
    expect(page.locator("#queue-status")).not_to_contain_text(pending_text(1))
    expect(page.locator("#queue-status")).not_to_contain_text(pending_text(2))


def test_deals_typed_offline_survive_a_reload_and_go_once_in_order(phone_at, shot):
    sheet = table_of_four()
    context = phone_at(390, service_workers="allow")
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    assert page.evaluate("window.isSecureContext")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        "caches.open('tarot-table-v1').then(c => c.match(location.pathname)).then(Boolean)"
    )
    context.set_offline(True)  # (the service worker's own requests are cut too)
    type_two_deals_while_down(page, shot, "offline")
    page.reload()  # offline: the service worker serves the last copy of the page
    expect(page.locator("#queue-status")).to_contain_text(pending_text(2))
    expect(page.locator("#entry [data-slot=title]")).to_contain_text("3")
    shot(page, "offline-reloaded")
    # Chromium's offline switch does not always hold back the service worker's own requests:
    # a deal may reach the server while its answer never reaches the page, as when the room's
    # Wi-Fi drops mid-request. The page still holds it as pending and sends it again with the
    # same key once back online; it is stored once (below). The test with the server really
    # stopped (next) checks that nothing arrives while it is down.
    stored = list(StoredDeal.objects.filter(sheet=sheet).values_list("number", flat=True))
    assert stored in ([], [1], [1, 2]), stored
    back_online(context, page)
    wait_until_sent(page)
    shot(page, "offline-back-online")
    assert_stored_once_in_order(sheet)


@pytest.fixture
def room(tmp_path_factory):
    servers = []

    def make(port: int | None = None) -> RoomServer:
        root = tmp_path_factory.mktemp("room")
        server = RoomServer(port or free_port(), root / "static", root / "server.log")
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


def test_deals_typed_while_the_server_is_down_go_once_in_order_after_a_restart(
    phone_at, room, shot
):
    sheet = table_of_four()
    server = room().start()
    context = phone_at(390, base_url=f"http://127.0.0.1:{server.port}")
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        "caches.open('tarot-table-v1').then(c => c.match(location.pathname)).then(Boolean)"
    )
    server.stop()
    type_two_deals_while_down(page, shot, "stopped")
    page.reload()  # the server is down: the service worker serves the last copy
    expect(page.locator("#queue-status")).to_contain_text(pending_text(2))
    assert not StoredDeal.objects.filter(sheet=sheet).exists()
    server.start()
    wait_until_sent(page)
    shot(page, "restarted")
    assert_stored_once_in_order(sheet)


def test_on_the_rooms_plain_http_address_the_deals_wait_for_the_page_to_open_again(
    phone_at, room, shot
):
    addresses = room_addresses()
    if not addresses:
        pytest.skip("this machine has no network address other than loopback")
    sheet = table_of_four()
    server = room().start()
    context = phone_at(390, base_url=f"http://{addresses[0]}:{server.port}")
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    # A club room: no secure context, so no service worker and no crypto.randomUUID.
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("typeof crypto.randomUUID") == "undefined"
    assert page.evaluate("'serviceWorker' in navigator") is False
    server.stop()
    type_two_deals_while_down(page, shot, "room")
    page.close()  # North puts the phone away; the deals stay in localStorage
    server.start()
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    wait_until_sent(page)
    shot(page, "room-sent")
    assert_stored_once_in_order(sheet)


def test_a_lost_answer_is_resent_and_recorded_once(phone_at):
    sheet = table_of_four()
    context = phone_at(390, service_workers=PAGE_QUEUE_ONLY)
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    lost = []

    def lose_the_answer(route):
        # The server receives and records the deal; the phone never hears back (the Wi-Fi
        # dropped during the answer).
        if not lost:
            route.fetch()
            lost.append(route.request.post_data)
            route.abort("connectionreset")
        else:
            route.fallback()

    page.route("**/donne/", lose_the_answer)
    type_deal(page, *DEALS[0])
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(1, timeout=30_000)
    assert lost, "the first answer was not lost"
    deals = list(StoredDeal.objects.filter(sheet=sheet))
    assert [(d.number, d.scores) for d in deals] == [(1, engine_scores(*DEALS[0]))]
    assert deals[0].version == 1


def test_a_deal_the_referee_entered_meanwhile_is_a_conflict_shown_to_north(phone_at, shot):
    sheet = table_of_four()
    context = phone_at(390, service_workers=PAGE_QUEUE_ONLY)
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    context.set_offline(True)
    type_deal(page, *DEALS[0])
    expect(page.locator("#queue-status")).to_contain_text(pending_text(1))
    from decimal import Decimal

    from scoring.engine import Deal

    referee_deal = Deal(players=4, taker=0, contract=Contract.GARDE, oudlers=3, points=Decimal(60))
    deal_record(sheet=sheet, number=1, kind="played", deal=referee_deal, actor=TABLE)
    back_online(context, page)
    conflict = page.locator("#queue-status li.queue-conflict")
    expect(conflict).to_be_visible(timeout=30_000)
    expect(conflict).to_contain_text("1")
    shot(page, "conflict")
    (deal,) = StoredDeal.objects.filter(sheet=sheet)
    assert (deal.taker, deal.oudlers, deal.points) == (0, 3, 60)  # not overwritten
    conflict.locator("button[data-action=discard]").tap()
    expect(page.locator("#queue-status li.queue-conflict")).to_have_count(0)


def test_at_a_table_of_five_the_next_deal_offline_shows_who_plays_it(phone_at, shot):
    """The dealer sits out at a table of 5: deal 1 is played by East..Fifth (North deals),
    deal 2 by North, South, West, Fifth (East deals). Typed offline, each form shows the right
    four, and each deal is stored with the taker North tapped."""
    names = [*NAMES_FIVE]
    sheet = table_of_four(names)
    assert sheet.table.seats.count() == 5
    context = phone_at(390, service_workers=PAGE_QUEUE_ONLY)
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    context.set_offline(True)
    seats = page.locator("#entry fieldset[data-field=taker] label .seat-name")
    expect(seats).to_have_text(["É. Leroy", "C. Dubois", "J. Thomas", "H. Moreau"])
    type_deal(page, 0, Contract.GARDE, 2, 47)  # Élodie Leroy (East) takes deal 1
    expect(page.locator("#entry [data-slot=title]")).to_contain_text("2")
    expect(page.locator("#entry [data-slot=dealer]")).to_have_text("Élodie Leroy")
    expect(seats).to_have_text(["L. Martin", "C. Dubois", "J. Thomas", "H. Moreau"])
    type_deal(page, 0, Contract.PETITE, 1, 55)  # Léa Martin (North) takes deal 2
    shot(page, "five-offline")
    back_online(context, page)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(2, timeout=30_000)
    deals = list(StoredDeal.objects.filter(sheet=sheet).order_by("number"))
    assert [(d.number, d.dealer, d.taker) for d in deals] == [(1, 0, 1), (2, 1, 0)]
    assert deals[1].scores[1] == 0  # East dealt deal 2 and sat it out


NAMES_FIVE = [
    ("Martin", "Léa"),
    ("Leroy", "Élodie"),
    ("Dubois", "Chloé"),
    ("Thomas", "Jules"),
    ("Moreau", "Hugo"),
]


def test_a_deal_waiting_while_the_cookies_were_lost_still_goes_with_a_fresh_token(phone_at):
    """The CSRF cookie went (the phone cleared its cookies): the first send is refused (403);
    the queue fetches the page again for a new token and cookie, and sends the deal once."""
    sheet = table_of_four()
    context = phone_at(390, service_workers=PAGE_QUEUE_ONLY)
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    context.set_offline(True)
    type_deal(page, *DEALS[0])
    expect(page.locator("#queue-status")).to_contain_text(pending_text(1))
    context.clear_cookies()
    refused = []
    page.on("response", lambda r: r.status == 403 and refused.append(r.url))
    back_online(context, page)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(1, timeout=30_000)
    assert refused, "the stale token was not refused: the test proves nothing"
    assert [d.number for d in StoredDeal.objects.filter(sheet=sheet)] == [1]


def test_while_deals_wait_the_next_deal_still_needs_no_scrolling(phone_at, shot):
    """A Wi-Fi drop does not cost North the short entry: with up to four deals waiting (more
    than two fold into one line) and after the network's return, with the deals confirmed, the
    next deal's seat, contract and oudlers buttons and its save button are all on a 390 × 844
    screen, without scrolling. The status
    says in French what waits (« elle reste » for one deal, « elles restent » for two) and,
    once sent, which deals were confirmed."""
    sheet = table_of_four(deals=6)
    context = phone_at(390, 844, service_workers=PAGE_QUEUE_ONLY)
    page = context.new_page()
    page.add_init_script(INPUT_COUNTER)
    page.goto(f"/table/{sheet.token}/")
    reset_input_counts(page)
    context.set_offline(True)
    typed = [
        (1, Contract.GARDE, 2, 47),
        (3, Contract.PETITE, 1, 55),
        (2, Contract.GARDE, 1, 60),
        (1, Contract.PETITE, 2, 45),
    ]
    notes = [offline_note(1), offline_note(2)]
    for index, deal in enumerate(typed):
        typical_deal(page, page.locator("#entry"), *deal)
        expect(page.locator("#queue-status .queue-count")).to_have_text(pending_text(index + 1))
        if index < len(notes):
            expect(page.locator("#queue-status .queue-note")).to_contain_text(notes[index])
    # Four waiting: the three earlier ones fold into one line, the status keeps two lines.
    lines = page.locator("#queue-status li.queue-waiting")
    expect(lines).to_have_count(2)
    with translation.override("fr"):
        deal = translation.gettext("Deal %(n)s")
        expect(lines.first).to_have_text(f"{deal % {'n': 1}} – {deal % {'n': 3}}")
        expect(lines.nth(1)).to_contain_text(deal % {"n": 4})
    shot(page, "four-waiting")
    back_online(context, page)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(4, timeout=30_000)
    saved = page.locator("#queue-status li.queue-saved")
    expect(saved).to_have_count(4)
    with translation.override("fr"):
        for number in (1, 2, 3, 4):
            expect(saved.nth(number - 1)).to_contain_text(
                translation.gettext("Deal %(n)s saved") % {"n": number}
            )
    typical_deal(page, page.locator("#entry"), 0, Contract.GARDE_SANS, 2, 50)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(5, timeout=30_000)
    shot(page, "after-the-drop")
    counts = input_counts(page)
    assert counts["scrolled"] == 0, counts
    assert counts["taps"] == 4 * len([*typed, None]), counts
    deals = list(StoredDeal.objects.filter(sheet=sheet).order_by("number"))
    expected = [*typed, (0, Contract.GARDE_SANS, 2, 50)]
    assert [(d.number, d.taker) for d in deals] == [(n, e[0]) for n, e in enumerate(expected, 1)]
    assert [d.scores for d in deals] == [engine_scores(*e) for e in expected]


def offline_note(n: int) -> str:
    """« pas de réseau : elle reste sur ce téléphone... » (one deal) or « elles restent » (more)."""
    with translation.override("fr"):
        return ngettext(
            "no network: it stays on this phone and goes as soon as it is back.",
            "no network: they stay on this phone and go as soon as it is back.",
            n,
        )


def test_a_deal_confirmed_while_north_types_the_next_one_moves_the_form_on(phone_at, shot):
    """On a slow Wi-Fi the answer for deal 1 comes while North is already typing deal 2 (the
    page then keeps the form and does not reload). If the network drops at that moment, the
    deals typed next are still numbered 2 and 3 (before: the form went back to « Donne 1 »,
    and the deal typed then came back as a conflict)."""
    sheet = table_of_four()
    context = phone_at(390, service_workers=PAGE_QUEUE_ONLY)
    page = context.new_page()
    page.goto(f"/table/{sheet.token}/")
    held = []
    page.route("**/donne/", lambda route: held.append(route) if not held else route.fallback())
    type_deal(page, *DEALS[0])
    entry = page.locator("#entry")
    expect(entry.locator("[data-slot=title]")).to_contain_text("2")
    entry.locator(f"input[name=taker][value='{DEALS[1][0]}'] + label").tap()  # typing deal 2
    page.wait_for_function("document.querySelector('#queue-status li') !== null")
    assert len(held) == 1
    held[0].fallback()  # deal 1's answer arrives now
    saved = page.locator("#queue-status li.queue-saved")
    expect(saved).to_have_count(1)
    context.set_offline(True)  # ...and the Wi-Fi drops
    _taker, contract, oudlers, points = DEALS[1]
    for name, value in (("contract", contract.value), ("oudlers", oudlers)):
        entry.locator(f"input[name={name}][value='{value}'] + label").tap()
    entry.locator("input[name=points]").fill(str(points))
    entry.locator("button.primary").tap()
    expect(page.locator("#queue-status .queue-count")).to_have_text(pending_text(1))
    expect(entry.locator("[data-slot=title]")).to_contain_text("3")
    shot(page, "third-deal-offline")
    third = (0, Contract.GARDE_SANS, 2, 50)
    type_deal(page, *third)
    expect(page.locator("#queue-status .queue-count")).to_have_text(pending_text(2))
    back_online(context, page)
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(3, timeout=30_000)
    deals = list(StoredDeal.objects.filter(sheet=sheet).order_by("number"))
    assert [(d.number, d.taker) for d in deals] == [(1, 1), (2, 3), (3, 0)]
    assert [d.scores for d in deals] == [engine_scores(*d) for d in (*DEALS, third)]
    expect(page.locator("#queue-status li.queue-conflict")).to_have_count(0)

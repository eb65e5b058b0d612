"""``make club`` in a club room: the laptop serves the phones on its own network address.

The test starts the room's server exactly as ``make club`` does (``manage.py serve_club`` with
``DJANGO_LOCAL_SERVER=1``, no secret key, no debug), on the test database, then:

- reads the banner: the address phones open, and a QR code of it that decodes to it;
- opens a table link through a non-loopback address of this machine, as a phone on the Wi-Fi
  would, and saves a deal with it;
- as the referee on the laptop itself (http://127.0.0.1), finds the room's address (not
  127.0.0.1) in the table link of the sheet and on the printed table cards.
"""

from __future__ import annotations

import io
import urllib.request

import pytest
import segno
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from pypdf import PdfReader

from scoring.models import Deal as StoredDeal
from tarot_club.club import room_addresses
from tests.ops.test_club import matrix_of_terminal_qr
from tournaments.models import StaffMember

from .helpers import SHEET_DEAL_ROWS
from .room import RoomServer, free_port
from .test_north_phone import engine_scores, table_of_four
from .test_offline_queue import type_deal

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(tmp_path):
    if not room_addresses():
        pytest.skip("this machine has no network address other than loopback")
    server = RoomServer(free_port(), tmp_path / "static", tmp_path / "server.log")
    server.start()
    yield server
    server.stop()


def test_make_club_serves_the_table_links_on_the_rooms_address(server, phone_at, page, shot):
    from scoring.engine import Contract

    sheet = table_of_four()
    address = room_addresses()[0]
    room = f"http://{address}:{server.port}"

    # The banner: where phones go, and the same address as a QR code.
    banner = server.read_log()
    assert f"{room}/" in banner
    drawn = matrix_of_terminal_qr(banner)
    assert drawn == [
        [bool(bit & 1) for bit in row] for row in segno.make(f"{room}/", error="m").matrix
    ]

    # Through the laptop's address in the room, not 127.0.0.1: the server accepts it as a host.
    with urllib.request.urlopen(f"{room}/table/{sheet.token}/", timeout=10) as response:
        assert response.status == 200
    phone = phone_at(390, base_url=room).new_page()
    phone.goto(f"/table/{sheet.token}/")
    expect(phone.locator("#entry")).to_be_visible()
    type_deal(phone, 1, Contract.GARDE, 2, 47)
    expect(phone.locator(SHEET_DEAL_ROWS)).to_have_count(1, timeout=30_000)
    shot(phone, "room-phone")
    (deal,) = StoredDeal.objects.filter(sheet=sheet)
    assert deal.scores == engine_scores(1, Contract.GARDE, 2, 47)

    # The referee works on the laptop itself; what phones must open carries the room's address.
    tournament = sheet.table.round.tournament
    # (The room's server hashes passwords as in production, not with the tests' fast hasher.)
    referee = get_user_model().objects.create_user("arbitre")
    referee.password = PBKDF2PasswordHasher().encode("pw-arbitre-1", "sel-du-test-club")
    referee.save()
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    local = f"http://127.0.0.1:{server.port}"
    page.goto(f"{local}/connexion/")
    login_at(page, local)
    page.goto(f"{local}/t/{tournament.slug}/gestion/feuille/{sheet.table_id}/")
    page.locator("#referee-tools summary").click()
    link = page.locator("#referee-tools a[href^='http']")
    expect(link).to_have_attribute("href", f"{room}/table/{sheet.token}/")
    cards = page.request.get(
        f"{local}/t/{tournament.slug}/gestion/position/{sheet.table.round.number}/imprimer/cards.pdf"
    )
    assert cards.ok, cards.status
    # (The card prints the link under its QR code over several lines: read it without them.)
    text = "".join(
        "".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(cards.body())).pages
    )
    assert f"{address}:{server.port}/table/{sheet.token}" in text
    assert "127.0.0.1" not in text


def login_at(page, base: str) -> None:
    form = page.locator("main form")
    form.locator("input[name=username]").fill("arbitre")
    form.locator("input[name=password]").fill("pw-arbitre-1")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert "/connexion/" not in page.url, "login failed"

"""A player asks for a seat on a phone, keeps the private link the page gives, and follows the
request there: seat held, then refused by the organiser, in French, at 390 × 844 and 360 × 740."""

from __future__ import annotations

import pytest

from scoring.demo import create_demo_season
from tournaments.models import SeatRequest
from tournaments.services import seat_requests

from .helpers import fr
from .test_public_pages import assert_no_sideways_scroll

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMAIL = "lea.privee@example.org"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_the_requester_follows_the_request_by_its_private_link(phone_at, shot, width, height):
    demo = create_demo_season(tournaments=1, players=8, rounds=1, deals=1, seed=9)
    tournament = demo.upcoming
    page = phone_at(width, height).new_page()
    page.goto(f"/t/{tournament.slug}/inscription/")
    page.get_by_label(fr("Last name"), exact=True).fill("Garnier")
    page.get_by_label(fr("First name"), exact=True).fill("Léa")
    page.get_by_label(fr("E-mail (optional)")).fill(EMAIL)
    page.get_by_role("button", name=fr("Send my request")).click()
    link = page.locator("a.status-link")
    expect(link).to_be_visible()
    assert_no_sideways_scroll(page, "request recorded")
    shot(page, f"done-{width}")

    link.click()
    held = fr("%(name)s: a seat is held for you until the organiser confirms.") % {
        "name": "Léa Garnier"
    }
    expect(page.get_by_role("status")).to_have_text(held)
    assert EMAIL not in page.content()
    assert_no_sideways_scroll(page, "status")
    shot(page, f"held-{width}")

    seat_requests.request_refuse(seat_request=SeatRequest.objects.get(last_name="Garnier"))
    page.reload()
    refused = fr("%(name)s: refused by the organiser.") % {"name": "Léa Garnier"}
    expect(page.get_by_role("status")).to_have_text(refused)
    shot(page, f"refused-{width}")

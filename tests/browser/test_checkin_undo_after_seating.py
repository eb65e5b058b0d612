"""Issue 27: « Annuler tous présents » ends once a round is seated. The players page no longer
offers it, and an undo sent from a page left open is refused with a sentence, changing nobody
(390 × 844)."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Registration

from .helpers import fr, login
from .test_checkin import PASSWORD
from .test_checkin import tournament as tournament  # the fixture

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_undo_is_gone_once_a_round_is_seated(tournament, phone_at, shot):
    page = phone_at(390, 844).new_page()
    login(page, "orga", PASSWORD)
    page.goto(f"/t/{tournament.slug}/gestion/joueurs/")
    with page.expect_navigation():
        page.locator("form[action$='tous-presents/'] button").click()
    with page.expect_navigation():
        page.get_by_role("button", name=fr("Yes, everyone present")).click()
    undo = page.get_by_role("button", name=fr("Undo “everyone present”"))
    expect(undo).to_be_visible()

    # A referee seats round 1 from another device; this page is still open with the undo.
    services.round_seat_next(tournament=tournament, seed=3)
    with page.expect_navigation():
        undo.click()
    expect(page.locator("ul.messages li.error")).to_have_text(
        "Une position a été placée depuis « tous présents » : on ne peut plus l'annuler. "
        "Marquez un joueur absent ou forfait sur sa ligne."
    )
    assert set(Registration.objects.values_list("status", flat=True)) == {"present"}
    expect(page.get_by_role("button", name=fr("Undo “everyone present”"))).to_have_count(0)
    shot(page, "undo-refused")

    page.reload()
    expect(page.get_by_role("button", name=fr("Undo “everyone present”"))).to_have_count(0)

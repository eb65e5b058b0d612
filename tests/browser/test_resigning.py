"""Players sign again after a correction, seeing what changed (a phone, 390 × 844).

The four players signed; the referee then corrected deal 1 (45 → 47 points, with a reason).
Above the signature form the table link says which deal changed, from what to what, by whom and
why; it still says so to the players yet to sign again once one has; the referee's sheet page
keeps the first signatures as the sheet's history.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from scoring.engine import Contract, Deal
from scoring.models import Signature
from scoring.services import Actor, deal_record, sheet_sign_with_pin
from tournaments.models import StaffMember

from .helpers import fully_in_view, horizontal_overflow, login
from .test_north_phone import TABLE, table_of_four

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "erreur de comptage"


def _deal(points: int) -> Deal:
    return Deal(players=4, taker=1, contract=Contract.GARDE, oudlers=2, points=Decimal(points))


def _signed_then_corrected():
    sheet = table_of_four()
    for number in range(1, 5):
        deal_record(sheet=sheet, number=number, kind="played", deal=_deal(45), actor=TABLE)
    seats = list(sheet.table.seats.select_related("registration").order_by("position"))
    for seat in seats:
        sheet_sign_with_pin(
            sheet=sheet,
            registration=seat.registration,
            pin=seat.registration.pin,
            client="10.0.0.1",
            actor=TABLE,
        )
    referee = get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")
    StaffMember.objects.create(
        tournament=sheet.table.round.tournament, user=referee, role="referee"
    )
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=_deal(47),
        actor=Actor.staff(referee, page="test"),
        version=1,
        reason=REASON,
    )
    sheet.refresh_from_db()
    assert sheet.status == "amended"
    return sheet, seats


def test_players_see_what_changed_before_signing_again(phone_at, shot):
    sheet, seats = _signed_then_corrected()
    context = phone_at(390, 844)
    north = context.new_page()
    north.goto(f"/table/{sheet.token}/")
    changes = north.locator("#sign #resign-changes")
    expect(changes).to_be_visible()
    line = changes.locator("li")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Donne 1 corrigée par l’arbitre")
    expect(line).to_contain_text("45 → 47 points")
    expect(line).to_contain_text(f"(motif : {REASON})")
    # Read before the form: above it, on the screen once the signatures are in view.
    form = north.locator("#sign form")
    assert changes.bounding_box()["y"] < form.bounding_box()["y"]
    changes.scroll_into_view_if_needed()
    assert fully_in_view(north, changes), changes.bounding_box()
    assert horizontal_overflow(north) <= 0
    shot(north, "before-signing-again")

    # One player signs again: the others still see what they are signing.
    first = seats[0].registration
    north.locator("#sign select").select_option(str(first.pk))
    north.locator("#sign input[name=pin]").fill(first.pin)
    north.locator("#sign button.primary").tap()
    expect(north.locator(".messages")).to_contain_text("Signature")
    expect(north.locator("#resign-changes li")).to_contain_text("45 → 47 points")
    current = Signature.objects.filter(sheet=sheet, superseded_at__isnull=True)
    assert list(current.values_list("registration_id", flat=True)) == [first.pk]

    referee = context.new_page()
    login(referee, "arbitre", "pw-arbitre-1")
    referee.goto(f"/t/{sheet.table.round.tournament.slug}/gestion/feuille/{sheet.table_id}/")
    earlier = referee.locator("#earlier-signatures li")
    expect(earlier).to_have_count(1)
    expect(earlier).to_contain_text("Version 1 de la feuille")
    for seat in seats:
        expect(earlier).to_contain_text(seat.registration.full_name)
    shot(referee, "earlier-signatures")

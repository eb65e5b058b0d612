"""Issue 27, seen in a browser: the referee closes a round with an unsigned table, and time is
called before a table's first deal.

The closing form lists the unsigned table (« Table 2 : 2 donnes saisies sur 4 ») and says what
closing does; once closed, the player's page marks the round « non signée » and the standings
count its deals. A table stopped by time before its first deal reads « Temps écoulé : aucune
donne jouée » on the round page and on North's phone, not « Complète »."""

from __future__ import annotations

import pytest

from scoring.services import deal_record, round_call_time
from scoring.standings import standings_data
from tests.scoring.conftest import TABLE, legal, make_tournament, staff
from tests.scoring.test_timed_rounds import timed_tournament
from tests.scoring.test_unsigned_at_close import NO_DEAL, sign
from tournaments.models import Round, Seat, StaffMember

from .helpers import horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_closing_with_an_unsigned_table_says_what_it_does_and_keeps_its_deals(
    django_user_model, phone_at, shot
):
    referee = django_user_model.objects.create_user("arbitre", password="pw-arbitre-1")
    tournament, round_ = make_tournament(8)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    first, second = (t.sheet for t in round_.tables.order_by("number"))
    for number in range(1, 5):
        deal_record(sheet=first, number=number, kind="played", deal=legal(), actor=TABLE)
    sign(first)
    for number in (1, 2):
        deal_record(sheet=second, number=number, kind="played", deal=legal(taker=1), actor=TABLE)

    page = phone_at(390, 844).new_page()
    login(page, "arbitre", "pw-arbitre-1")
    page.goto(f"/t/{tournament.slug}/gestion/position/1/")
    unsigned = page.locator("#unsigned-tables")
    expect(unsigned.locator("li")).to_have_text(["Table 2 : 2 donnes saisies sur 4"])
    expect(unsigned).to_contain_text("garde chacune de ces feuilles au classement")
    expect(unsigned).to_contain_text("« non signée »")
    assert horizontal_overflow(page) <= 0
    form = page.locator("form[action$='/position/1/close/']")
    form.locator("[name=reason]").fill("Table 2 a abandonné")
    shot(page, "closing-form")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    expect(page.locator("ul.messages li.success")).to_be_visible()
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED

    seat = Seat.objects.filter(table=second.table).select_related("registration").first()
    player = phone_at(390, 844).new_page()
    player.goto(f"/t/{tournament.slug}/joueur/{seat.registration_id}/")
    expect(player.locator("section.card h2 .unsigned")).to_have_text("non signée")
    expect(player.locator("p.big strong").nth(1)).to_have_text(str(seat.points))
    assert standings_data(tournament).entry(seat.registration_id).rounds == {1: seat.points}
    shot(player, "player-unsigned")


def test_time_called_before_the_first_deal_reads_no_deal_played(phone_at, shot):
    tournament, round_, referee, first, second = timed_tournament()
    for number in (1, 2):
        deal_record(sheet=first, number=number, kind="played", deal=legal(), actor=TABLE)
    round_call_time(round_=round_, actor=staff(referee))

    page = phone_at(390, 844).new_page()
    login(page, "arbitre", "pw-arbitre-1")
    page.goto(f"/t/{tournament.slug}/gestion/position/1/")
    row = page.locator("#tables tbody tr").nth(1)
    expect(row.locator(".badge").first).to_have_text(NO_DEAL)
    expect(row).not_to_contain_text("Complète")
    shot(page, "round-page")

    north = phone_at(390, 844).new_page()
    north.goto(f"/table/{second.token}/")
    expect(north.locator("#queue-complete")).to_have_text(NO_DEAL)
    expect(north.locator("#time-up")).to_have_text(NO_DEAL)
    expect(north.locator("#entry")).to_have_count(0)
    shot(north, "north")

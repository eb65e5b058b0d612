"""The score sheet pages: the referee's and the table's private link."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.engine import Contract
from scoring.models import Deal, ScoreSheet
from scoring.services import deal_record

from .conftest import TABLE, legal, make_tournament

pytestmark = pytest.mark.django_db

DEAL = {
    "action": "deal",
    "number": "1",
    "kind": "played",
    "taker": "0",
    "contract": "garde",
    "oudlers": "2",
    "points": "49",
    "points_camp": "attack",
}


def table_url(sheet):
    return reverse("table_sheet", args=[sheet.token])


def test_north_enters_a_deal_through_the_table_link(seated, client):
    _, _, sheet = seated
    page = client.get(table_url(sheet))
    assert page.status_code == 200
    assert page.context["slot"].number == 1
    response = client.post(table_url(sheet), DEAL)
    assert response.status_code == 302
    deal = Deal.objects.get(sheet=sheet)
    assert deal.scores == [198, -66, -66, -66]


def test_the_number_pads_enter_key_says_it_sends_the_deal(seated, client):
    # On a phone, Enter in the card points saves the deal (the quick path: taker, contract,
    # oudlers, digits, Enter): the key reads « Envoyer », not « OK », which a player presses
    # to close the keyboard. In the calculator it computes (« Aller »).
    _, _, sheet = seated
    page = client.get(table_url(sheet)).content.decode()
    assert 'name="points"' in page and 'enterkeyhint="send"' in page
    calculator = client.get(reverse("calculator")).content.decode()
    assert 'enterkeyhint="go"' in calculator and 'enterkeyhint="send"' not in calculator


def test_correcting_a_deal_shows_its_bonuses_and_a_way_back(seated, client):
    from scoring.engine import Camp, Handful, HandfulSize

    _, _, sheet = seated
    with_bonus = legal(handfuls=(Handful(0, HandfulSize.SIMPLE),), petit_au_bout=Camp.ATTACK)
    deal_record(sheet=sheet, number=1, kind="played", deal=with_bonus, actor=TABLE)
    deal_record(sheet=sheet, number=2, kind="played", deal=legal(taker=1), actor=TABLE)
    page = client.get(table_url(sheet) + "?donne=1").content.decode()
    assert "Corriger la donne 1" in page
    assert "Garde · 2 bouts · 49 pts" in page and "bout(s)" not in page  # the deal lines
    assert '<details class="bonuses" open>' in page  # its handful and petit au bout in view
    assert "data-cancel-correction" in page and f'href="{table_url(sheet)}#entry"' in page
    plain = client.get(table_url(sheet) + "?donne=2").content.decode()
    assert '<details class="bonuses">' in plain  # no bonus: folded as for a new deal
    fresh = client.get(table_url(sheet)).content.decode()
    assert "Donne 3" in fresh and "data-cancel-correction" not in fresh


def test_preview_shows_scores_before_saving(seated, client):
    _, _, sheet = seated
    response = client.post(table_url(sheet), {**DEAL, "preview": "1"})
    assert response.status_code == 200
    assert [s for _, s in response.context["preview"]["rows"]] == [198, -66, -66, -66]
    assert not Deal.objects.exists()
    fragment = client.post(table_url(sheet), {**DEAL, "preview": "1"}, HTTP_HX_REQUEST="true")
    assert b"198" in fragment.content and b"<html" not in fragment.content


def test_an_impossible_deal_is_refused_next_to_the_field_keeping_what_was_typed(seated, client):
    _, _, sheet = seated
    response = client.post(table_url(sheet), {**DEAL, "points": "40,5"})
    assert response.status_code == 422
    assert response.context["form"].errors["points"]
    assert 'value="40,5"' in response.content.decode()
    assert not Deal.objects.exists()


def test_defence_points_are_converted(seated, client):
    _, _, sheet = seated
    client.post(table_url(sheet), {**DEAL, "points": "42", "points_camp": "defence"})
    assert Deal.objects.get(sheet=sheet).points == 49


def test_a_double_submit_records_one_deal_and_says_so(seated, client):
    _, _, sheet = seated
    client.post(table_url(sheet), DEAL)
    again = client.post(table_url(sheet), DEAL)
    assert again.status_code == 422
    assert "1" in " ".join(again.context["form"].non_field_errors())
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_the_table_link_reaches_only_its_own_sheet(db, client):
    _, round_ = make_tournament(8)
    sheet_a, sheet_b = ScoreSheet.objects.filter(table__round=round_).order_by("table__number")
    # A forged POST naming another sheet's deal number still lands on the link's own sheet.
    client.post(table_url(sheet_a), DEAL)
    assert Deal.objects.filter(sheet=sheet_a).count() == 1
    assert Deal.objects.filter(sheet=sheet_b).count() == 0
    assert client.get("/table/not-a-token/").status_code == 404
    assert client.post("/table/not-a-token/", DEAL).status_code == 404


def test_the_table_link_cannot_use_referee_actions(seated, client):
    _, _, sheet = seated
    for action in ("delete_last", "penalty", "paper", "sign_paper"):
        response = client.post(table_url(sheet), {"action": action, "reason": "x"})
        assert response.status_code == 404, action
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    response = client.post(table_url(sheet), {**DEAL, "kind": "referee", "note": "forged"})
    assert response.status_code == 422
    assert Deal.objects.get(sheet=sheet).kind == "played"


def test_a_signed_sheet_refuses_the_table_link(seated, client):
    from .test_signing import complete, sign_all

    _, _, sheet = seated
    sign_all(complete(sheet))
    response = client.post(table_url(sheet), {**DEAL, "version": "1", "points": "70"})
    assert response.status_code == 409  # said above the sheet, with no form to retype it in
    assert "signée et verrouillée" in response.context["conflict"]
    assert response.context["form"] is None
    assert Deal.objects.get(sheet=sheet, number=1).points == 49


def test_a_stale_correction_shows_what_the_other_person_saved(seated, client):
    _, _, sheet = seated
    deal = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(points=60),
        actor=TABLE,
        version=deal.version,
    )
    response = client.post(table_url(sheet), {**DEAL, "version": "1", "points": "30"})
    assert response.status_code == 409
    assert response.context["conflict"]
    assert response.context["form"].initial["points"] == "60"
    assert Deal.objects.get(sheet=sheet).points == 60


def test_csrf_is_enforced_on_the_table_link(seated):
    _, _, sheet = seated
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(table_url(sheet), DEAL).status_code == 403
    assert not Deal.objects.exists()


def test_referee_page_requires_the_tournament_role(seated, client, referee, django_user_model):
    tournament, _, sheet = seated
    url = reverse("sheet", args=[tournament.slug, sheet.table_id])
    assert client.get(url).status_code == 302  # to the login page
    stranger = django_user_model.objects.create_user("autre", password="pw-autre-1")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert client.post(url, DEAL).status_code == 404
    assert not Deal.objects.exists()
    client.force_login(referee)
    assert client.get(url).status_code == 200
    assert client.post(url, DEAL).status_code == 302
    assert Deal.objects.get(sheet=sheet).history.first().history_user == referee


def test_referee_of_another_tournament_cannot_reach_this_sheet(seated, client, django_user_model):
    from tournaments.models import StaffMember

    tournament, _, sheet = seated
    other, _ = make_tournament(4)
    someone = django_user_model.objects.create_user("arbitre-b", password="pw-b-12345")
    StaffMember.objects.create(tournament=other, user=someone, role="referee")
    client.force_login(someone)
    # Their own tournament's slug with this tournament's table id: scoped, so 404.
    assert client.get(reverse("sheet", args=[other.slug, sheet.table_id])).status_code == 404
    assert (
        client.post(reverse("sheet", args=[tournament.slug, sheet.table_id]), DEAL).status_code
        == 404
    )
    assert not Deal.objects.exists()


def test_pin_signing_through_the_page(seated, client):
    from .test_signing import complete

    _, _, sheet = seated
    complete(sheet)
    seat = sheet.table.seats.select_related("registration").first()
    wrong = "0000" if seat.registration.pin != "0000" else "1111"
    bad = client.post(
        table_url(sheet), {"action": "sign", "registration": seat.registration_id, "pin": wrong}
    )
    assert bad.status_code == 422 and bad.context["pin_form"].errors["pin"]
    ok = client.post(
        table_url(sheet),
        {"action": "sign", "registration": seat.registration_id, "pin": seat.registration.pin},
    )
    assert ok.status_code == 302
    assert sheet.signatures.count() == 1
    # A wrong PIN of the next player: the list offers only the three yet to sign.
    other = sheet.table.seats.select_related("registration").exclude(pk=seat.pk).first()
    wrong = "0000" if other.registration.pin != "0000" else "1111"
    bad = client.post(
        table_url(sheet), {"action": "sign", "registration": other.registration_id, "pin": wrong}
    )
    offered = [pk for pk, _ in bad.context["pin_form"].fields["registration"].choices]
    assert bad.status_code == 422 and len(offered) == 3 and seat.registration_id not in offered
    # Posting a player who already signed is refused by the form itself.
    again = client.post(
        table_url(sheet),
        {"action": "sign", "registration": seat.registration_id, "pin": seat.registration.pin},
    )
    assert again.status_code == 422 and again.context["pin_form"].errors["registration"]


@pytest.mark.parametrize("deals", [1, 4])
def test_deal_entry_page_query_count_does_not_grow_with_deals(
    db, client, deals, django_assert_num_queries
):
    _, round_ = make_tournament(5, deals=4)
    sheet = ScoreSheet.objects.get(table__round=round_)
    for number in range(1, deals + 1):
        deal_record(sheet=sheet, number=number, kind="played", deal=legal(), actor=TABLE)
    # The sheet with its tournament, seats, deals, penalties, signatures.
    with django_assert_num_queries(5):
        response = client.get(table_url(sheet))
    assert response.status_code == 200


@pytest.mark.parametrize("deals", [1, 4])
def test_saving_a_deal_runs_a_fixed_number_of_queries(db, client, deals, django_assert_num_queries):
    """What a table's phone costs the database for each deal, whatever came before."""
    _, round_ = make_tournament(4, deals=6)
    sheet = ScoreSheet.objects.get(table__round=round_)
    for number in range(1, deals + 1):
        deal_record(sheet=sheet, number=number, kind="played", deal=legal(), actor=TABLE)
    # Page: sheet, seats, deals. Saving: lock the round, then the sheet (its seats and deals
    # as the page read them: unchanged since); the deal and its history, score rows, event,
    # seats' results, the sheet, the tournament's last change; and the transaction's start
    # and end (a savepoint inside the test's). The sheet's history gets a row only when its
    # status moves.
    with django_assert_num_queries(14):
        response = client.post(table_url(sheet), {**DEAL, "number": str(deals + 1)})
    assert response.status_code == 302


@pytest.mark.parametrize("players", [8, 24])
def test_round_dashboard_query_count_does_not_grow_with_tables(
    db, client, players, django_assert_num_queries
):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "r@example.org", "pw-root-123")
    client.force_login(admin)
    tournament, _round = make_tournament(players)
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    # The whole page: the tables update in place from it (no htmx fragment any more); one of
    # the queries reads the tournament's halls (tournaments/halls), whatever the tables.
    with django_assert_num_queries(13):
        response = client.get(url)
    assert len(response.context["tables"]) == players // 4


def test_deal_lines_say_whose_petit_au_bout_and_which_slam(db, client):
    # « · chelem » alone read the same for a slam announced (400) and one not announced (200);
    # the defence's petit au bout read like the attack's.
    from scoring.engine import Camp

    _, round_ = make_tournament(4, deals=6)
    sheet = ScoreSheet.objects.get(table__round=round_)
    deals = [
        legal(points=91, oudlers=3, slam_announced=True, slam=Camp.ATTACK),
        legal(points=91, oudlers=3, slam=Camp.ATTACK),
        legal(points=30, oudlers=1, petit_au_bout=Camp.DEFENCE),
        legal(points=49, oudlers=2, petit_au_bout=Camp.ATTACK),
        legal(points=60, oudlers=2, slam_announced=True),
        legal(points=3, oudlers=0, contract=Contract.PETITE, slam=Camp.DEFENCE),
    ]
    for number, deal in enumerate(deals, start=1):
        deal_record(sheet=sheet, number=number, kind="played", deal=deal, actor=TABLE)
    page = client.get(table_url(sheet)).content.decode()
    rows = re.findall(r'<tr class="deal-desc[^"]*"><td[^>]*>(.*?)</td></tr>', page, re.S)
    lines = [re.sub(r"<[^>]+>", "", row).strip() for row in rows]
    assert len(lines) == 6
    assert lines[0].endswith("· chelem annoncé réussi")
    assert lines[1].endswith("· chelem non annoncé réussi")
    assert lines[2].endswith("· petit au bout (défense)")
    assert lines[3].endswith("· petit au bout (attaque)")
    assert lines[4].endswith("· chelem annoncé chuté")
    assert lines[5].endswith("· chelem de la défense")
    with translation.override("en"):  # restores the active language for the next tests
        english = client.get(table_url(sheet), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "· petit au bout (defence)" in english and "· slam announced, made" in english

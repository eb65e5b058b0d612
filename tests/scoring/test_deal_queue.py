"""The table page's queue, server side: each deal posted with an idempotency key is recorded
once, in order, and a deal the sheet no longer has room for is a conflict, never overwritten.

North's phone keeps each deal until the server confirms it and resends it after a lost answer
(static/js/table-queue.js; the browser side is tests/browser/test_offline_queue.py). Here the
JSON endpoint and the services are driven directly, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from scoring.services import deal_record, deal_record_once
from tournaments import services as tournament_services
from tournaments.models import StaffMember

from .conftest import TABLE, legal, make_tournament, staff
from .test_concurrency import race

pytestmark = pytest.mark.django_db

KEY_1 = "a1" * 16
KEY_2 = "b2" * 16
DEAL = {
    "action": "deal",
    "kind": "played",
    "taker": "1",
    "contract": "garde",
    "oudlers": "2",
    "points": "49",
    "points_camp": "attack",
}


def queue_url(sheet) -> str:
    return reverse("table_sheet_deal", args=[sheet.token])


def send(client, sheet, number: int, key: str, **fields):
    return client.post(queue_url(sheet), {**DEAL, "number": str(number), "key": key, **fields})


def test_a_resent_deal_is_recorded_once_and_answered_with_what_was_stored(seated, client):
    _, _, sheet = seated
    first = send(client, sheet, 1, KEY_1)
    assert first.status_code == 201
    assert first.json() == {
        "status": "saved",
        "replayed": False,
        "number": 1,
        "version": 1,
        "scores": [-66, 198, -66, -66],
    }
    again = send(client, sheet, 1, KEY_1)
    assert again.status_code == 200
    assert again.json() == {**first.json(), "replayed": True}
    (deal,) = Deal.objects.filter(sheet=sheet)
    assert (deal.number, deal.entry_key, deal.version) == (1, KEY_1, 1)
    assert deal.history.count() == 1


@pytest.mark.parametrize(
    ("number", "fields"),
    [(1, {"points": "70"}), (1, {"taker": "2"}), (2, {})],
    ids=["other points", "another taker", "another deal number"],
)
def test_the_same_key_with_another_payload_is_a_conflict_not_a_replay(
    seated, client, number, fields
):
    _, _, sheet = seated
    assert send(client, sheet, 1, KEY_1).status_code == 201
    response = send(client, sheet, number, KEY_1, **fields)
    assert response.status_code == 409
    assert response.json()["status"] == "conflict"
    assert "autres valeurs" in response.json()["message"]
    (deal,) = Deal.objects.filter(sheet=sheet)
    assert (deal.number, deal.points, deal.taker, deal.version) == (1, 49, 1, 1)
    # The very same entry resent is still a replay.
    assert send(client, sheet, 1, KEY_1).json()["replayed"] is True


def test_a_key_a_correction_replaced_still_tells_its_payload_apart(seated, client, referee):
    _, _, sheet = seated
    assert send(client, sheet, 1, KEY_1).status_code == 201
    deal = Deal.objects.get(sheet=sheet)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(points=60),
        actor=staff(referee),
        version=deal.version,
        reason="wrong points",
    )
    assert send(client, sheet, 1, KEY_1).json()["replayed"] is True
    assert send(client, sheet, 1, KEY_1, points="30").status_code == 409
    assert Deal.objects.get(sheet=sheet).points == 60


def test_deals_apply_in_order(seated, client):
    _, _, sheet = seated
    early = send(client, sheet, 2, KEY_2)
    assert early.status_code == 422
    assert "2" in early.json()["message"] and "1" in early.json()["message"]
    assert not Deal.objects.exists()
    assert send(client, sheet, 1, KEY_1).status_code == 201
    assert send(client, sheet, 2, KEY_2).status_code == 201
    assert list(Deal.objects.filter(sheet=sheet).values_list("number", "entry_key")) == [
        (1, KEY_1),
        (2, KEY_2),
    ]


def test_a_slot_the_referee_filled_meanwhile_is_a_conflict_not_overwritten(seated, client):
    _, _, sheet = seated
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(points=60), actor=TABLE)
    response = send(client, sheet, 1, KEY_1)
    assert response.status_code == 409
    assert response.json()["status"] == "conflict"
    assert "1" in response.json()["message"]
    (deal,) = Deal.objects.filter(sheet=sheet)
    assert (deal.taker, deal.points, deal.entry_key) == (0, 60, "")


def test_a_deal_whose_dealer_moved_meanwhile_is_a_conflict(client, referee):
    """At a table of 5, North queued deal 2 while deal 1 was played (East deals deal 2); the
    referee then made deal 1 a passed deal (North deals again at a table of 5): North's deal 2
    was typed for another dealer."""
    tournament, round_ = make_tournament(5)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    sheet = ScoreSheet.objects.get(table__round=round_)
    first = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    deal_record(
        sheet=sheet,
        number=1,
        kind="passed",
        deal=None,
        actor=staff(referee),
        version=first.version,
    )
    response = send(client, sheet, 2, KEY_2, dealer="1")
    assert response.status_code == 409
    assert Deal.objects.filter(sheet=sheet).count() == 1
    assert send(client, sheet, 2, KEY_2, dealer="0").status_code == 201


def test_at_a_table_of_4_a_passed_deal_moves_the_deal_on(seated, client, referee):
    """FFT: after a passed deal at a table of 4 the next player deals the new hand, so making
    deal 1 a passed deal leaves deal 2's dealer (East) where the phone saw it."""
    _, _, sheet = seated
    first = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    deal_record(
        sheet=sheet,
        number=1,
        kind="passed",
        deal=None,
        actor=staff(referee),
        version=first.version,
    )
    assert send(client, sheet, 2, KEY_2, dealer="1").status_code == 201
    assert [d.dealer for d in Deal.objects.filter(sheet=sheet).order_by("number")] == [0, 1]


def test_a_correction_resent_after_the_referee_changed_it_again_is_a_replay(
    seated, client, referee
):
    _, _, sheet = seated
    send(client, sheet, 1, KEY_1)
    correction = {"version": "1", "points": "52"}
    assert send(client, sheet, 1, KEY_2, **correction).status_code == 201
    deal = Deal.objects.get(sheet=sheet)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(taker=1, points=55),
        actor=staff(referee),
        version=deal.version,
    )
    # North's phone never heard that its correction went through: it resends it.
    again = send(client, sheet, 1, KEY_2, **correction)
    assert again.status_code == 200 and again.json()["replayed"] is True
    deal.refresh_from_db()
    assert (deal.points, deal.version) == (55, 3)  # the referee's later change stands


def test_a_refused_deal_says_why_field_by_field(seated, client):
    _, _, sheet = seated
    response = send(client, sheet, 1, KEY_1, oudlers="3", points="10")
    assert response.status_code == 422
    body = response.json()
    assert body["status"] == "refused"
    assert list(body["errors"]) == ["points"]
    assert "13,5" in body["errors"]["points"][0]  # French, with a decimal comma
    assert not Deal.objects.exists()


def test_a_closed_round_refuses_the_queue_and_says_so(seated, client):
    from .test_signing import complete, sign_all

    _, round_, sheet = seated
    sign_all(complete(sheet))
    tournament_services.round_close(round_=round_)
    response = send(client, sheet, 1, KEY_1, version="1", points="70")
    assert response.status_code == 409
    assert response.json()["status"] == "stopped"  # not to correct: the page opens again
    assert "clôturée" in response.json()["message"]
    page = client.get(reverse("table_sheet", args=[sheet.token]))
    assert page.context["round_closed"] is True
    assert page.context["form"] is None
    assert page.context["table_config"]["next"] is None
    assert b'id="entry"' not in page.content and b'id="sign"' not in page.content


def test_the_queue_needs_the_pages_csrf_token(seated):
    _, _, sheet = seated
    strict = Client(enforce_csrf_checks=True)
    assert send(strict, sheet, 1, KEY_1).status_code == 403
    page = strict.get(reverse("table_sheet", args=[sheet.token]))
    token = page.context["csrf_token"]
    response = strict.post(
        queue_url(sheet),
        {**DEAL, "number": "1", "key": KEY_1},
        HTTP_X_CSRFTOKEN=str(token),
    )
    assert response.status_code == 201
    assert strict.get(queue_url(sheet)).json() == {"state": "open"}  # (a read: no token)


def test_a_double_tap_on_save_without_javascript_records_one_deal(seated, client):
    _, _, sheet = seated
    page = client.get(reverse("table_sheet", args=[sheet.token]))
    key = page.context["form"]["key"].value()
    assert len(key) == 32
    data = {**DEAL, "number": "1", "key": key}
    for _ in range(2):
        response = client.post(reverse("table_sheet", args=[sheet.token]), data)
        assert response.status_code == 302
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_a_key_is_unique_per_sheet_in_the_database(seated):
    _, _, sheet = seated
    deal_record_once(key=KEY_1, sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(sheet=sheet, number=2, dealer=1, entry_key=KEY_1, scores=[0] * 4)
    # Another sheet may hold the same key (keys are random: this is only the constraint's scope).
    other = ScoreSheet.objects.exclude(pk=sheet.pk).first()
    if other is not None:
        Deal.objects.create(sheet=other, number=1, dealer=0, entry_key=KEY_1, scores=[0] * 4)


@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_twice_at_once_is_recorded_once():
    _, round_ = make_tournament(4)
    sheet = round_.tables.get().sheet

    def call():
        return deal_record_once(
            key=KEY_1, sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE
        )

    results = race(call, call)
    assert sorted(kind for kind, _ in results) == ["ok", "ok"]
    assert sorted(r.replayed for _, r in results) == [False, True]
    assert Deal.objects.filter(sheet=sheet).count() == 1

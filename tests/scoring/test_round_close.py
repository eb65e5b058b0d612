"""Closing a round locks it: after the close nothing changes a sheet (deal, correction, penalty,
paper totals, signature) until a referee reopens the round, and a change saved at the very
moment of the close either lands before the close reads the sheets or is refused.

The races run with real threads and their own connections, on SQLite (writers queue) and on
PostgreSQL (the round row is locked first, then the sheets, by every party).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import translation

from scoring.models import Deal, Penalty, PinAttempt, ScoreSheet, Signature
from scoring.services import (
    deal_delete_last,
    deal_record,
    paper_totals_record,
    penalty_add,
    sheet_sign_on_paper,
    sheet_sign_with_pin,
)
from scoring.standings import standings_data
from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.models import Round

from .conftest import TABLE, legal, make_tournament, staff


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def complete(sheet, deals=4):
    for number in range(1, deals + 1):
        deal_record(
            sheet=sheet, number=number, kind="played", deal=legal(taker=number % 4), actor=TABLE
        )
    sheet.refresh_from_db()
    return sheet


def players(sheet):
    return [s.registration for s in sheet.table.seats.select_related("registration")]


def sheets_state():
    return (
        Deal.objects.count(),
        Penalty.objects.count(),
        Signature.objects.count(),
        PinAttempt.objects.count(),
        list(ScoreSheet.objects.order_by("pk").values_list("status", "version", "paper_totals")),
    )


@pytest.mark.django_db
def test_after_the_close_nothing_changes_a_sheet_until_it_is_reopened(referee):
    _, round_ = make_tournament(8)
    first, second = (t.sheet for t in round_.tables.order_by("number"))
    complete(first)
    complete(second, deals=3)  # one deal short: closed with a reason
    services.round_close(round_=round_, reason="Table 2 a abandonné")
    first.refresh_from_db()
    assert first.status == ScoreSheet.Status.COMPLETE  # complete, not signed
    player = players(first)[0]
    referee_actor = staff(referee)
    before = sheets_state()
    attempts = {
        "sign with a PIN": lambda: sheet_sign_with_pin(
            sheet=first, registration=player, pin=player.pin, client="1.2.3.4", actor=TABLE
        ),
        "wrong PIN": lambda: sheet_sign_with_pin(
            sheet=first, registration=player, pin="xxxx", client="1.2.3.4", actor=TABLE
        ),
        "paper signatures": lambda: sheet_sign_on_paper(sheet=first, actor=referee_actor),
        "new deal": lambda: deal_record(
            sheet=second, number=4, kind="played", deal=legal(), actor=referee_actor
        ),
        "correction": lambda: deal_record(
            sheet=first,
            number=1,
            kind="played",
            deal=legal(points=60),
            actor=referee_actor,
            version=1,
            reason="erreur",
        ),
        "remove the last deal": lambda: deal_delete_last(
            sheet=first, actor=referee_actor, reason="erreur"
        ),
        "penalty": lambda: penalty_add(
            sheet=first, registration=player, amount=-10, reason="retard", actor=referee_actor
        ),
        "paper totals": lambda: paper_totals_record(
            sheet=second, totals=[10, -10, 0, 0], actor=referee_actor, reason="papier"
        ),
    }
    for name, attempt in attempts.items():
        with pytest.raises(ServiceError, match=r"closed|reopen"):
            attempt()
        assert sheets_state() == before, name

    # A referee reopens the round: the players sign, the missing deal is entered.
    services.round_reopen(round_=round_)
    for registration in players(first):
        sheet_sign_with_pin(
            sheet=first, registration=registration, pin=registration.pin, client="x", actor=TABLE
        )
    first.refresh_from_db()
    assert first.status == ScoreSheet.Status.SIGNED
    deal_record(sheet=second, number=4, kind="played", deal=legal(), actor=referee_actor)


@pytest.mark.django_db
def test_a_deal_resent_after_the_close_is_told_it_was_recorded():
    """North's phone lost the answer to a deal, then resends it once the round is closed: the
    deal was recorded before the close, so the phone hears so (nothing is written); a new deal
    is refused."""
    from scoring.services import deal_record

    _, round_ = make_tournament(4, deals=2)
    sheet = round_.tables.get().sheet
    deal_record(key="k-1", sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    services.round_close(round_=round_, reason="fin")
    again = deal_record(key="k-1", sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    assert again.replayed and again.number == 1
    with pytest.raises(ServiceError, match="closed"):
        deal_record(key="k-2", sheet=sheet, number=2, kind="played", deal=legal(), actor=TABLE)
    assert Deal.objects.filter(sheet=sheet).count() == 1


@pytest.mark.django_db
def test_the_table_link_cannot_sign_after_the_close(client):
    """The table link still opens, but a signature is refused with a message."""
    _, round_ = make_tournament(4)
    sheet = complete(round_.tables.get().sheet)
    services.round_close(round_=round_, reason="fin")
    player = players(sheet)[0]
    response = client.post(
        reverse("table_sheet", args=[sheet.token]),
        {"action": "sign", "registration": player.pk, "pin": player.pin},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 422
    assert "closed" in response.content.decode()
    assert not Signature.objects.exists()


# -- Races -----------------------------------------------------------------------------------


def run(target) -> tuple[threading.Thread, dict]:
    outcome: dict = {}

    def body():
        try:
            with translation.override("en"):
                outcome["value"] = target()
        except ServiceError as error:
            outcome["refused"] = error
        except BaseException as error:  # reported by the test
            outcome["error"] = error
        finally:
            outcome["done"] = True
            connection.close()

    thread = threading.Thread(target=body)
    thread.start()
    return thread, outcome


def hold(call, started: threading.Event, release: threading.Event):
    """Run ``call`` in a transaction kept open (its locks held) until ``release``."""

    def target():
        with transaction.atomic():
            result = call()
            started.set()
            assert release.wait(30)
        return result

    return target


@pytest.mark.django_db(transaction=True)
def test_a_close_waits_for_a_deal_being_saved():
    """The deal is saved first (its transaction still open): the close waits for it, then
    reads the sheets as they are once it is in."""
    _, round_ = make_tournament(4, deals=2)
    sheet = round_.tables.get().sheet
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    started, release = threading.Event(), threading.Event()
    saver, saved = run(
        hold(
            lambda: deal_record(
                sheet=sheet, number=2, kind="played", deal=legal(taker=1), actor=TABLE
            ),
            started,
            release,
        )
    )
    assert started.wait(30)
    closer, closed = run(lambda: services.round_close(round_=round_, reason=""))
    closer.join(1.0)
    assert not closed.get("done"), "the close did not wait for the deal being saved"
    release.set()
    saver.join(30)
    closer.join(30)
    assert "error" not in saved and "error" not in closed, (saved, closed)
    assert "value" in saved
    # The close saw the complete sheet (both deals): unsigned, so it asks for a reason.
    assert "refused" in closed and "Table 1" in str(closed["refused"])
    assert Deal.objects.filter(sheet=sheet).count() == 2
    assert Round.objects.get(pk=round_.pk).status != Round.Status.CLOSED


@pytest.mark.django_db(transaction=True)
def test_a_deal_saved_while_the_round_closes_is_refused():
    """The close goes first (its transaction still open): the deal waits, then is refused —
    never a deal in a closed round."""
    _, round_ = make_tournament(4, deals=2)
    sheet = round_.tables.get().sheet
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    started, release = threading.Event(), threading.Event()
    closer, closed = run(
        hold(lambda: services.round_close(round_=round_, reason="fin"), started, release)
    )
    assert started.wait(30)
    saver, saved = run(
        lambda: deal_record(sheet=sheet, number=2, kind="played", deal=legal(), actor=TABLE)
    )
    saver.join(1.0)
    assert not saved.get("done"), "the deal did not wait for the close"
    release.set()
    closer.join(30)
    saver.join(30)
    assert "error" not in saved and "error" not in closed, (saved, closed)
    assert "value" in closed
    assert "refused" in saved and "closed" in str(saved["refused"])
    assert Deal.objects.filter(sheet=sheet).count() == 1
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


@pytest.mark.django_db(transaction=True)
def test_a_signature_during_the_close_is_refused():
    _, round_ = make_tournament(4, deals=1)
    sheet = round_.tables.get().sheet
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    player = players(sheet)[0]
    started, release = threading.Event(), threading.Event()
    closer, _ = run(
        hold(lambda: services.round_close(round_=round_, reason="fin"), started, release)
    )
    assert started.wait(30)
    signer, signed = run(
        lambda: sheet_sign_with_pin(
            sheet=sheet, registration=player, pin=player.pin, client="x", actor=TABLE
        )
    )
    signer.join(1.0)
    assert not signed.get("done")
    release.set()
    closer.join(30)
    signer.join(30)
    assert "refused" in signed, signed
    assert not Signature.objects.exists()


@pytest.mark.django_db
def test_a_round_closed_by_the_referee_is_no_longer_provisional(client):
    # Paper sheets checked by the referee: table 1 entered but unsigned, table 2 one deal short.
    tournament, round_ = make_tournament(8)
    first, second = (t.sheet for t in round_.tables.order_by("number"))
    complete(first)
    complete(second, deals=3)
    data = standings_data(tournament)
    assert data.provisional
    assert [(p.missing, p.unsigned) for p in data.pending] == [([2], [1])]
    page = client.get(f"/t/{tournament.slug}/classement/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Round 1 provisional" in page.content.decode()

    services.round_close(round_=round_, reason="Feuilles papier vérifiées par l'arbitre")
    data = standings_data(tournament)
    assert not data.provisional
    assert data.last_complete_round == 1
    page = client.get(f"/t/{tournament.slug}/classement/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Round 1 provisional" not in page.content.decode()
    # The standings stay « provisional » as a whole until the organiser finishes the tournament.
    assert "Provisional standings" in page.content.decode()

    # Reopened, the round is provisional again until it is closed.
    services.round_reopen(round_=Round.objects.get(pk=round_.pk))
    assert standings_data(tournament).provisional


@pytest.mark.django_db
def test_the_provisional_badge_names_the_tables_not_entered_as_ranges(client):
    tournament, round_ = make_tournament(20)  # five tables
    tables = list(round_.tables.order_by("number"))
    complete(tables[1].sheet)  # table 2 entered (unsigned): 1, 3, 4 and 5 not entered
    page = client.get(f"/t/{tournament.slug}/classement/", HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "4 tables not entered (1, 3\u20135)" in text
    assert "1 sheet unsigned (2)" in text

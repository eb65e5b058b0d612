"""Two people saving the same deal at the same moment: exactly one wins, the other is told.

Real threads with their own database connections, on SQLite (BEGIN IMMEDIATE serialises the
writers) and on PostgreSQL (the sheet row is locked with SELECT ... FOR UPDATE).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from scoring.models import Deal, SheetEvent
from scoring.services import DealConflict, deal_record
from tarot_club.errors import ServiceError

from .conftest import TABLE, legal, make_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls):
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = ("ok", call())
        except DealConflict as conflict:
            results[index] = ("conflict", conflict)
        except ServiceError as error:
            results[index] = ("refused", error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_corrections_of_the_same_version_one_wins():
    _, round_ = make_tournament(4)
    sheet = round_.tables.get().sheet
    deal = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    results = race(
        lambda: deal_record(
            sheet=sheet,
            number=1,
            kind="played",
            deal=legal(points=60),
            actor=TABLE,
            version=deal.version,
        ),
        lambda: deal_record(
            sheet=sheet,
            number=1,
            kind="played",
            deal=legal(points=30),
            actor=TABLE,
            version=deal.version,
        ),
    )
    outcomes = sorted(kind for kind, _ in results)
    assert outcomes == ["conflict", "ok"]
    winner = next(value for kind, value in results if kind == "ok")
    loser = next(value for kind, value in results if kind == "conflict")
    saved = Deal.objects.get(sheet=sheet, number=1)
    assert saved.points == winner.points and saved.version == 2
    assert loser.deal.points == saved.points  # the loser is shown what the winner saved
    assert Deal.history.filter(sheet_id=sheet.pk).count() == 2
    assert SheetEvent.objects.filter(sheet=sheet, action="deal_corrected").count() == 1


def test_two_devices_entering_the_same_new_deal_record_it_once():
    _, round_ = make_tournament(4)
    sheet = round_.tables.get().sheet
    results = race(
        lambda: deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE),
        lambda: deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE),
    )
    assert sorted(kind for kind, _ in results) == ["ok", "refused"]
    assert Deal.objects.filter(sheet=sheet).count() == 1

"""A deal's save costs the same whatever the size of the field: the same queries for a table of
a 4-player tournament and of a 40-player one, and no table waits for another table's deal.

On PostgreSQL every sheet service used to lock its round's row for update, so every deal of a
round (750 tables at a national event) waited for the one being saved anywhere in the hall.
They now share the round's lock; closing the round (and calling time) still takes it alone,
so a deal is either in before the close reads the sheets, or refused (test_round_close.py).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.measures import deal_post_data
from scoring.engine import get_rule_set
from scoring.models import Deal, ScoreSheet
from scoring.selectors import round_tables
from scoring.services import deal_record
from scoring.services.sheets import lock_sheet

from .conftest import TABLE, legal, make_tournament


def _post_queries(client, players: int) -> list[int]:
    """Queries of each deal POST of one table's sheet (deals 1 to 4, the last completes it),
    on a tournament of ``players``, after another table's sheet was completed."""
    import random

    tournament, round_ = make_tournament(players)
    rules = get_rule_set(tournament.rule_set)
    rng = random.Random(3)
    tables = round_tables(round_)
    counts = []
    for index, table in enumerate(tables[:2]):
        url = reverse("table_sheet", args=[table.sheet.token])
        for number in range(1, 5):
            with CaptureQueriesContext(connection) as ctx:
                response = client.post(url, deal_post_data(rng, rules, number))
            assert response.status_code == 302, response.content[:500]
            if index == 1:
                counts.append(len(ctx.captured_queries))
    sheet = ScoreSheet.objects.get(table=tables[1])
    assert sheet.status == ScoreSheet.Status.COMPLETE
    assert Deal.objects.filter(sheet=sheet).count() == 4
    return counts


@pytest.mark.django_db
def test_a_deal_post_makes_as_many_queries_for_4_players_as_for_40(client):
    small = _post_queries(client, 8)
    large = _post_queries(client, 40)
    assert small == large, (small, large)
    assert max(large) <= 17, large


def _run(target) -> tuple[threading.Thread, dict]:
    outcome: dict = {}

    def body():
        try:
            outcome["value"] = target()
        except BaseException as error:  # reported by the test
            outcome["error"] = error
        finally:
            outcome["done"] = True
            connection.close()

    thread = threading.Thread(target=body)
    thread.start()
    return thread, outcome


@pytest.mark.django_db(transaction=True)
def test_a_table_saves_its_deal_while_another_table_is_saving_one():
    """Table 1's deal is being saved (its sheet locked, as every sheet service does first, and
    its transaction still open): table 2's deal goes in at once. The tournament's row, which
    every deal marks changed as the last statement before it commits, is the one lock all
    deals still take in turn, for an instant. On SQLite every writer waits for the other
    (one database lock), so only PostgreSQL says anything here."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every writer")
    _, round_ = make_tournament(8)
    first, second = (t.sheet for t in round_tables(round_))
    deal_record(sheet=first, number=1, kind="played", deal=legal(), actor=TABLE)
    started, release = threading.Event(), threading.Event()

    def held():
        with transaction.atomic():
            lock_sheet(first.pk)
            started.set()
            assert release.wait(30)

    holder, held_outcome = _run(held)
    try:
        assert started.wait(30)
        saver, saved = _run(
            lambda: deal_record(sheet=second, number=1, kind="played", deal=legal(), actor=TABLE)
        )
        saver.join(5)
        assert saved.get("done"), "table 2 waited for table 1's deal"
    finally:
        release.set()
        holder.join(30)
    saver.join(30)
    assert "error" not in saved and "error" not in held_outcome, (saved, held_outcome)
    assert Deal.objects.filter(sheet=second).count() == 1

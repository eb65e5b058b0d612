"""A round being played, for the tests of what a deal changes on the public pages
(``scoring/page_versions.py``, ``scoring/public_answers.py``): the ``playing`` fixture
(tests/web/conftest.py) and :func:`enter_deal`."""

from __future__ import annotations

import random

from scoring.demo import create_demo
from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.models import ScoreSheet
from scoring.services import Actor, deal_record
from tournaments import services


def playing_round():
    """Round 1 played and closed; round 2 seated at two tables of four, no deal entered yet
    (two deals make a sheet complete: it counts). The tournament and the two tables."""
    tournament = create_demo(players=8, rounds=2, deals=2, play_rounds=1, seed=5).tournament
    round_ = services.round_seat_next(tournament=tournament, seed=7)
    tables = list(round_.tables.order_by("number"))
    assert len(tables) == 2
    return tournament, tables


def enter_deal(table, number: int) -> None:
    """Deal ``number`` at ``table``, a legal random one, as the table's phone enters it."""
    deal_record(
        sheet=ScoreSheet.objects.get(table=table),
        number=number,
        kind="played",
        deal=random_legal_deal(
            random.Random(number), 4, get_rule_set(table.round.tournament.rule_set)
        ),
        actor=Actor.table(page="test"),
    )

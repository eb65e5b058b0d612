"""A sheet's event log names its actions from one list (``SheetEvent.Action``): the services log
only those, the history has a sentence and the page a label for each, so a misspelt action is
refused where it is written instead of showing as « Change » in the history."""

from __future__ import annotations

import pytest

from scoring import history, services
from scoring.models import SheetEvent
from tests.scoring.conftest import TABLE, legal, staff
from tournaments.models import Round


def test_every_action_has_its_history_sentence_and_its_label():
    assert set(history.WRITERS) == set(SheetEvent.Action)
    labels = {action: SheetEvent(action=action).action_label for action in SheetEvent.Action}
    assert all(label and label != action.value for action, label in labels.items())


def test_a_misspelt_action_is_refused_and_logs_nothing(seated):
    _tournament, round_, sheet = seated
    with pytest.raises(ValueError):
        services._log(sheet, TABLE, "deal_create", deal=1)  # one letter short
    assert not SheetEvent.objects.filter(sheet=sheet).exists()
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED  # nothing started the round either


def test_the_first_deal_starts_the_round_and_logs_a_known_action(seated, referee):
    _tournament, round_, sheet = seated
    services.deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=staff(referee))
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING
    event = SheetEvent.objects.get(sheet=sheet)
    assert event.action == SheetEvent.Action.DEAL_CREATED
    assert event.action_label == "Donne saisie"  # the French first

"""A referee's penalty takes points away, and every page and log shows it with its sign.

The FFT rules know penalties only (points taken from one player, outside the zero-sum check);
a bonus is not one of them: a wrong score is corrected on its deal. So +30 is refused with the
reason, what was typed kept, nothing written.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.history import history_lines
from scoring.models import Penalty, SheetEvent
from tarot_club.errors import ServiceError

from .conftest import staff


def _player(sheet):
    return sheet.table.seats.order_by("position").first().registration


def test_a_positive_penalty_is_refused_with_the_reason_and_nothing_written(seated, referee):
    _, _, sheet = seated
    with translation.override("fr"), pytest.raises(ServiceError) as raised:
        services.penalty_add(
            sheet=sheet,
            registration=_player(sheet),
            amount=30,
            reason="Retard",
            actor=staff(referee),
        )
    assert raised.value.field == "amount"
    assert str(raised.value) == (
        "Une pénalité retire des points : tapez −30. Le règlement ne donne pas de points "
        "en bonus ; un score faux se corrige sur sa donne."
    )
    assert not Penalty.objects.exists()
    assert not SheetEvent.objects.filter(action="penalty").exists()


def test_the_referee_page_refuses_plus_30_keeping_what_was_typed(seated, client, referee):
    tournament, _, sheet = seated
    client.force_login(referee)
    player = _player(sheet)
    url = reverse("sheet", args=[tournament.slug, sheet.table_id])
    data = {
        "action": "penalty",
        "registration": str(player.pk),
        "amount": "30",
        "reason": "Téléphone",
    }
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422
    form = response.context["penalty_form"]
    assert form.errors["amount"] == [
        "Une pénalité retire des points : tapez −30. Le règlement ne donne pas de points "
        "en bonus ; un score faux se corrige sur sa donne."
    ]
    page = response.content.decode()
    assert 'value="30"' in page and 'value="Téléphone"' in page
    assert not Penalty.objects.filter(registration=player).exists()


def test_a_penalty_shows_its_minus_sign_on_the_sheet_and_in_the_log(seated, client, referee):
    tournament, _, sheet = seated
    player = _player(sheet)
    services.penalty_add(
        sheet=sheet, registration=player, amount=-20, reason="Retard", actor=staff(referee)
    )
    client.force_login(referee)
    page = client.get(
        reverse("sheet", args=[tournament.slug, sheet.table_id]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert f"{player.full_name} −20 — Retard" in page
    with translation.override("fr"):
        (line,) = history_lines(
            list(SheetEvent.objects.filter(action="penalty")), [player.full_name]
        )
    assert line.sentence.startswith(f"Pénalité de −20 points pour {player.full_name}")


def test_a_bonus_kept_from_older_days_shows_its_plus_sign(seated, referee):
    """An archive from before penalties were refused above 0 may hold one: it reads +30,
    never as if it were taken away."""
    _, _, sheet = seated
    player = _player(sheet)
    services.penalty_add(
        sheet=sheet, registration=player, amount=-30, reason="Retard", actor=staff(referee)
    )
    event = SheetEvent.objects.get(action="penalty")
    event.data["amount"] = 30
    with translation.override("fr"):
        (line,) = history_lines([event], [player.full_name])
    assert line.sentence.startswith(f"Pénalité de +30 points pour {player.full_name}")

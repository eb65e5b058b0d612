"""A refused deal's message, translated, still names its numbers (the reason and the values)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.engine import FFT, check_deal
from scoring.engine import validate as engine_validate
from scoring.messages import deal_error_message
from tests.engine.test_validation import CASES, make

PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("code", sorted(engine_validate.MESSAGES))
def test_every_french_refusal_keeps_every_value_of_the_english_one(code):
    english = engine_validate.MESSAGES[code]
    with translation.override("fr"):
        french = translation.gettext(english)
    assert french != english, f"{code} is not translated"
    assert sorted(PLACEHOLDER.findall(french)) == sorted(PLACEHOLDER.findall(english))


@pytest.mark.parametrize("name", CASES)
def test_each_refused_deal_reads_in_french_with_its_values(name):
    rejected = CASES[name][0]
    (error,) = check_deal(make(**rejected), FFT)
    with translation.override("fr"):
        message = deal_error_message(error)
    assert "{" not in message
    for value in error.params.values():
        assert str(value).replace(".", ",") in message, (value, message)


@pytest.mark.django_db
def test_a_garde_contre_with_91_points_is_refused_in_french_next_to_the_points(client):
    data = {
        "players": "4",
        "taker": "0",
        "contract": "garde_contre",
        "oudlers": "3",
        "points": "91",
        "points_camp": "attack",
    }
    response = client.post(reverse("calculator"), data, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422
    assert response.context["form"].errors["points"] == [
        "En garde contre, le chien va à la défense (6 cartes, au moins 3 points) : l'attaque "
        "a au plus 88 points, pas 91."
    ]
    assert 'value="91"' in response.content.decode()


@pytest.mark.django_db
def test_a_garde_with_no_point_is_refused_in_french_next_to_the_points(client):
    data = {
        "players": "5",
        "taker": "0",
        "partner": "1",
        "contract": "garde",
        "oudlers": "0",
        "points": "1",
        "points_camp": "attack",
    }
    response = client.post(reverse("calculator"), data, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422
    assert response.context["form"].errors["points"] == [
        "L'écart du preneur (petite, garde) ou le chien (garde sans) compte pour l'attaque : "
        "3 cartes, au moins 1,5 points, pas 1."
    ]

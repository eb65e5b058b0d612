"""The score calculator page: a referee's first tool."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

EXAMPLE_1 = {
    "players": "4",
    "taker": "0",
    "contract": "garde",
    "oudlers": "2",
    "points": "49",
    "points_camp": "attack",
    "handful_0": "simple",
    "petit_au_bout": "attack",
}


def test_home_is_the_calculator_in_french(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Calculette" in page and 'lang="fr"' in page


def test_english_is_available(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Score calculator" in response.content.decode()


def test_scores_the_fft_example_and_explains(client):
    response = client.post(reverse("calculator"), EXAMPLE_1)
    assert response.status_code == 200
    result = response.context["result"]
    assert [score for _, score in result["rows"]] == [318, -106, -106, -106]
    page = response.content.decode()
    assert "318" in page and "(25 + 8) × 2" in page


def test_defence_points_are_converted_from_91(client):
    data = {**EXAMPLE_1, "points": "42", "points_camp": "defence"}  # attack made 49
    response = client.post(reverse("calculator"), data)
    assert [score for _, score in response.context["result"]["rows"]] == [318, -106, -106, -106]


def test_comma_decimal_at_three_players(client):
    data = {
        "players": "3",
        "taker": "0",
        "contract": "petite",
        "oudlers": "2",
        "points": "41,5",
        "points_camp": "attack",
    }
    response = client.post(reverse("calculator"), data)
    assert [score for _, score in response.context["result"]["rows"]] == [52, -26, -26]


def test_impossible_deal_is_refused_next_to_the_field_keeping_what_was_typed(client):
    data = {**EXAMPLE_1, "points": "40,5"}
    response = client.post(reverse("calculator"), data)
    assert response.status_code == 422
    form = response.context["form"]
    assert response.context["result"] is None
    assert "erreur de comptage" in " ".join(form.errors["points"])
    page = response.content.decode()
    assert 'value="40,5"' in page
    # The contract typed stays chosen, and only it.
    contracts = re.findall(r'<input[^>]*name="contract"[^>]*>', page)
    assert [re.search(r'value="(\w+)"', tag)[1] for tag in contracts if " checked" in tag] == [
        "garde"
    ]


def test_two_handfuls_error_names_the_seat_field(client):
    data = {**EXAMPLE_1, "handful_1": "double"}
    response = client.post(reverse("calculator"), data, HTTP_ACCEPT_LANGUAGE="en")
    errors = response.context["form"].errors
    # Next to the handful that made too many trumps, where the user looks.
    assert "23 trumps" in " ".join(errors["handful_1"])
    assert "__all__" not in errors


def test_a_second_handful_by_the_same_seat_cannot_be_typed(client):
    # One select per seat: the form itself makes "two handfuls by one player" unrepresentable.
    response = client.get(reverse("calculator"))
    assert response.context["form"].fields["handful_0"].choices[0][0] == ""


def test_htmx_request_gets_the_fragment(client):
    response = client.post(reverse("calculator"), EXAMPLE_1, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "<html" not in page and "318" in page


def test_unreadable_points_keep_the_form(client):
    response = client.post(reverse("calculator"), {**EXAMPLE_1, "points": "quarante"})
    assert response.status_code == 422
    assert response.context["form"].errors["points"]
    assert 'value="quarante"' in response.content.decode()


def test_the_bonuses_section_opens_when_it_holds_a_value_or_an_error(client):
    def bonuses_open(data) -> bool:
        html = client.post(reverse("calculator"), data).content.decode()
        return '<details class="bonuses" open>' in html

    base = {k: v for k, v in EXAMPLE_1.items() if not k.startswith("handful")}
    base.pop("petit_au_bout", None)
    assert not bonuses_open(base)
    assert bonuses_open({**base, "handful_2": "simple"})
    assert bonuses_open({**base, "slam_announced": "on"})
    # Opened by the user, then redrawn (a change of the number of players): still open.
    assert bonuses_open({**base, "bonuses_open": "1"})
    # Too many trumps: the error is next to the handful, in the open section.
    assert bonuses_open({**base, "handful_0": "triple", "handful_1": "triple"})


@pytest.mark.parametrize(
    ("slam", "petit_au_bout", "oudlers", "points", "message"),
    [
        ("attack", "defence", "2", "87", "le petit au bout ne peut pas aller à la défense"),
        ("defence", "attack", "1", "20", "le petit au bout ne peut pas aller à l'attaque"),
    ],
)
def test_a_slam_with_the_other_camps_petit_au_bout_is_refused_in_french(
    client, slam, petit_au_bout, oudlers, points, message
):
    data = {
        **EXAMPLE_1,
        "oudlers": oudlers,
        "points": points,
        "slam": slam,
        "petit_au_bout": petit_au_bout,
    }
    data.pop("handful_0")
    response = client.post(reverse("calculator"), data)
    assert response.status_code == 422
    assert response.context["result"] is None
    assert message in " ".join(response.context["form"].errors["petit_au_bout"])
    page = response.content.decode().replace("&#x27;", "'")
    assert message in page
    # The same deal with the slam camp's own petit au bout is scored.
    response = client.post(reverse("calculator"), {**data, "petit_au_bout": slam})
    assert response.status_code == 200 and response.context["result"] is not None

"""Registering players and checking them in on the day (individual tournaments)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.models import Club, Player, Registration, Round

from .conftest import close, make_tournament, snapshot

pytestmark = pytest.mark.django_db


def players_url(t):
    return reverse("tournaments:players", args=[t.slug])


def checkin_url(t, registration):
    return reverse("tournaments:checkin", args=[t.slug, registration.pk])


def test_register_a_player(tournament, organiser_client):
    response = organiser_client.post(
        players_url(tournament),
        {
            "last_name": "Lefèvre",
            "first_name": "Élodie",
            "club": "Excuse Nantaise",
            "licence": "0412345",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == players_url(tournament)
    registration = Registration.objects.get(tournament=tournament, last_name="Lefèvre")
    assert registration.status == Registration.Status.REGISTERED
    player = registration.player
    assert (player.first_name, player.licence, player.club.name) == (
        "Élodie",
        "0412345",
        "Excuse Nantaise",
    )
    assert len(registration.pin) == 4 and registration.pin.isdigit()


def test_referee_registers_a_late_player_present(tournament, referee_client):
    response = referee_client.post(
        players_url(tournament), {"last_name": "Retard", "first_name": "Rémi", "present": "on"}
    )
    assert response.status_code == 302
    registration = Registration.objects.get(tournament=tournament, last_name="Retard")
    assert registration.status == Registration.Status.PRESENT
    assert registration.licence == ""


def test_licence_is_optional_even_for_many_players(tournament, organiser_client):
    for name in ("Sans", "Licence"):
        organiser_client.post(players_url(tournament), {"last_name": name})
    assert Player.objects.filter(last_name__in=["Sans", "Licence"], licence="").count() == 2


def test_duplicate_licence_in_the_same_tournament_is_refused(tournament, organiser_client):
    organiser_client.post(players_url(tournament), {"last_name": "Martin", "licence": "777"})
    before = snapshot(tournament)
    clubs = Club.objects.count()
    typed = {
        "last_name": "Martin",
        "first_name": "Hugo",
        "club": "Nouveau club",
        "licence": "777",
        "present": "on",
    }
    response = organiser_client.post(players_url(tournament), typed)
    assert response.status_code == 422
    form = response.context["form"]
    assert list(form.errors) == ["licence"]
    assert "777 is already registered in this tournament" in form.errors["licence"][0]
    # The typed values are kept for correction.
    assert {name: form[name].value() for name in typed} == {**typed, "present": True}
    assert snapshot(tournament) == before
    assert Club.objects.count() == clubs


def test_licence_of_another_player_is_refused(tournament, other_tournament, organiser_client):
    services.player_register(
        tournament=other_tournament,
        row=services.PlayerRow(last_name="Dubois", first_name="Anne", licence="123456"),
    )
    before = snapshot(tournament)
    response = organiser_client.post(
        players_url(tournament), {"last_name": "Durand", "first_name": "Paul", "licence": "123456"}
    )
    assert response.status_code == 422
    error = response.context["form"].errors["licence"][0]
    assert "123456" in error and "another player" in error
    # Another tournament's player is not named to this one's staff (issue 26).
    assert "Dubois" not in response.content.decode()
    assert snapshot(tournament) == before


def test_licence_holder_from_another_tournament_is_the_same_player(
    tournament, other_tournament, organiser_client
):
    earlier = services.player_register(
        tournament=other_tournament,
        row=services.PlayerRow(last_name="Dubois", first_name="Anne", licence="123456"),
    )
    players = Player.objects.count()
    response = organiser_client.post(
        players_url(tournament), {"last_name": "DUBOIS", "first_name": "Anne", "licence": "123456"}
    )
    assert response.status_code == 302
    assert Player.objects.count() == players
    assert Registration.objects.get(tournament=tournament, player=earlier.player)


def test_missing_last_name_is_refused(tournament, organiser_client):
    before = snapshot(tournament)
    response = organiser_client.post(players_url(tournament), {"first_name": "Seul"})
    assert response.status_code == 422
    assert "last_name" in response.context["form"].errors
    assert snapshot(tournament) == before


@pytest.mark.parametrize(
    ("status", "expected"),
    [("present", "present"), ("absent", "absent"), ("withdrawn", "withdrawn")],
)
def test_check_in_by_post(tournament, referee_client, status, expected):
    registration = tournament.registrations.first()
    response = referee_client.post(checkin_url(tournament, registration), {"status": status})
    assert response.status_code == 302
    assert response["Location"] == players_url(tournament)
    registration.refresh_from_db()
    assert registration.status == expected


def test_check_in_with_htmx_returns_the_row(tournament, referee_client):
    registration = make_registered(tournament)
    response = referee_client.post(
        checkin_url(tournament, registration), {"status": "present"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response.templates[0].name == "staff/_player_row.html"
    row = response.context["r"]
    assert (row.pk, row.status) == (registration.pk, "present")
    html = response.content.decode()
    assert html.lstrip().startswith(f'<tr id="reg-{registration.pk}"')
    assert "<html" not in html
    registration.refresh_from_db()
    assert registration.status == "present"


def test_unknown_status_changes_nothing(tournament, referee_client):
    registration = make_registered(tournament)
    response = referee_client.post(
        checkin_url(tournament, registration), {"status": "gone"}, follow=True
    )
    assert [str(m) for m in response.context["messages"]] == ["Unknown status."]
    registration.refresh_from_db()
    assert registration.status == "registered"


def test_check_in_is_post_only(tournament, referee_client):
    registration = make_registered(tournament)
    assert referee_client.get(checkin_url(tournament, registration)).status_code == 405


def make_registered(tournament):
    return services.player_register(
        tournament=tournament, row=services.PlayerRow(last_name="Zidane", first_name="Zoé")
    )


def test_withdrawal_records_the_last_round_played():
    tournament = make_tournament(16, rounds=3)
    quitter = tournament.registrations.first()
    round_1 = services.round_seat_next(tournament=tournament)
    close(round_1)
    services.registration_set_status(registration=quitter, status="withdrawn")
    quitter.refresh_from_db()
    assert (quitter.status, quitter.withdrawn_after_round) == ("withdrawn", 1)

    round_2 = services.round_seat_next(tournament=tournament)
    assert not round_2.seats.filter(registration=quitter).exists()
    assert round_2.seats.count() == 15

    # Back on the day: present again, the withdrawal is forgotten.
    services.registration_set_status(registration=quitter, status="present")
    quitter.refresh_from_db()
    assert (quitter.status, quitter.withdrawn_after_round) == ("present", None)


def test_withdrawal_before_the_first_round(tournament, referee_client):
    registration = tournament.registrations.first()
    referee_client.post(checkin_url(tournament, registration), {"status": "withdrawn"})
    registration.refresh_from_db()
    assert registration.status == "withdrawn"
    assert registration.withdrawn_after_round is None
    assert not Round.objects.filter(tournament=tournament).exists()


def test_players_page_lists_every_registration(tournament, referee_client):
    response = referee_client.get(players_url(tournament))
    assert response.status_code == 200
    listed = [r.last_name for r in response.context["registrations"]]
    assert listed == [f"Joueur{i:02d}" for i in range(8)]
    for registration in tournament.registrations.all():
        assert f'id="reg-{registration.pk}"' in response.content.decode()


def test_service_refuses_an_individual_player_in_a_team_tournament():
    tournament = make_tournament(0, format="teams_2")
    with pytest.raises(ServiceError, match="register with their team"):
        services.player_register(tournament=tournament, row=services.PlayerRow(last_name="Solo"))
    assert not Player.objects.exists()

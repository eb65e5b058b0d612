"""Registration for the next tournament, as players and the organiser use it: seats held in the
order requests come, a waiting list that moves up, confirmed players ready for check-in, a
throttle per connection, and no page that shows an e-mail address."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import en_client
from tournaments import services
from tournaments.models import Registration, SeatRequest
from tournaments.services import seat_requests

pytestmark = pytest.mark.django_db

EMAIL = "secret.adresse@example.org"


@pytest.fixture
def upcoming(season_of):
    demo = season_of(1, players=8)
    return demo, services.tournament_update(tournament=demo.upcoming, capacity=2)


def ask(tournament, last, first="Anne", client=None, **extra):
    client = client or Client(HTTP_ACCEPT_LANGUAGE="en")
    data = {"last_name": last, "first_name": first, "licence": "", "club": "", **extra}
    return client.post(reverse("public:seat_request", args=[tournament.slug]), data)


def test_seats_then_the_waiting_list_then_confirmation(upcoming, organiser):
    demo, tournament = upcoming
    first = ask(tournament, "Premier", email=EMAIL)
    assert first.status_code == 200
    assert "a seat is held for you until the organiser confirms" in first.content.decode()
    ask(tournament, "Second")
    third = ask(tournament, "Troisieme")
    assert "Anne Troisieme: on the waiting list, number 1." in third.content.decode()
    assert [q.waiting for q in seat_requests.queue(tournament)] == [0, 0, 1]
    club_page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("public:club", args=[demo.club.slug]))
    assert "0 seats left" in club_page.content.decode()
    assert "Join the waiting list" in club_page.content.decode()

    staff = en_client(organiser)
    url = reverse("tournaments:seat_requests", args=[tournament.slug])
    second = SeatRequest.objects.get(last_name="Second")
    staff.post(url, {"action": "refuse", "request": second.pk})
    assert [(q.request.last_name, q.waiting) for q in seat_requests.queue(tournament)] == [
        ("Premier", 0),
        ("Troisieme", 0),
    ]
    for name in ("Premier", "Troisieme"):
        staff.post(
            url, {"action": "confirm", "request": SeatRequest.objects.get(last_name=name).pk}
        )
    registered = Registration.objects.filter(tournament=tournament).select_related("player")
    assert sorted((r.player.last_name, r.status) for r in registered) == [
        ("Premier", Registration.Status.REGISTERED),
        ("Troisieme", Registration.Status.REGISTERED),
    ]
    players_page = staff.get(reverse("tournaments:players", args=[tournament.slug]))
    assert "Anne Premier" in players_page.content.decode()
    # Full: a new request waits, and confirming it is refused until a seat is free.
    ask(tournament, "Quatrieme")
    late = SeatRequest.objects.get(last_name="Quatrieme")
    response = staff.post(url, {"action": "confirm", "request": late.pk}, follow=True)
    assert "The tournament is full" in response.content.decode()
    assert SeatRequest.objects.get(pk=late.pk).status == SeatRequest.Status.PENDING


def test_no_page_shows_an_email_address(upcoming, organiser):
    demo, tournament = upcoming
    ask(tournament, "Discrete", email=EMAIL)
    staff = en_client(organiser)
    request = SeatRequest.objects.get()
    assert request.email == EMAIL  # kept...
    pages = [
        staff.get(reverse("tournaments:seat_requests", args=[tournament.slug])),
        Client().get(reverse("public:club", args=[demo.club.slug])),
        Client().get(reverse("public:seat_request", args=[tournament.slug])),
    ]
    staff.post(
        reverse("tournaments:seat_requests", args=[tournament.slug]),
        {"action": "confirm", "request": request.pk},
    )
    pages += [
        staff.get(reverse("tournaments:players", args=[tournament.slug])),
        staff.get(reverse("tournaments:seat_requests", args=[tournament.slug])),
        Client().get(reverse("public:home", args=[tournament.slug])),
    ]
    for page in pages:
        assert page.status_code == 200
        assert EMAIL not in page.content.decode()  # ...never shown
    assert not any(EMAIL in str(h.__dict__) for h in SeatRequest.history.all())


def test_bad_input_keeps_what_was_typed_and_writes_nothing(upcoming):
    _, tournament = upcoming
    response = ask(tournament, "Nom\x00", first="Léa", licence="123")
    assert response.status_code == 422
    assert 'value="Léa"' in response.content.decode()
    assert "Null characters are not allowed." in response.content.decode()
    response = ask(tournament, "Nom\x07", first="Léa", licence="123")
    assert response.status_code == 422
    assert "A control character (such as NUL) in the last name." in response.content.decode()
    response = ask(tournament, "Sans", email="pas-une-adresse")
    assert (
        response.status_code == 422 and "Enter a valid email address." in response.content.decode()
    )
    assert not SeatRequest.objects.exists()
    # The same player twice is refused with a reason, in French too.
    ask(tournament, "Double", licence="777")
    french = Client(HTTP_ACCEPT_LANGUAGE="fr")
    response = ask(tournament, "Double", licence="777", client=french)
    assert response.status_code == 422
    assert "Ce joueur a déjà demandé une place." in response.content.decode()
    assert SeatRequest.objects.count() == 1


def test_a_connection_sends_five_requests_an_hour(upcoming):
    _, tournament = upcoming
    client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.7")
    for i in range(seat_requests.PER_HOUR):
        assert ask(tournament, f"Joueur{i}", client=client).status_code == 200
    refused = ask(tournament, "EnTrop", client=client)
    assert refused.status_code == 422
    assert "Too many requests from this connection" in refused.content.decode()
    assert 'value="EnTrop"' in refused.content.decode()
    assert SeatRequest.objects.count() == seat_requests.PER_HOUR
    other = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.8")
    assert ask(tournament, "Voisin", client=other).status_code == 200


def test_behind_a_proxy_on_a_unix_socket_each_phone_has_its_own_five_requests(upcoming):
    """nginx on a Unix socket: REMOTE_ADDR is empty, the client is what it appended to
    X-Forwarded-For. Not one "unknown" connection with five requests for the whole public."""
    _, tournament = upcoming
    for i in range(seat_requests.PER_HOUR + 2):
        phone = Client(
            HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}"
        )
        assert ask(tournament, f"Joueur{i}", client=phone).status_code == 200
    assert set(SeatRequest.objects.values_list("client", flat=True)) == {
        f"198.51.100.{i}" for i in range(seat_requests.PER_HOUR + 2)
    }
    # Without any address the request is refused, saying what the server's administrator must
    # set, and nothing is written.
    nobody = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="")
    response = ask(tournament, "Anonyme", client=nobody)
    assert response.status_code == 503
    assert "DJANGO_TRUSTED_PROXIES" in response.content.decode()
    assert not SeatRequest.objects.filter(last_name="Anonyme").exists()


def test_a_started_tournament_takes_no_request(upcoming):
    demo, _ = upcoming
    played = demo.tournaments[0]
    services.tournament_update(tournament=played, capacity=20)
    response = ask(played, "Tardif")
    assert "This tournament takes no online registration." in response.content.decode()
    assert not SeatRequest.objects.exists()


def test_a_refused_request_is_said_with_french_elision(upcoming, organiser):
    """« Demande d'Élodie Leroy refusée. », « Demande de Léa Martin refusée. »"""
    _demo, tournament = upcoming
    ask(tournament, "Leroy", first="Élodie")
    ask(tournament, "Martin", first="Léa")
    staff = Client(HTTP_ACCEPT_LANGUAGE="fr")
    staff.force_login(organiser)
    url = reverse("tournaments:seat_requests", args=[tournament.slug])
    said = []
    for last in ("Leroy", "Martin"):
        response = staff.post(
            url,
            {"action": "refuse", "request": SeatRequest.objects.get(last_name=last).pk},
            follow=True,
        )
        said += [str(m) for m in response.context["messages"]]
    assert said == ["Demande d'Élodie Leroy refusée.", "Demande de Léa Martin refusée."]

"""Registration for the next tournament, as players and the organiser use it: seats held in the
order requests come, a waiting list that moves up, confirmed players ready for check-in, a
throttle per connection, and no page that shows an e-mail address."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.scoring.test_concurrency import race
from tests.tournaments.conftest import en_client, make_user
from tournaments import seat_request_status, services
from tournaments.models import Registration, SeatRequest, StaffMember
from tournaments.services import seat_requests

pytestmark = pytest.mark.django_db

EMAIL = "secret.adresse@example.org"


@pytest.fixture
def upcoming(season_of):
    demo = season_of(1, players=8)
    return demo, services.tournament_update(tournament=demo.upcoming, capacity=2)


@pytest.fixture
def referee_of():
    def make(tournament):
        user = make_user("arbitre-demandes")
        StaffMember.objects.create(tournament=tournament, user=user, role="referee")
        return user

    return make


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
    assert [q.waiting for q in seat_request_status.queue(tournament)] == [0, 0, 1]
    club_page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("public:club", args=[demo.club.slug]))
    assert "0 seats left" in club_page.content.decode()
    assert "Join the waiting list" in club_page.content.decode()

    staff = en_client(organiser)
    url = reverse("tournaments:seat_requests", args=[tournament.slug])
    second = SeatRequest.objects.get(last_name="Second")
    staff.post(url, {"action": "refuse", "request": second.pk})
    assert [(q.request.last_name, q.waiting) for q in seat_request_status.queue(tournament)] == [
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


def seat_requests_status_url(request) -> str:
    return reverse("public:seat_request_status", args=[seat_request_status.status_token(request)])


def test_no_public_page_shows_an_email_address(upcoming, organiser):
    demo, tournament = upcoming
    ask(tournament, "Discrete", email=EMAIL)
    staff = en_client(organiser)
    request = SeatRequest.objects.get()
    assert request.email == EMAIL  # kept for the organiser (the next test)...
    done_page = ask(tournament, "Autre", email="autre@example.org").content.decode()
    assert "autre@example.org" not in done_page
    pages = [
        Client().get(reverse("public:club", args=[demo.club.slug])),
        Client().get(reverse("public:seat_request", args=[tournament.slug])),
    ]
    staff.post(
        reverse("tournaments:seat_requests", args=[tournament.slug]),
        {"action": "confirm", "request": request.pk},
    )
    pages += [
        staff.get(reverse("tournaments:players", args=[tournament.slug])),
        Client().get(reverse("public:home", args=[tournament.slug])),
        Client().get(seat_requests_status_url(request)),
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


def test_the_organiser_sees_the_email_with_a_mailto_link_and_in_the_export(
    upcoming, organiser, referee_of
):
    _, tournament = upcoming
    ask(tournament, "Joignable", email=EMAIL)
    ask(tournament, "Muet")
    staff = en_client(organiser)
    page = staff.get(reverse("tournaments:seat_requests", args=[tournament.slug])).content.decode()
    assert f'href="mailto:{EMAIL}"' in page
    export = staff.get(reverse("tournaments:seat_requests_export", args=[tournament.slug]))
    assert export.status_code == 200 and export["Content-Type"].startswith("text/csv")
    lines = export.content.decode().splitlines()
    assert lines[0].split(",")[4] == "e-mail"
    assert lines[1].split(",")[:6] == ["Joignable", "Anne", "", "", EMAIL, "seat held"]
    assert lines[2].split(",")[:6] == ["Muet", "Anne", "", "", "", "seat held"]
    # A referee of the tournament sees neither the page nor the export.
    referee = en_client(referee_of(tournament))
    for name in ("tournaments:seat_requests", "tournaments:seat_requests_export"):
        assert referee.get(reverse(name, args=[tournament.slug])).status_code == 404


def test_the_requester_follows_the_request_by_a_private_link(upcoming, organiser):
    _, tournament = upcoming
    done = ask(tournament, "Suivi", email=EMAIL).content.decode()
    request = SeatRequest.objects.get(last_name="Suivi")
    # The link the page gave (its token is signed with the second it was made: the test reads
    # it from the page rather than make another one, which a new second would change).
    links = re.findall(r'href="https?://[^/"]+(/demande/([^"/]+)/)"', done)
    assert len(links) == 1
    url, token = links[0]
    assert seat_request_status.by_status_token(token) == request
    reader = Client(HTTP_ACCEPT_LANGUAGE="en")

    def status():
        page = reader.get(url)
        assert page.status_code == 200 and EMAIL not in page.content.decode()
        assert page["Cache-Control"].startswith("max-age=0") or "no-cache" in page["Cache-Control"]
        return page.content.decode()

    assert "Anne Suivi: a seat is held for you until the organiser confirms." in status()
    ask(tournament, "Autre")
    ask(tournament, "Avant")  # waiting 1
    staff = en_client(organiser)
    admin_url = reverse("tournaments:seat_requests", args=[tournament.slug])
    staff.post(admin_url, {"action": "refuse", "request": request.pk})
    assert "Anne Suivi: refused by the organiser." in status()
    late = SeatRequest.objects.get(last_name="Avant")
    ask(tournament, "Dernier")
    last = SeatRequest.objects.get(last_name="Dernier")
    assert (
        "Anne Dernier: on the waiting list, number 1."
        in reader.get(seat_requests_status_url(last)).content.decode()
    )
    staff.post(admin_url, {"action": "confirm", "request": late.pk})
    assert "Anne Avant: confirmed." in reader.get(seat_requests_status_url(late)).content.decode()
    # A link nobody was given opens nothing.
    forged = reverse("public:seat_request_status", args=[f"{late.pk}:forged"])
    assert reader.get(forged).status_code == 404
    other = reverse("public:seat_request_status", args=["x" * 40])
    assert reader.get(other).status_code == 404


def test_an_ipv6_household_counts_as_one_connection(upcoming):
    _, tournament = upcoming
    services.tournament_update(tournament=tournament, capacity=30)
    for i in range(seat_requests.PER_HOUR):
        client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=f"2001:db8:1:2::{i + 1:x}")
        assert ask(tournament, f"Joueur{i}", client=client).status_code == 200
    neighbour = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="2001:db8:1:2:ffff::9")
    refused = ask(tournament, "EnTrop", client=neighbour)
    assert refused.status_code == 422
    assert "Too many requests from this connection" in refused.content.decode()
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="2001:db8:1:3::1")
    assert ask(tournament, "Ailleurs", client=elsewhere).status_code == 200


def test_a_connection_sends_at_most_ten_requests_a_day(upcoming):
    _, tournament = upcoming
    services.tournament_update(tournament=tournament, capacity=30)
    client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.7")
    for hours_ago in (7, 3):
        for i in range(seat_requests.PER_HOUR):
            assert ask(tournament, f"J{hours_ago}x{i}", client=client).status_code == 200
        SeatRequest.objects.filter(created_at__gte=timezone.now() - timedelta(minutes=5)).update(
            created_at=timezone.now() - timedelta(hours=hours_ago)
        )
    refused = ask(tournament, "EnTrop", client=client)
    assert refused.status_code == 422
    assert "Too many requests from this connection" in refused.content.decode()
    assert SeatRequest.objects.count() == seat_requests.PER_DAY
    SeatRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert ask(tournament, "Lendemain", client=client).status_code == 200


def test_the_waiting_list_has_a_cap(upcoming):
    _, tournament = upcoming  # 2 seats: the waiting list holds 10
    for i in range(2 + seat_requests.WAITING_MIN):
        client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=f"198.51.100.{i + 1}")
        assert ask(tournament, f"Joueur{i}", client=client).status_code == 200
    client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="203.0.113.1")
    refused = ask(tournament, "EnTrop", client=client)
    assert refused.status_code == 422
    assert "The waiting list is full (10 requests): ask the club." in refused.content.decode()
    assert 'value="EnTrop"' in refused.content.decode()
    assert SeatRequest.objects.count() == 12


def test_confirming_a_waiting_request_ahead_of_the_holders_asks_first(upcoming, organiser):
    _, tournament = upcoming
    for name in ("Premier", "Second", "Troisieme"):
        ask(tournament, name)
    third = SeatRequest.objects.get(last_name="Troisieme")
    staff = en_client(organiser)
    url = reverse("tournaments:seat_requests", args=[tournament.slug])
    page = staff.get(url).content.decode()
    assert "Confirm ahead (Anne Second moves to the waiting list)" in page
    refused = staff.post(url, {"action": "confirm", "request": third.pk}, follow=True)
    assert (
        "Anne Troisieme is on the waiting list: confirming it now would move Anne Second, who "
        "holds a seat, to the waiting list." in refused.content.decode()
    )
    assert SeatRequest.objects.get(pk=third.pk).status == SeatRequest.Status.PENDING
    done = staff.post(url, {"action": "confirm_ahead", "request": third.pk}, follow=True)
    assert "Anne Troisieme is registered." in done.content.decode()
    assert "Anne Second moves to the waiting list." in done.content.decode()
    assert [(q.request.last_name, q.waiting) for q in seat_request_status.queue(tournament)] == [
        ("Premier", 0),
        ("Second", 1),
    ]


@pytest.mark.django_db(transaction=True)
def test_ten_requests_at_once_from_one_connection_pass_five(upcoming, organiser):
    """Sent at once to two open tournaments (each locks only its own row)."""
    _, tournament = upcoming
    services.tournament_update(tournament=tournament, capacity=30)
    other = services.tournament_create(
        created_by=organiser, name="Autre tournoi", date=tournament.date
    )
    other = services.tournament_update(tournament=other, capacity=30)
    calls = [
        (
            lambda i=i: seat_requests.request_seat(
                tournament=(tournament, other)[i % 2],
                last_name=f"Rafale{i}",
                first_name="Anne",
                client="198.51.100.77",
            )
        )
        for i in range(10)
    ]
    results = race(*calls)
    assert sum(1 for r in results if r and r[0] == "ok") == seat_requests.PER_HOUR
    assert SeatRequest.objects.filter(client="198.51.100.77").count() == seat_requests.PER_HOUR

"""The halls' pages: the organiser's halls page (what is typed is kept and every bad line named),
one hall's round page (a referee's opens on their hall), seating plan, table cards and TV."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.demo import create_demo
from tournaments import services
from tournaments.halls.models import Hall, HallPlan
from tournaments.halls.services import HallRow, halls_set, referee_hall_set
from tournaments.models import Seat, StaffMember

from .conftest import en_client, make_tournament, make_user

pytestmark = pytest.mark.django_db

HALLS = [HallRow("Salle Pourny", "pourny", 1, 2), HallRow("Salle des Capucins", "capucins", 11, 13)]


def seated_in_halls(players=16):
    tournament = make_tournament(players, rounds=1)
    halls_set(tournament=tournament, halls=HALLS, keep_players=True)
    services.round_seat_next(tournament=tournament)
    return tournament


def referee_of(tournament, hall_slug=None, name="arb-salle"):
    user = make_user(f"{name}-{tournament.pk}")
    staff = StaffMember.objects.create(tournament=tournament, user=user, role="referee")
    if hall_slug:
        referee_hall_set(staff=staff, hall=Hall.objects.get(tournament=tournament, slug=hall_slug))
    return en_client(user)


def test_the_organiser_sets_the_halls_one_a_line(organiser_client, tournament):
    url = reverse("tournaments:halls", args=[tournament.slug])
    assert organiser_client.get(url).status_code == 200
    response = organiser_client.post(
        url,
        {
            "halls": "Salle Pourny : tables 1-60\nSalle des Capucins : tables 61–125",
            "keep_players": "on",
        },
    )
    assert response.status_code == 302
    assert list(Hall.objects.filter(tournament=tournament).values_list("name", "slug")) == [
        ("Salle Pourny", "pourny"),
        ("Salle des Capucins", "des-capucins"),
    ]
    assert HallPlan.objects.get(tournament=tournament).keep_players is True
    page = organiser_client.get(url).content.decode()
    assert "Salle Pourny : tables 1-60" in page
    assert "?salle=pourny" in page


def test_bad_lines_are_named_and_what_was_typed_is_kept(organiser_client, tournament):
    url = reverse("tournaments:halls", args=[tournament.slug])
    typed = "Salle Pourny : tables 1-60\nCapucins 61 125\nSalle C : tables 50-70"
    response = organiser_client.post(url, {"halls": typed})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Line 2: write « name : tables first-last »" in page
    assert "Capucins 61 125" in page
    assert not Hall.objects.filter(tournament=tournament).exists()
    response = organiser_client.post(url, {"halls": "Pourny : 1-60\nCapucins : 50-70"})
    assert response.status_code == 422
    assert "Halls “pourny” and “capucins” both hold table 50." in response.content.decode()
    assert not Hall.objects.filter(tournament=tournament).exists()


def test_a_referee_cannot_set_the_halls(referee_client, tournament):
    url = reverse("tournaments:halls", args=[tournament.slug])
    assert referee_client.get(url).status_code == 404
    assert referee_client.post(url, {"halls": "A : 1-2"}).status_code == 404


def test_the_organiser_assigns_a_referee_to_a_hall(organiser_client, tournament, referee):
    halls_set(tournament=tournament, halls=HALLS, keep_players=True)
    staff = StaffMember.objects.get(tournament=tournament, user=referee)
    capucins = Hall.objects.get(tournament=tournament, slug="capucins")
    url = reverse("tournaments:halls", args=[tournament.slug])
    response = organiser_client.post(url, {"staff": staff.pk, "hall": capucins.pk})
    assert response.status_code == 302
    assert staff.hall_assignment.hall == capucins


def test_a_referees_round_page_opens_on_their_hall():
    tournament = seated_in_halls()
    client = referee_of(tournament, "capucins")
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    response = client.get(url)
    assert [t.table.number for t in response.context["tables"]] == [11, 12]
    page = response.content.decode()
    assert "— Salle des Capucins</h1>" in page
    assert "?salle=capucins" in page  # the plan and the cards of this hall
    every = client.get(url + "?salle=toutes")
    assert [t.table.number for t in every.context["tables"]] == [1, 2, 11, 12]
    other = client.get(url + "?salle=pourny")
    assert [t.table.number for t in other.context["tables"]] == [1, 2]


@pytest.mark.parametrize("players", [12, 20])
def test_one_halls_round_page_query_count_is_constant(players, django_assert_num_queries):
    tournament = seated_in_halls(players)
    client = referee_of(tournament, "pourny")
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    client.get(url)
    with django_assert_num_queries(15):  # the round page's 13, the halls, the referee's hall
        response = client.get(url)
    assert [t.table.number for t in response.context["tables"]] == [1, 2]


def pdf_text(response) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


@pytest.mark.parametrize("kind", ["plan", "cards"])
def test_one_halls_seating_plan_and_table_cards(kind):
    tournament = seated_in_halls(20)
    client = referee_of(tournament)
    url = reverse("tournaments:round_pdf", args=[tournament.slug, 1, kind])
    response = client.get(url + "?salle=capucins")
    assert response.status_code == 200
    assert "capucins" in response["Content-Disposition"]
    text = pdf_text(response)
    assert "Salle des Capucins" in text
    numbers = {int(n) for n in re.findall(r"Table\s+(\d+)", text, re.IGNORECASE)}
    assert numbers and numbers <= {11, 12, 13}
    everything = pdf_text(client.get(url))
    assert {1, 2} <= {int(n) for n in re.findall(r"Table\s+(\d+)", everything, re.IGNORECASE)}


def test_one_halls_tv_shows_its_players_and_tables():
    tournament = seated_in_halls(16)
    client = en_client()
    url = reverse("public:tv", args=[tournament.slug])
    response = client.get(url + "?salle=pourny")
    assert response.status_code == 200
    page = response.content.decode()
    assert "— Salle Pourny</h1>" in page
    pourny = set(
        tournament.round_set.get()
        .seats.filter(table__number__lte=2)
        .values_list("registration_id", flat=True)
    )
    shown = {int(n) for n in re.findall(r'class="tv-row" data-id="(\d+)"', page)}
    assert shown == pourny
    assert "still playing: tables 1, 2</p>" in page
    whole = client.get(url).content.decode()
    assert "still playing: tables 1, 2, 11, 12</p>" in whole
    assert len(re.findall(r'class="tv-row" data-id="', whole)) == 16
    unknown = client.get(url + "?salle=nowhere").content.decode()
    assert len(re.findall(r'class="tv-row" data-id="', unknown)) == 16


def test_one_halls_tv_in_a_team_event_ranks_the_teams_with_a_member_there():
    tournament = create_demo(
        players=16, rounds=2, deals=2, teams=2, seed=3, play_rounds=1, halls=HALLS
    ).tournament
    client = en_client()
    url = reverse("public:tv", args=[tournament.slug])
    seats = Seat.objects.filter(round__tournament=tournament).select_related(
        "registration", "table"
    )
    halls_of_team: dict[int, set[str]] = {}
    for seat in seats:
        hall = "pourny" if seat.table.number <= 2 else "capucins"
        halls_of_team.setdefault(seat.registration.team_id, set()).add(hall)
    assert {len(halls) for halls in halls_of_team.values()} == {1, 2}  # some teams in both halls
    for slug in ("pourny", "capucins"):
        page = client.get(f"{url}?salle={slug}").content.decode()
        shown = {int(n) for n in re.findall(r'data-id="team-(\d+)"', page)}
        assert shown == {team for team, halls in halls_of_team.items() if slug in halls}
    whole = client.get(url).content.decode()
    assert {int(n) for n in re.findall(r'data-id="team-(\d+)"', whole)} == set(halls_of_team)

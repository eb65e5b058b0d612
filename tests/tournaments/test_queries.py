"""Staff pages make a fixed number of SQL queries, whatever the number of players or tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import StaffMember

from .conftest import add_teams, en_client, make_tournament, make_user

pytestmark = pytest.mark.django_db


def staffed(tournament):
    referee = make_user(f"arb-q-{tournament.pk}")
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    client = en_client(referee)
    return client


@pytest.mark.parametrize("players", [8, 24])
def test_players_page_query_count_is_constant(players, django_assert_num_queries):
    tournament = make_tournament(players, rounds=1)
    services.round_seat_next(tournament=tournament)
    client = staffed(tournament)
    url = reverse("tournaments:players", args=[tournament.slug])
    client.get(url)  # warm up the session
    # 6: with the licensee list's names and clubs (tournaments.licensees), in one query.
    with django_assert_num_queries(6):
        response = client.get(url)
    assert len(response.context["registrations"]) == players


@pytest.mark.parametrize("teams", [4, 12])
def test_players_page_of_a_team_tournament_query_count_is_constant(
    teams, django_assert_num_queries
):
    tournament = make_tournament(0, format="teams_2", rounds=1)
    add_teams(tournament, teams)
    client = staffed(tournament)
    url = reverse("tournaments:players", args=[tournament.slug])
    client.get(url)
    with django_assert_num_queries(6):  # as above, with the licensee list's
        response = client.get(url)
    assert len(response.context["registrations"]) == 2 * teams


@pytest.mark.parametrize("players", [8, 24])
def test_round_page_query_count_is_constant(players, django_assert_num_queries):
    """Also what the page's live updates fetch every 10 s."""
    tournament = make_tournament(players, rounds=1)
    services.round_seat_next(tournament=tournament)
    client = staffed(tournament)
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    client.get(url)
    # 14: with the tournament's halls (tournaments.halls.pages), none here.
    with django_assert_num_queries(14):
        response = client.get(url)
    assert len(response.context["tables"]) == players // 4


@pytest.mark.parametrize("players", [8, 24])
def test_dashboard_query_count_is_constant(players, django_assert_num_queries):
    tournament = make_tournament(players, rounds=2)
    client = staffed(tournament)
    url = reverse("tournaments:dashboard", args=[tournament.slug])
    client.get(url)
    # 10: the end-of-tournament card asks whether a round is still open and whether any exists;
    # 11: whether it is a championship's stage (a link to it).
    with django_assert_num_queries(11):
        client.get(url)


@pytest.mark.parametrize("players", [8, 24])
@pytest.mark.parametrize("kind", ["plan", "cards"])
def test_printing_query_count_is_constant(players, kind, django_assert_num_queries):
    tournament = make_tournament(players, rounds=1)
    services.round_seat_next(tournament=tournament)
    client = staffed(tournament)
    url = reverse("tournaments:round_pdf", args=[tournament.slug, 1, kind])
    client.get(url)
    with django_assert_num_queries(7):
        client.get(url)

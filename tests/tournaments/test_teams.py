"""Team tournaments: a team registers with exactly its size, all members or none."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.models import Player, Registration, StaffMember, Team

from .conftest import en_client, make_tournament, make_user

pytestmark = pytest.mark.django_db


def counts():
    return (Team.objects.count(), Player.objects.count(), Registration.objects.count())


def team_post(name, members, present=False):
    data = {"name": name}
    if present:
        data["present"] = "on"
    for i, (last, first, licence) in enumerate(members):
        data.update(
            {
                f"last_name_{i}": last,
                f"first_name_{i}": first,
                f"club_{i}": "Les Bouts d'Annecy",
                f"licence_{i}": licence,
            }
        )
    return data


@pytest.fixture
def organiser_client_for():
    def build(fmt):
        organiser = make_user(f"orga-{fmt}", organiser=True)
        tournament = make_tournament(0, organiser=organiser, format=fmt)
        return tournament, en_client(organiser)

    return build


@pytest.mark.parametrize(("fmt", "size"), [("teams_2", 2), ("teams_4", 4)])
def test_register_a_team_through_the_page(organiser_client_for, fmt, size):
    tournament, client = organiser_client_for(fmt)
    url = reverse("tournaments:players", args=[tournament.slug])
    form = client.get(url).context["form"]
    assert len(form.members) == size

    members = [(f"Membre{i}", "Lou", f"T{i}") for i in range(size)]
    response = client.post(url, team_post("Les Rois", members, present=True))
    assert response.status_code == 302
    team = Team.objects.get(tournament=tournament)
    assert team.name == "Les Rois"
    registrations = list(team.members.order_by("last_name"))
    assert [r.last_name for r in registrations] == [m[0] for m in members]
    assert {r.status for r in registrations} == {"present"}
    assert {r.club_name for r in registrations} == {"Les Bouts d'Annecy"}


def test_team_with_a_missing_member_is_refused(organiser_client_for):
    tournament, client = organiser_client_for("teams_4")
    members = [("Un", "", ""), ("Deux", "", ""), ("Trois", "", ""), ("", "", "")]
    response = client.post(
        reverse("tournaments:players", args=[tournament.slug]), team_post("Incomplète", members)
    )
    assert response.status_code == 422
    assert "last_name_3" in response.context["form"].errors
    assert counts() == (0, 0, 0)


@pytest.mark.parametrize("count", [1, 3, 5])
def test_service_refuses_a_wrong_number_of_members(count):
    tournament = make_tournament(0, format="teams_4")
    rows = [services.PlayerRow(last_name=f"M{i}") for i in range(count)]
    given = "was given" if count == 1 else "were given"
    with pytest.raises(ServiceError, match=f"A team has 4 players; {count} {given}") as error:
        services.team_register(tournament=tournament, name="Bancale", members=rows)
    assert error.value.field == "members"
    assert counts() == (0, 0, 0)


def test_duplicate_team_name_is_refused(organiser_client_for):
    tournament, client = organiser_client_for("teams_2")
    url = reverse("tournaments:players", args=[tournament.slug])
    client.post(url, team_post("Les As", [("A1", "", ""), ("A2", "", "")]))
    before = counts()
    response = client.post(url, team_post("Les As", [("B1", "", ""), ("B2", "", "")]))
    assert response.status_code == 422
    assert "already exists" in response.context["form"].errors["name"][0]
    assert counts() == before == (1, 2, 2)
    # What was typed stays in the form.
    assert response.context["form"]["last_name_1"].value() == "B2"


def test_a_refused_member_rolls_back_the_whole_team(organiser_client_for):
    """The second member's licence is already registered: no team, no first member either."""
    tournament, client = organiser_client_for("teams_2")
    url = reverse("tournaments:players", args=[tournament.slug])
    client.post(url, team_post("Premiers", [("Garcia", "", "999"), ("Roux", "", "")]))
    before = counts()
    response = client.post(url, team_post("Seconds", [("Neuf", "", "N1"), ("Garcia", "", "999")]))
    assert response.status_code == 422
    assert "999 is already registered" in str(response.context["form"].errors)
    assert counts() == before
    assert not Player.objects.filter(licence="N1").exists()


def test_two_members_with_the_same_licence_are_refused():
    tournament = make_tournament(0, format="teams_2")
    rows = [
        services.PlayerRow(last_name="Jumeau", licence="42"),
        services.PlayerRow(last_name="Jumeau", licence="42"),
    ]
    with pytest.raises(ServiceError):
        services.team_register(tournament=tournament, name="Doublon", members=rows)
    assert counts() == (0, 0, 0)


def test_team_name_is_required():
    tournament = make_tournament(0, format="teams_2")
    rows = [services.PlayerRow(last_name="A"), services.PlayerRow(last_name="B")]
    with pytest.raises(ServiceError, match="team name is missing"):
        services.team_register(tournament=tournament, name="   ", members=rows)
    assert counts() == (0, 0, 0)


def test_individual_tournament_has_no_teams():
    tournament = make_tournament(0)
    rows = [services.PlayerRow(last_name="A"), services.PlayerRow(last_name="B")]
    with pytest.raises(ServiceError, match="individual"):
        services.team_register(tournament=tournament, name="Hors sujet", members=rows)
    assert counts() == (0, 0, 0)


def test_referee_registers_a_late_team(organiser_client_for):
    tournament, _ = organiser_client_for("teams_2")
    referee = make_user("arbitre-equipes")
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    response = en_client(referee).post(
        reverse("tournaments:players", args=[tournament.slug]),
        team_post("Tardifs", [("T1", "", ""), ("T2", "", "")], present=True),
    )
    assert response.status_code == 302
    assert set(Team.objects.get(name="Tardifs").members.values_list("status", flat=True)) == {
        "present"
    }

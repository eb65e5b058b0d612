"""The club's staff pages as an organiser uses them: a club page, a season and its formula, the
season's tournaments; a bad formula is refused on its field, keeps what was typed and writes
nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.conftest import en_client, make_tournament, make_user
from tournaments.models import Club, Player, Season

pytestmark = pytest.mark.django_db


def test_an_organiser_makes_a_club_page_and_a_season(organiser):
    client = en_client(organiser)
    response = client.post(reverse("tournaments:clubs"), {"name": "Les Excuses", "place": "Caen"})
    club = Club.objects.get(name="Les Excuses")
    assert response["Location"] == reverse("tournaments:club", args=[club.slug])
    assert list(club.organisers.all()) == [organiser]
    response = client.post(
        reverse("tournaments:club", args=[club.slug]),
        {
            "action": "season",
            "season-name": "Saison 2026-2027",
            "season-start": "2026-09-01",
            "season-end": "2027-06-30",
            "season-kind": "places",
            "season-best": "8",
            "season-place_points": "50, 40, 30",
            "season-scale_to": "0",
            "season-attendance_bonus": "5",
            "season-tie_breaks": "best_place",
        },
    )
    season = Season.objects.get(club=club)
    assert response["Location"] == reverse("tournaments:season", args=[club.slug, season.pk])
    assert season.formula.place_points == (50, 40, 30) and season.formula.best == 8
    # Their own tournament joins the season; the public page ranks it.
    tournament = make_tournament(0, organiser=organiser)
    client.post(
        reverse("tournaments:season", args=[club.slug, season.pk]),
        {"action": "add", "tournament": tournament.pk},
    )
    tournament.refresh_from_db()
    assert tournament.season_id == season.pk
    page = en_client().get(reverse("public:season", args=[club.slug, season.pk])).content.decode()
    assert "1st 50, 2nd 40, 3rd 30; any place after the 3rd: 0." in page
    assert "Only each player&#x27;s 8 best results count." in page


def test_a_bad_formula_is_refused_on_its_field_and_keeps_what_was_typed(season_of, organiser):
    demo = season_of(1, players=8)
    season = demo.season
    data = {
        "action": "formula",
        "name": season.name,
        "start": season.start.isoformat(),
        "end": season.end.isoformat(),
        "kind": "places",
        "best": "0",
        "place_points": "100, 120, 80",
        "scale_to": "0",
        "attendance_bonus": "0",
        "tie_breaks": "",
    }
    url = reverse("tournaments:season", args=[demo.club.slug, season.pk])
    client = en_client(organiser)
    response = client.post(url, data)
    assert response.status_code == 422
    assert response.context["form"].errors == {
        "place_points": ["A place cannot be worth more than the place before it."]
    }
    assert 'value="100, 120, 80"' in response.content.decode()
    assert Season.objects.get(pk=season.pk).place_points == season.place_points
    # In French, the message is French.
    client.cookies.load({"django_language": "fr"})
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Une place ne peut pas valoir plus que la place précédente." in response.content.decode()


def test_another_clubs_organiser_sees_nothing(season_of):
    demo = season_of(1, players=8)
    stranger = en_client(make_user("autre-orga", organiser=True))
    assert stranger.get(reverse("tournaments:club", args=[demo.club.slug])).status_code == 404
    url = reverse("tournaments:season", args=[demo.club.slug, demo.season.pk])
    assert stranger.get(url).status_code == 404
    assert (
        stranger.post(url, {"action": "remove", "tournament": demo.tournaments[0].pk}).status_code
        == 404
    )
    demo.tournaments[0].refresh_from_db()
    assert demo.tournaments[0].season_id == demo.season.pk


def test_a_clubs_organisers_add_and_remove_one_another(season_of, organiser):
    demo = season_of(1, players=8)
    club = demo.club
    url = reverse("tournaments:club", args=[club.slug])
    client = en_client(organiser)
    second = make_user("secretaire", organiser=True)
    make_user("joueur-sans-droit")  # not an organiser account: not offered
    page = client.get(url)
    offered = [u.username for u in page.context["organiser_form"].fields["user"].queryset]
    assert offered == ["secretaire"]
    # The club's members: the player records naming the club, with their licence.
    member = Player.objects.filter(club=club).exclude(licence="").first()
    assert f"Members ({Player.objects.filter(club=club).count()})" in page.content.decode()
    assert member.licence in page.content.decode()
    # A lone organiser cannot leave the club without one.
    response = client.post(url, {"action": "organiser-remove", "user": organiser.pk}, follow=True)
    assert "A club keeps at least one organiser" in response.content.decode()
    assert list(club.organisers.all()) == [organiser]
    # An account that is not an organiser is refused on the field, nothing written.
    stranger = get_user_model().objects.get(username="joueur-sans-droit")
    response = client.post(url, {"action": "organiser-add", "organiser-user": stranger.pk})
    assert response.status_code == 422 and "user" in response.context["organiser_form"].errors
    response = client.post(url, {"action": "organiser-add", "organiser-user": second.pk})
    assert response.status_code == 302
    assert set(club.organisers.all()) == {organiser, second}
    # The new organiser manages the club and its seasons, and no tournament of it.
    other = en_client(second)
    assert other.get(url).status_code == 200
    season_url = reverse("tournaments:season", args=[club.slug, demo.season.pk])
    assert other.get(season_url).status_code == 200
    tournament_page = reverse("tournaments:players", args=[demo.tournaments[0].slug])
    assert other.get(tournament_page).status_code == 404
    # ... and may take the first one off (in French, the message is French).
    response = other.post(
        url, {"action": "organiser-remove", "user": organiser.pk}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.status_code == 302
    assert list(club.organisers.all()) == [second]
    assert client.get(url).status_code == 404


def test_another_clubs_organiser_cannot_add_themselves(season_of):
    demo = season_of(1, players=8)
    stranger = make_user("intrus", organiser=True)
    url = reverse("tournaments:club", args=[demo.club.slug])
    response = en_client(stranger).post(
        url, {"action": "organiser-add", "organiser-user": stranger.pk}
    )
    assert response.status_code == 404
    assert stranger not in demo.club.organisers.all()


def test_french_words_on_the_organisers(season_of, organiser):
    demo = season_of(1, players=8)
    client = en_client(organiser)
    client.cookies.load({"django_language": "fr"})
    url = reverse("tournaments:club", args=[demo.club.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Organisateurs" in page and "Membres (" in page
    response = client.post(
        url,
        {"action": "organiser-remove", "user": organiser.pk},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert "Un club garde au moins un organisateur" in response.content.decode()

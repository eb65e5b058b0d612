"""Claiming a club: an organiser who types the name of a club that others already know (its
organiser, or players registered in other organisers' tournaments) does not take it. The claim
waits for an answer; until then the claimant sees only the members they registered themselves."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarot_club.errors import ServiceError
from tests.tournaments.conftest import en_client, make_tournament, make_user
from tournaments import services
from tournaments.models import Club, ClubClaim
from tournaments.services import clubs

pytestmark = pytest.mark.django_db


def register(tournament, last_name, licence, club="Tarot Club de Nantes"):
    return services.player_register(
        tournament=tournament,
        row=services.PlayerRow(last_name=last_name, first_name="Eva", club=club, licence=licence),
    )


@pytest.fixture
def nantes():
    """A club of the player register: another organiser registered two of its players."""
    other = make_user("autre-orga", organiser=True)
    theirs = make_tournament(0, organiser=other)
    register(theirs, "Secrète", "0400001")
    register(theirs, "Cachée", "0400002")
    return other


def test_a_club_whose_players_others_registered_is_claimed_not_taken(nantes):
    claimant = make_user("nouvel-orga", organiser=True)
    mine = make_tournament(0, organiser=claimant)
    register(mine, "Mienne", "0400003")
    client = en_client(claimant)
    response = client.post(reverse("tournaments:clubs"), {"name": "Tarot Club de Nantes"})
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:clubs")
    club = Club.objects.get(name="Tarot Club de Nantes")
    # The club is not taken: no page, no organiser.
    assert club.slug is None and not club.organisers.exists()
    claim = ClubClaim.objects.get(club=club)
    assert (claim.claimant, claim.status) == (claimant, ClubClaim.Status.PENDING)
    page = client.get(reverse("tournaments:clubs")).content.decode()
    assert "your claim waits for its organiser&#x27;s answer" in page
    # Its members list: only the player the claimant registered, no other licence.
    assert "Mienne" in page and "0400003" in page
    for hidden in ("Secrète", "0400001", "Cachée", "0400002"):
        assert hidden not in page
    # The organiser who registered its players sees the claim and accepts it.
    other = en_client(nantes)
    page = other.get(reverse("tournaments:clubs")).content.decode()
    assert "nouvel-orga asks to organise Tarot Club de Nantes." in page
    response = other.post(
        reverse("tournaments:clubs"), {"action": "claim-accept", "claim": claim.pk}
    )
    assert response.status_code == 302
    club.refresh_from_db()
    claim.refresh_from_db()
    assert club.slug and list(club.organisers.all()) == [claimant]
    assert (claim.status, claim.decided_by, claim.decided_at is not None) == (
        ClubClaim.Status.ACCEPTED,
        nantes,
        True,
    )
    page = en_client(claimant).get(reverse("tournaments:club", args=[club.slug])).content
    assert b"0400001" in page and "Secrète".encode() in page


def test_a_club_with_an_organiser_needs_that_organiser_to_accept(organiser):
    club = clubs.club_create(name="Les Petits", place="Caen", organiser=organiser)
    claimant = make_user("nouvel-orga", organiser=True)
    client = en_client(claimant)
    response = client.post(reverse("tournaments:clubs"), {"name": "Les Petits"})
    assert response.status_code == 302
    claim = ClubClaim.objects.get(club=club, status=ClubClaim.Status.PENDING)
    # The claimant cannot reach the club's page until accepted.
    assert client.get(reverse("tournaments:club", args=[club.slug])).status_code == 404
    # Asking twice says so, in the form, with what was typed kept.
    response = client.post(reverse("tournaments:clubs"), {"name": "Les Petits"})
    assert response.status_code == 422
    assert response.context["form"].errors == {
        "name": ["Your claim on this club is already waiting for an answer."]
    }
    # The claimant cannot answer their own claim, nor can an outsider.
    for who in (claimant, make_user("intrus", organiser=True)):
        with pytest.raises(ServiceError):
            clubs.club_claim_answer(claim=claim, user=who, accept=True)
    # Nor through the page: an outsider's « Accept » is refused and changes nothing.
    intruder = en_client(make_user("intrus2", organiser=True))
    response = intruder.post(
        reverse("tournaments:clubs"), {"action": "claim-accept", "claim": claim.pk}, follow=True
    )
    assert "Choose one of the claims listed." in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == ClubClaim.Status.PENDING and list(club.organisers.all()) == [organiser]
    # The club's organiser sees it on the club page and refuses it.
    owner = en_client(organiser)
    url = reverse("tournaments:club", args=[club.slug])
    assert "nouvel-orga asks to organise Les Petits." in owner.get(url).content.decode()
    owner.post(url, {"action": "claim-refuse", "claim": claim.pk})
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by) == (ClubClaim.Status.REFUSED, organiser)
    assert list(club.organisers.all()) == [organiser]
    assert client.get(url).status_code == 404
    # An answered claim cannot be answered again.
    with pytest.raises(ServiceError):
        clubs.club_claim_answer(claim=claim, user=organiser, accept=True)


def test_a_club_nobody_else_knows_is_created_as_before(organiser):
    mine = make_tournament(0, organiser=organiser)
    register(mine, "Mienne", "0400003", club="Club Neuf")
    client = en_client(organiser)
    response = client.post(reverse("tournaments:clubs"), {"name": "Club Neuf"})
    club = Club.objects.get(name="Club Neuf")
    assert response["Location"] == reverse("tournaments:club", args=[club.slug])
    assert list(club.organisers.all()) == [organiser] and not ClubClaim.objects.exists()


def test_claim_messages_are_french(nantes):
    claimant = make_user("nouvel-orga", organiser=True)
    client = en_client(claimant)
    client.cookies.load({"django_language": "fr"})
    response = client.post(
        reverse("tournaments:clubs"),
        {"name": "Tarot Club de Nantes"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    page = response.content.decode()
    assert "votre demande attend la réponse de son organisateur" in page
    page = en_client(nantes)
    page.cookies.load({"django_language": "fr"})
    text = page.get(reverse("tournaments:clubs"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "nouvel-orga demande à organiser Tarot Club de Nantes." in text

"""What a tournament showed, printed and sealed never changes afterwards.

Each registration keeps the player's name, club and licence of its day: a later tournament
(the player changed club, or another tournament's staff typed their licence with another
club) changes neither the earlier tournament's standings, pages and sheets, nor its seals and
archive.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.archive import export_json, import_json
from scoring.demo import create_demo
from scoring.models import ScoreSheet, SheetSeal
from scoring.selectors import current_canonical
from scoring.standings import standings_data
from tournaments import services
from tournaments.models import Player, Registration, StaffMember, Tournament

from .conftest import en_client, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def earlier(db):
    """Tournament B: played, every sheet signed with PINs (sealed)."""
    return create_demo(players=8, rounds=1, deals=2, seed=17, play_rounds=1).tournament


def shown(tournament: Tournament, client) -> dict:
    """What the earlier tournament shows and seals: standings (name, club), a player's page,
    each seal's verification, its sheets' fingerprints, its archive."""
    standings = sorted((s.entry.name, s.entry.club) for s in standings_data(tournament).standings())
    seals = {
        seal.code: client.get(reverse("verify_code", args=[seal.code])).context["matches"]
        for seal in SheetSeal.objects.filter(sheet__table__round__tournament=tournament)
    }
    fingerprints = {
        sheet.pk: (sheet.fingerprint, current_canonical(sheet)[0])
        for sheet in ScoreSheet.objects.filter(table__round__tournament=tournament)
    }
    archive = json.loads(export_json(tournament))
    return {
        "standings": standings,
        "seals": seals,
        "fingerprints": fingerprints,
        "registrations": archive["registrations"],
    }


def test_another_tournaments_referee_cannot_rewrite_an_earlier_one(earlier):
    """The attack of the security review: a referee of A registers a late player with the
    licence of a player of B and another club, through A's players page."""
    referee = make_user("arbitre-a")
    later = make_tournament(organiser=make_user("orga-a", organiser=True), name="Tournoi A")
    StaffMember.objects.create(tournament=later, user=referee, role=StaffMember.Role.REFEREE)
    victim = Registration.objects.filter(tournament=earlier).exclude(club_name="").first()
    public = en_client()
    before = shown(earlier, public)
    assert before["seals"] and all(before["seals"].values())
    player_page = reverse("public:player", args=[earlier.slug, victim.pk])
    assert victim.club_name in public.get(player_page).content.decode()

    response = en_client(referee).post(
        reverse("tournaments:players", args=[later.slug]),
        {
            "last_name": victim.last_name,
            "first_name": victim.first_name,
            "club": "Club des Pirates",
            "licence": victim.licence,
            "present": "on",
        },
    )

    assert response.status_code == 302
    newcomer = Registration.objects.get(tournament=later, licence=victim.licence)
    assert newcomer.player_id == victim.player_id and newcomer.club_name == "Club des Pirates"
    after = shown(earlier, public)
    assert after == before
    page = public.get(player_page).content.decode()
    assert victim.club_name in page and "Pirates" not in page
    standings = public.get(reverse("public:standings", args=[earlier.slug])).content.decode()
    assert "Pirates" not in standings

    # B's archive still imports elsewhere, its seals intact.
    content = export_json(earlier)
    services.tournament_delete(tournament=earlier)
    imported = import_json(content)
    assert shown(imported, public)["standings"] == before["standings"]
    assert all(shown(imported, public)["seals"].values())


def test_a_player_who_changes_club_keeps_the_old_club_in_the_old_tournament(db):
    """Ordinary use: Zoé plays the spring open for Club A, then the summer open for Club B."""
    spring = make_tournament(3, name="Open de printemps")
    summer = make_tournament(3, name="Open d'été")
    row = services.PlayerRow(last_name="Roux", first_name="Zoé", club="Club A", licence="990001")
    zoe = services.player_register(tournament=spring, row=row, present=True)
    spring.refresh_from_db()
    cached_until = spring.changed_at

    moved = services.PlayerRow(last_name="ROUX", first_name="Zoé", club="Club B", licence="990001")
    zoe_later = services.player_register(tournament=summer, row=moved, present=True)

    def page(registration):
        url = reverse("public:player", args=[registration.tournament.slug, registration.pk])
        return en_client().get(url).content.decode()

    assert "Club A" in page(zoe) and "Club B" not in page(zoe)
    assert "Club B" in page(zoe_later) and "Zoé ROUX" in page(zoe_later)
    spring.refresh_from_db()
    assert spring.changed_at == cached_until  # nothing of the spring open changed
    # The shared record is not the summer open's to change (issue 26): the next tournament
    # takes the register's club unless told otherwise.
    assert Player.objects.get(licence="990001").club.name == "Club A"
    autumn = make_tournament(name="Open d'automne")
    again = services.player_register(
        tournament=autumn, row=services.PlayerRow(last_name="Roux", licence="990001")
    )
    assert (again.full_name, again.club_name) == ("Zoé Roux", "Club A")


@pytest.mark.parametrize("how", ["form", "import"])
def test_a_referee_of_another_tournament_does_not_change_the_shared_player_record(db, how):
    """Issue 26: tournament A's referee registers B's player (by licence) with another club.
    A shows that club; the shared record, and so every tournament to come, keeps its own."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.security.conftest import client_for

    b_event = make_tournament(name="Open de B")
    services.player_register(
        tournament=b_event,
        row=services.PlayerRow(last_name="Roux", first_name="Zoé", club="Club B", licence="880001"),
    )
    a_event = make_tournament(name="Open de A")
    referee = make_user("arbitre-a")
    role = StaffMember.Role.ORGANISER if how == "import" else StaffMember.Role.REFEREE
    StaffMember.objects.create(tournament=a_event, user=referee, role=role)
    client = client_for(referee)
    if how == "form":
        response = client.post(
            reverse("tournaments:players", args=[a_event.slug]),
            {"last_name": "Roux", "first_name": "Zoé", "club": "Club A", "licence": "880001"},
        )
        assert response.status_code == 302
    else:
        url = reverse("tournaments:import", args=[a_event.slug])
        content = "nom;prénom;club;licence\nRoux;Zoé;Club A;880001\n".encode()
        preview = client.post(url, {"file": SimpleUploadedFile("j.csv", content)})
        assert client.post(url, {"confirm": preview.context["token"]}).status_code == 302
    (in_a,) = Registration.objects.filter(tournament=a_event)
    assert in_a.club_name == "Club A"  # what A shows
    player = Player.objects.get(licence="880001")
    assert player.club.name == "Club B"  # the shared record: unchanged
    assert Registration.objects.get(tournament=b_event).club_name == "Club B"

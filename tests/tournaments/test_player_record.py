"""Issue 15, players: the organiser corrects this tournament's record of a player, removes a
player who never played, merges a likely duplicate; duplicates are flagged at registration and
at import; the swap menus tell namesakes apart and offer no absent player."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.demo import create_demo
from tarot_club.errors import ServiceError
from tournaments import selectors, services
from tournaments.forms import SwapForm
from tournaments.models import Player, Registration

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def register(tournament, last, first="", club="", licence="", present=True):
    return services.player_register(
        tournament=tournament,
        row=services.PlayerRow(last_name=last, first_name=first, club=club, licence=licence),
        present=present,
    )


def correct_url(r):
    return reverse("tournaments:player_correct", args=[r.tournament.slug, r.pk])


def test_the_organiser_corrects_this_tournaments_record_only(organiser_client, tournament):
    earlier = make_tournament(name="Open d'hiver")
    register(earlier, "Roux", "Zoé", "Club A", "990001")
    zoe = register(tournament, "Roux", "Zoé", "Club A", "990001")

    response = organiser_client.post(
        correct_url(zoe),
        {"last_name": "Roux-Martin", "first_name": "Zoé", "club": "Club B", "licence": "990001"},
    )

    assert response.status_code == 302
    zoe.refresh_from_db()
    assert (zoe.full_name, zoe.club_name, zoe.licence) == ("Zoé Roux-Martin", "Club B", "990001")
    before = Registration.objects.get(tournament=earlier)
    assert (before.full_name, before.club_name) == ("Zoé Roux", "Club A")
    assert zoe.history.count() == 2  # the correction is kept in the history


def test_a_correction_keeps_what_was_typed_when_refused(organiser_client, tournament):
    other = make_tournament(name="Ailleurs")
    register(other, "Durand", "Luc", licence="770001")
    first = Registration.objects.filter(tournament=tournament).first()
    response = organiser_client.post(
        correct_url(first), {"last_name": "Nouveau", "first_name": "Nom", "licence": "770001"}
    )
    assert response.status_code == 422
    # The licence's holder in another tournament is not named (issue 26).
    assert "Licence 770001 belongs to another player" in response.content.decode()
    assert "Durand" not in response.content.decode()
    assert 'value="Nouveau"' in response.content.decode()
    first.refresh_from_db()
    assert first.last_name != "Nouveau"


def test_what_players_signed_cannot_be_corrected(db):
    tournament = create_demo(players=4, rounds=1, deals=1, seed=3, play_rounds=1).tournament
    signed = Registration.objects.filter(tournament=tournament).first()
    with pytest.raises(ServiceError, match="signed score sheets"):
        services.registration_correct(
            registration=signed,
            row=services.PlayerRow(last_name="Autre", club="Autre club", licence=signed.licence),
        )
    assert Registration.objects.get(pk=signed.pk).last_name == signed.last_name


def test_a_player_who_never_sat_is_removed_a_seated_one_is_not(tournament, seated_round):
    late = register(tournament, "Retard", "Rémi")
    services.registration_remove(registration=late)
    assert not Registration.objects.filter(pk=late.pk).exists()
    seated = seated_round.seats.first().registration
    with pytest.raises(ServiceError, match="withdraw them instead"):
        services.registration_remove(registration=seated)
    assert Registration.objects.filter(pk=seated.pk).exists()


def test_namesakes_and_licences_are_flagged_and_merged(organiser_client, tournament):
    helene = register(tournament, "Lefèvre", "Hélène", "Excuse d'Évry", "0412345")
    response = organiser_client.post(
        reverse("tournaments:players", args=[tournament.slug]),
        {"last_name": "LEFEVRE", "first_name": "helene", "present": "on"},
        follow=True,
    )
    page = response.content.decode()
    assert "may be the same person as Hélène Lefèvre (Excuse d&#x27;Évry · 0412345)" in page
    late = Registration.objects.get(tournament=tournament, last_name="LEFEVRE")
    assert [r.pk for r in selectors.duplicates_of(late)] == [helene.pk]
    listed = {r.pk: r.duplicates for r in response.context["registrations"]}
    assert listed[late.pk] == [helene] and listed[helene.pk] == [late]

    organiser_client.post(
        reverse("tournaments:player_merge", args=[tournament.slug, late.pk]), {"into": helene.pk}
    )
    assert not Registration.objects.filter(pk=late.pk).exists()
    helene.refresh_from_db()
    assert helene.status == Registration.Status.PRESENT


def test_merging_keeps_the_licence_and_club_only_the_duplicate_knew(tournament):
    bare = register(tournament, "Petit", "Léo", present=False)
    known = register(tournament, "PETIT", "Leo", "Club C", "660001")
    kept = services.registration_merge(registration=known, into=bare)
    assert (kept.club_name, kept.licence, kept.player.licence) == ("Club C", "660001", "660001")
    assert kept.status == Registration.Status.PRESENT
    assert (
        Registration.objects.filter(tournament=tournament, last_name__iexact="petit").count() == 1
    )


def test_the_import_preview_flags_likely_duplicates(tournament):
    register(tournament, "Lefèvre", "Hélène", "Excuse d'Évry")
    content = "nom;prénom\nLEFEVRE;Helene\nDurand;Luc\ndurand;luc\n".encode()
    preview = services.players_import_preview(
        tournament=tournament, filename="joueurs.csv", content=content
    )
    assert preview.ok  # flagged, not refused
    warnings = [row.warnings for row in preview.rows]
    assert warnings[0] == ["likely already registered: Hélène Lefèvre (Excuse d'Évry)"]
    assert warnings[1] == []
    assert warnings[2] == ["same name as line 3: the same person?"]


def test_swap_menus_tell_namesakes_apart_and_offer_no_absent_player(db):
    tournament = make_tournament(0)
    register(tournament, "Martin", "Paul", "Club de Nantes", "0400001")
    register(tournament, "Martin", "Paul", "Petit Club")
    for name in ("Abel", "Brun", "Colin"):
        register(tournament, name, "Ana")
    absent = register(tournament, "Absent", "Max", present=False)
    services.registration_set_status(registration=absent, status="absent")
    round_ = services.round_seat_next(tournament=tournament)
    leaving = round_.seats.first().registration
    services.registration_set_status(registration=leaving, status="absent")

    form = SwapForm(tournament=tournament, round_=round_)
    labels = [label for _value, label in form.fields["first"].choices][1:]

    assert "Paul Martin (Club de Nantes · 0400001)" in labels
    assert "Paul Martin (Petit Club)" in labels
    assert "Max Absent" not in labels
    assert leaving.listed_name in labels  # seated, so they can be swapped out
    assert Player.objects.count() == 6


def test_the_namesake_warning_elides_in_french(organiser_client, tournament):
    register(tournament, "Lefèvre", "Hélène", "Excuse d'Évry", "0412345")
    register(tournament, "Martin", "Léa")
    organiser_client.cookies["django_language"] = "fr"
    players = reverse("tournaments:players", args=[tournament.slug])
    page = organiser_client.post(
        players, {"last_name": "LEFEVRE", "first_name": "helene", "present": "on"}, follow=True
    ).content.decode()
    assert "la même personne qu’Hélène Lefèvre" in page or "la même personne qu&#x27;Hélène" in page
    page = organiser_client.post(
        players, {"last_name": "MARTIN", "first_name": "lea", "present": "on"}, follow=True
    ).content.decode()
    assert "la même personne que Léa Martin" in page


def test_withdrawing_a_player_seated_in_a_round_not_started_says_where_they_sit(
    organiser_client, tournament, seated_round
):
    seat = seated_round.seats.select_related("registration", "table").first()
    player = seat.registration
    url = reverse("tournaments:checkin", args=[tournament.slug, player.pk])
    row = organiser_client.post(url, {"status": "withdrawn"}, HTTP_HX_REQUEST="true")
    text = row.content.decode()
    assert f"Still seated in round 1, table {seat.table.number}:" in text
    assert reverse("tournaments:round", args=[tournament.slug, 1]) in text
    page = organiser_client.get(reverse("tournaments:players", args=[tournament.slug]))
    assert page.content.decode().count("Still seated in round") == 1

    # Back in the game (the organiser tapped by mistake): nothing to fix.
    row = organiser_client.post(url, {"status": "present"}, HTTP_HX_REQUEST="true")
    assert "Still seated" not in row.content.decode()
    # Absent from a round already being played: the round goes on, no warning either.
    services.registration_set_status(registration=player, status="absent")
    seated_round.status = "playing"
    seated_round.save(update_fields=["status"])
    page = organiser_client.get(reverse("tournaments:players", args=[tournament.slug]))
    assert "Still seated" not in page.content.decode()


def test_a_removed_player_is_said_with_french_elision(organiser, tournament):
    """« Inscription d'Élodie Leroy supprimée. », « Inscription de Léa Martin supprimée. »"""
    staff = Client(HTTP_ACCEPT_LANGUAGE="fr")
    staff.force_login(organiser)
    said = []
    for last, first in (("Leroy", "Élodie"), ("Martin", "Léa")):
        late = register(tournament, last, first)
        response = staff.post(
            reverse("tournaments:player_remove", args=[tournament.slug, late.pk]), follow=True
        )
        said += [str(m) for m in response.context["messages"]]
    assert said == ["Inscription d'Élodie Leroy supprimée.", "Inscription de Léa Martin supprimée."]


def test_the_players_list_badge_elides_in_french_and_asks_in_english(organiser_client, tournament):
    register(tournament, "Lefèvre", "Hélène", "Excuse d'Évry", "0412345")
    register(tournament, "LEFEVRE", "helene")
    register(tournament, "Martin", "Léa")
    register(tournament, "MARTIN", "lea")
    players = reverse("tournaments:players", args=[tournament.slug])
    organiser_client.cookies["django_language"] = "fr"
    page = organiser_client.get(players).content.decode()
    assert "Même personne qu’Hélène Lefèvre" in page or "Même personne qu&#x27;Hélène" in page
    assert "Même personne que Léa Martin" in page
    assert "que Hélène" not in page
    organiser_client.cookies["django_language"] = "en"
    page = organiser_client.get(players).content.decode()
    assert "Same person as Léa Martin?" in page
    # The merge button names the registration it keeps, with what tells namesakes apart.
    assert "Merge into Hélène Lefèvre (Excuse d&#x27;Évry · 0412345)</button>" in page
    assert " ?</span>" not in page  # no French space before the question mark in English

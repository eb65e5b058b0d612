"""Who may do what: every staff page is scoped to the tournaments a user works on.

Policy (tournaments/permissions.py): anonymous visitors go to the login page; a tournament the
user does not work on does not exist for them (404) and nothing changes; referees run the day
but the organiser-only pages (import, referees) are 404 for them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from scoring.models import ScoreSheet
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Registration, StaffMember, Tournament

from .conftest import en_client, make_user, snapshot

pytestmark = pytest.mark.django_db

CSV = "nom,prénom\nNouveau,Nina\n".encode()


def staff_requests(t: Tournament):
    """(method, url, data) for every staff action on tournament ``t`` (round 1 is seated)."""
    reg = t.registrations.order_by("pk").first()
    other = t.registrations.order_by("pk").last()
    table = ScoreSheet.objects.filter(table__round__tournament=t).first().table
    slug = t.slug

    def action(name):
        return reverse("tournaments:round_action", args=[slug, 1, name])

    return [
        ("get", reverse("tournaments:dashboard", args=[slug]), None),
        ("get", reverse("tournaments:players", args=[slug]), None),
        ("get", reverse("tournaments:round", args=[slug, 1]), None),
        ("get", reverse("tournaments:round_pdf", args=[slug, 1, "plan"]), None),
        ("get", reverse("tournaments:round_pdf", args=[slug, 1, "cards"]), None),
        ("get", reverse("tournaments:import", args=[slug]), None),
        ("get", reverse("tournaments:staff", args=[slug]), None),
        ("get", reverse("tournaments:settings", args=[slug]), None),
        ("get", reverse("sheet", args=[slug, table.pk]), None),
        ("get", reverse("sheet_history", args=[slug, table.pk]), None),
        ("post", reverse("tournaments:checkin", args=[slug, reg.pk]), {"status": "withdrawn"}),
        ("post", reverse("tournaments:seat_round", args=[slug]), {"seed": "5"}),
        ("post", action("swap"), {"first": reg.pk, "second": other.pk, "confirmed": "on"}),
        ("post", action("regenerate"), {}),
        ("post", action("close"), {"reason": "on ferme"}),
        ("post", action("reopen"), {}),
        (
            "post",
            reverse("tournaments:players", args=[slug]),
            {"last_name": "Intrus", "first_name": "Ivan", "present": "on"},
        ),
        ("post", reverse("tournaments:staff", args=[slug]), {"username": "x", "password": "pw-x"}),
        (
            "post",
            reverse("tournaments:settings", args=[slug]),
            {**tournament_form_data(), "rounds": 9},
        ),
        (
            "post",
            reverse("sheet", args=[slug, table.pk]),
            {
                "action": "deal",
                "number": "1",
                "kind": "played",
                "taker": "0",
                "contract": "garde",
                "oudlers": "2",
                "points": "49",
            },
        ),
        ("post", reverse("sheet", args=[slug, table.pk]), {"action": "sign_paper"}),
    ]


def send(client, method, url, data):
    if method == "get":
        return client.get(url)
    return client.post(url, data)


@pytest.fixture
def b_seated(other_tournament):
    services.round_seat_next(tournament=other_tournament)
    return other_tournament


def test_referee_of_another_tournament_gets_404_and_changes_nothing(
    tournament, referee_client, b_seated
):
    before = snapshot(b_seated)
    for method, url, data in staff_requests(b_seated):
        response = send(referee_client, method, url, data)
        assert response.status_code == 404, (method, url)
    assert snapshot(b_seated) == before


def test_referee_of_another_tournament_cannot_import_into_it(tournament, referee_client, b_seated):
    before = snapshot(b_seated)
    url = reverse("tournaments:import", args=[b_seated.slug])
    upload = SimpleUploadedFile("joueurs.csv", CSV, content_type="text/csv")
    assert referee_client.post(url, {"file": upload}).status_code == 404
    assert referee_client.post(url, {"confirm": "1"}).status_code == 404
    assert snapshot(b_seated) == before


def test_organiser_of_another_tournament_gets_404(tournament, organiser_client, b_seated):
    """The organiser permission creates tournaments; it does not open other people's."""
    before = snapshot(b_seated)
    for method, url, data in staff_requests(b_seated):
        assert send(organiser_client, method, url, data).status_code == 404, (method, url)
    assert snapshot(b_seated) == before


def test_anonymous_is_sent_to_the_login_page_and_changes_nothing(anonymous_client, b_seated):
    before = snapshot(b_seated)
    for method, url, data in staff_requests(b_seated):
        response = send(anonymous_client, method, url, data)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith("/connexion/?next="), (method, url)
    for name in ("tournaments:list", "tournaments:create"):
        response = anonymous_client.get(reverse(name))
        assert response["Location"].startswith("/connexion/?next=")
    assert snapshot(b_seated) == before
    assert Tournament.objects.count() == 1


def test_referee_runs_the_day_on_their_own_tournament(seated_round, referee_client, tournament):
    for method, url, _ in staff_requests(tournament):
        organiser_only = ("/arbitres/", "/import/", "/reglages/")
        if method == "get" and not any(part in url for part in organiser_only):
            assert referee_client.get(url).status_code == 200, url


def test_referee_cannot_reach_organiser_only_pages(tournament, referee_client):
    before = snapshot(tournament)
    import_url = reverse("tournaments:import", args=[tournament.slug])
    staff_url = reverse("tournaments:staff", args=[tournament.slug])
    assert referee_client.get(import_url).status_code == 404
    upload = SimpleUploadedFile("joueurs.csv", CSV, content_type="text/csv")
    assert referee_client.post(import_url, {"file": upload}).status_code == 404
    assert referee_client.get(staff_url).status_code == 404
    response = referee_client.post(staff_url, {"username": "copain", "password": "pw-copain-1"})
    assert response.status_code == 404
    assert snapshot(tournament) == before
    assert not get_user_model().objects.filter(username="copain").exists()


def test_referee_cannot_change_the_tournament_settings(tournament, referee_client):
    url = reverse("tournaments:settings", args=[tournament.slug])
    assert referee_client.get(url).status_code == 404
    data = {**tournament_form_data(), "name": "Renommé par l'arbitre"}
    assert referee_client.post(url, data).status_code == 404
    tournament.refresh_from_db()
    assert tournament.name == "Tournoi A"


def test_referee_pages_hide_organiser_links(tournament, referee_client, organiser_client):
    url = reverse("tournaments:players", args=[tournament.slug])
    assert referee_client.get(url).context["is_organiser"] is False
    assert organiser_client.get(url).context["is_organiser"] is True


def test_superuser_reaches_every_page(seated_round, tournament, superuser):
    client = en_client(superuser)
    for method, url, _ in staff_requests(tournament):
        if method == "get":
            assert client.get(url).status_code == 200, url
    assert tournament in client.get(reverse("tournaments:list")).context["tournaments"]


def tournament_form_data() -> dict:
    """Every field of the creation form at its default, then what the organiser types."""
    form = TournamentForm()
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(name="Open de printemps", date="2026-04-18", place="Salle Jean Moulin", rounds="5")
    return data


def test_user_without_the_organiser_permission_cannot_create_tournaments(referee_client):
    url = reverse("tournaments:create")
    assert referee_client.get(url).status_code == 403
    assert referee_client.post(url, tournament_form_data()).status_code == 403
    assert not Tournament.objects.exists()


def test_organiser_creates_a_tournament_and_organises_it(organiser_client, organiser):
    response = organiser_client.post(reverse("tournaments:create"), tournament_form_data())
    created = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:dashboard", args=[created.slug])
    assert (created.name, created.rounds, created.created_by) == ("Open de printemps", 5, organiser)
    assert list(created.staff.values_list("user", "role")) == [(organiser.pk, "organiser")]
    assert organiser_client.get(response["Location"]).status_code == 200


def test_tournament_list_shows_only_own_tournaments(tournament, other_tournament, referee_client):
    listed = list(referee_client.get(reverse("tournaments:list")).context["tournaments"])
    assert listed == [tournament]


def test_checkin_with_a_registration_of_another_tournament_is_404(
    tournament, other_tournament, referee_client
):
    foreign = other_tournament.registrations.first()
    url = reverse("tournaments:checkin", args=[tournament.slug, foreign.pk])
    before_a, before_b = snapshot(tournament), snapshot(other_tournament)
    assert referee_client.post(url, {"status": "absent"}).status_code == 404
    assert snapshot(tournament) == before_a
    assert snapshot(other_tournament) == before_b


def test_sheet_of_another_tournament_through_own_url_is_404(
    seated_round, tournament, b_seated, referee_client
):
    foreign_table = ScoreSheet.objects.filter(table__round__tournament=b_seated).first().table
    for name in ("sheet", "sheet_history"):
        url = reverse(name, args=[tournament.slug, foreign_table.pk])
        assert referee_client.get(url).status_code == 404
    url = reverse("sheet", args=[tournament.slug, foreign_table.pk])
    before = snapshot(b_seated)
    assert referee_client.post(url, {"action": "sign_paper"}).status_code == 404
    assert snapshot(b_seated) == before


def test_swap_with_a_registration_of_another_tournament_changes_nothing(
    seated_round, tournament, other_tournament, referee_client
):
    mine = tournament.registrations.first()
    foreign = other_tournament.registrations.first()
    url = reverse("tournaments:round_action", args=[tournament.slug, 1, "swap"])
    before = snapshot(tournament), snapshot(other_tournament)
    response = referee_client.post(
        url, {"first": mine.pk, "second": foreign.pk, "confirmed": "on"}, follow=True
    )
    assert [str(m) for m in response.context["messages"]] == ["Choose two players."]
    assert (snapshot(tournament), snapshot(other_tournament)) == before


def test_unknown_round_or_action_is_404(seated_round, tournament, referee_client):
    assert (
        referee_client.get(reverse("tournaments:round", args=[tournament.slug, 2])).status_code
        == 404
    )
    url = reverse("tournaments:round_action", args=[tournament.slug, 1, "delete"])
    before = snapshot(tournament)
    assert referee_client.post(url).status_code == 404
    assert snapshot(tournament) == before


def test_organiser_names_a_referee_who_can_then_run_the_day(tournament, organiser_client):
    url = reverse("tournaments:staff", args=[tournament.slug])
    response = organiser_client.post(url, {"username": "claire", "password": "Tarot-du-jeudi-29"})
    assert response.status_code == 302
    claire = get_user_model().objects.get(username="claire")
    assert StaffMember.objects.get(tournament=tournament, user=claire).role == "referee"
    client = en_client()
    assert client.login(username="claire", password="Tarot-du-jeudi-29")
    assert client.get(reverse("tournaments:dashboard", args=[tournament.slug])).status_code == 200
    assert client.get(url).status_code == 404


def test_naming_an_unknown_account_without_password_is_refused(tournament, organiser_client):
    url = reverse("tournaments:staff", args=[tournament.slug])
    before = snapshot(tournament)
    response = organiser_client.post(url, {"username": "fantome", "password": ""})
    assert response.status_code == 422
    assert "give a password" in response.context["form"].errors["password"][0]
    assert snapshot(tournament) == before


def test_naming_a_staff_member_twice_is_refused(tournament, organiser_client, referee):
    url = reverse("tournaments:staff", args=[tournament.slug])
    before = snapshot(tournament)
    response = organiser_client.post(url, {"username": referee.username})
    assert response.status_code == 422
    assert "already on this tournament's staff" in response.context["form"].errors["username"][0]
    assert snapshot(tournament) == before


def test_a_registration_check_in_is_scoped_even_for_the_organiser(
    tournament, other_tournament, organiser_client
):
    foreign = other_tournament.registrations.first()
    url = reverse("tournaments:checkin", args=[tournament.slug, foreign.pk])
    assert organiser_client.post(url, {"status": "present"}).status_code == 404
    assert Registration.objects.get(pk=foreign.pk).status == foreign.status


def test_user_without_any_role_sees_no_tournament(tournament):
    nobody = make_user("personne")
    client = en_client(nobody)
    assert list(client.get(reverse("tournaments:list")).context["tournaments"]) == []
    assert client.get(reverse("tournaments:dashboard", args=[tournament.slug])).status_code == 404


def test_staff_pages_are_in_french_by_default(tournament, referee):
    from django.test import Client

    client = Client()
    client.force_login(referee)
    response = client.get(reverse("tournaments:players", args=[tournament.slug]))
    assert response.context["LANGUAGE_CODE"] == "fr"
    assert '<html lang="fr">' in response.content.decode()


@pytest.mark.parametrize(
    ("username", "password", "field", "words"),
    [
        ("claire", "1", "password", ["too short", "entirely numeric"]),
        ("claire", "password", "password", ["too common"]),
        ("claire", "claire123", "password", ["too similar"]),
        ("<script>", "Tarot-du-jeudi-29", "username", ["letters, numbers"]),
        ("jean dupont", "Tarot-du-jeudi-29", "username", ["letters, numbers"]),
    ],
)
def test_a_new_referee_account_passes_djangos_validators(
    tournament, organiser_client, username, password, field, words
):
    """Password "1" and username "<script>" were accepted: Django's validators now run, their
    messages shown on the field, and nothing is created."""
    url = reverse("tournaments:staff", args=[tournament.slug])
    with translation.override("en"):
        response = organiser_client.post(
            url, {"username": username, "password": password}, HTTP_ACCEPT_LANGUAGE="en"
        )
    assert response.status_code == 422
    errors = " ".join(response.context["form"].errors[field])
    for word in words:
        assert word in errors, errors
    assert not get_user_model().objects.filter(username=username).exists()
    assert response.context["form"]["username"].value() == username  # what was typed is kept


def test_the_validators_speak_french(tournament, organiser_client):
    url = reverse("tournaments:staff", args=[tournament.slug])
    response = organiser_client.post(
        url, {"username": "claire", "password": "1"}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.status_code == 422
    assert "trop court" in " ".join(response.context["form"].errors["password"])

"""Issue 27, check-in: one French alphabetical order for every list of players (the seating
plan's), and « tous présents » with its undo, on the real database."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.documents.pdf.seating_plan import sort_key
from scoring.selectors import seating_plan
from tournaments import selectors, services
from tournaments.models import Registration

from .conftest import add_players, en_client, make_tournament, make_user

pytestmark = pytest.mark.django_db

NAMES = [("Vincent", "Paul"), ("d'Aubigné", "Agrippa"), ("zola", "Émile"), ("Dupont", "Marc")]
NAMES += [("Éluard", "Nusch"), ("Dandrieu", "Jean"), ("Œuvray", "Lise"), ("Oberlé", "Jo")]
IN_ORDER = ["Dandrieu", "d'Aubigné", "Dupont", "Éluard", "Oberlé", "Œuvray", "Vincent", "zola"]


@pytest.fixture
def organiser():
    return make_user("orga", organiser=True)


@pytest.fixture
def tournament(organiser):
    tournament = make_tournament(organiser=organiser, present=False)
    for last, first in NAMES:
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first),
            present=False,
        )
    return tournament


def test_the_players_page_and_the_pin_slips_list_players_as_the_seating_plan(tournament, organiser):
    html = en_client(organiser).get(reverse("tournaments:players", args=[tournament.slug]))
    text = html.content.decode()
    positions = [text.index(f'reg-{r.pk}"') for r in _by_last_name(tournament, IN_ORDER)]
    assert positions == sorted(positions)
    slips = selectors.pin_slips(tournament)
    assert [s.name.split(" ", 1)[1] for s in slips.slips] == IN_ORDER

    Registration.objects.filter(tournament=tournament).update(status="present")
    round_ = services.round_seat_next(tournament=tournament, seed=1)
    plan = seating_plan(round_)
    players = sorted((p for t in plan.tables for p in t.players), key=sort_key)
    assert [p.last_name for p in players] == IN_ORDER


def test_everyone_present_asks_first_then_marks_only_the_registered_and_undoes(
    tournament, organiser
):
    client = en_client(organiser)
    absent = Registration.objects.get(tournament=tournament, last_name="Dupont")
    services.registration_set_status(registration=absent, status="absent")
    url = reverse("tournaments:all_present", args=[tournament.slug])

    question = client.post(url)
    assert question.status_code == 200
    assert "Mark the 7 players still registered as present?" in question.content.decode()
    assert selectors.still_registered(tournament) == 7

    done = client.post(url, {"confirm": "1"}, follow=True)
    assert "7 players marked present." in done.content.decode()
    statuses = dict(Registration.objects.values_list("last_name", "status"))
    assert statuses.pop("Dupont") == "absent"
    assert set(statuses.values()) == {"present"}

    # A late player checked in by hand, and Vincent leaves before the start: the undo puts
    # back only those « tous présents » marked and who are still present.
    add_players(tournament, 1, present=True, prefix="Tard")
    vincent = Registration.objects.get(tournament=tournament, last_name="Vincent")
    services.registration_set_status(registration=vincent, status="absent")
    undo = client.post(reverse("tournaments:all_present_undo", args=[tournament.slug]), follow=True)
    assert "6 players back to registered." in undo.content.decode()
    statuses = dict(Registration.objects.values_list("last_name", "status"))
    assert (statuses.pop("Dupont"), statuses.pop("Vincent")) == ("absent", "absent")
    assert statuses.pop("Tard00") == "present"
    assert set(statuses.values()) == {"registered"}
    assert not client.get(reverse("tournaments:players", args=[tournament.slug])).context[
        "can_undo_all_present"
    ]


def test_once_a_round_is_seated_the_undo_is_hidden_and_a_late_undo_is_refused(
    tournament, organiser
):
    """Issue 27: « Annuler tous présents » is gone once a round is seated, and an undo posted
    from a page left open is refused with a sentence, changing nobody."""
    client = en_client(organiser)
    client.post(reverse("tournaments:all_present", args=[tournament.slug]), {"confirm": "1"})
    players_url = reverse("tournaments:players", args=[tournament.slug])
    assert client.get(players_url).context["can_undo_all_present"]
    services.round_seat_next(tournament=tournament, seed=3)
    page = client.get(players_url)
    assert not page.context["can_undo_all_present"]
    assert "Undo “everyone present”" not in page.content.decode()
    undo = client.post(reverse("tournaments:all_present_undo", args=[tournament.slug]), follow=True)
    text = undo.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    assert "A round has been seated since “everyone present”: it can no longer be undone." in text
    assert "back to registered" not in text
    assert set(Registration.objects.values_list("status", flat=True)) == {"present"}


def test_everyone_present_with_nobody_left_to_check_in_says_so(tournament, organiser):
    Registration.objects.filter(tournament=tournament).update(status="present")
    page = en_client(organiser).post(reverse("tournaments:all_present", args=[tournament.slug]))
    assert "there is nobody to mark present" in page.content.decode()
    assert "confirm" not in page.content.decode()


def _by_last_name(tournament, names):
    rows = {r.last_name: r for r in Registration.objects.filter(tournament=tournament)}
    return [rows[n] for n in names]

"""Every player plays the same number of deals: a table of 5 plays 5 deals for every 4, so
with a multiple of 4 deals per round its players play as many deals as at a table of 4; with
another count the settings page says so before the round is seated and offers the nearest
counts that share equally. The sheet, the player's page and the standings show the deals each
player played (read back from the pages)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.demo import create_demo
from tournaments.models import Seat, StaffMember, Tournament

pytestmark = pytest.mark.django_db

# deals per round -> deals each player of a table of 5 plays in a round (written by hand;
# tables of 4 play the deals per round)
AT_FIVE = {4: [4, 4, 4, 4, 4], 8: [8, 8, 8, 8, 8], 5: [4, 5, 5, 5, 5]}


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


def french_client(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    if user is not None:
        client.force_login(user)
    return client


def visible(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize("deals", AT_FIVE)
def test_players_at_a_table_of_five_play_as_many_deals_as_the_count_allows(deals):
    """9 players: a table of 4 and a table of 5 in each of 2 rounds, every deal played."""
    tournament = create_demo(players=9, rounds=2, deals=deals, seed=5).tournament
    expected_total: Counter[int] = Counter()
    for number in (1, 2):
        seats = list(Seat.objects.filter(round__tournament=tournament, round__number=number))
        by_table: dict[int, list[Seat]] = {}
        for seat in seats:
            by_table.setdefault(seat.table_id, []).append(seat)
        sizes = sorted(len(t) for t in by_table.values())
        assert sizes == [4, 5]
        for table_seats in by_table.values():
            played = sorted(s.deals_played for s in table_seats)
            assert played == (AT_FIVE[deals] if len(table_seats) == 5 else [deals] * 4)
            for seat in table_seats:
                expected_total[seat.registration_id] += seat.deals_played

    client = french_client()
    # The standings: a "Donnes" column with each player's played deals over both rounds.
    response = client.get(reverse("public:standings", args=[tournament.slug]))
    assert "Donnes" in response.content.decode()
    rows = list(response.context["table"].data)
    assert {row["id"]: row["deals"] for row in rows} == dict(expected_total)

    # The player's page: the deals played in each round.
    seat = Seat.objects.filter(round__tournament=tournament, round__number=1).first()
    page = visible(
        client.get(
            reverse("public:player", args=[tournament.slug, seat.registration_id])
        ).content.decode()
    )
    assert f"{seat.deals_played} donnes jouées" in page


def test_the_sheet_shows_the_deals_each_player_played():
    tournament = create_demo(players=9, rounds=1, deals=5, seed=5).tournament
    referee = get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    five = next(t for t in tournament.round_set.get(number=1).tables.all() if t.seats.count() == 5)
    html = french_client(referee).get(reverse("sheet", args=[tournament.slug, five.pk]))
    row = re.search(r'<tr class="deals-played">(.*?)</tr>', html.content.decode(), flags=re.S)
    assert row and "Donnes jouées" in row.group(1)
    shown = [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', row.group(1))]
    by_position = [s.deals_played for s in five.seats.order_by("position")]
    assert shown == by_position
    assert sorted(shown) == [4, 5, 5, 5, 5]
    assert shown[0] == 4  # North deals twice in 6 deals: sits out twice


def _organiser():
    user = get_user_model().objects.create_user("orga", password="pw-orga-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def test_the_settings_page_says_when_a_table_of_five_cannot_share_and_offers_choices():
    organiser = _organiser()
    client = french_client(organiser)
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Open",
            "date": "2026-04-18",
            "format": "individual",
            "rounds": "3",
            "deals_per_round": "5",
            "odd_tables": "five",
            "seating_priority": "repeats",
            "rule_set": "fft",
            "visibility": "during",
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    url = reverse("tournaments:settings", args=[tournament.slug])
    page = client.get(url).content.decode()
    notice = visible(re.search(r'id="deals-at-five".*?</div>', page, flags=re.S).group(0))
    assert "une table de 5 joue 6 donnes" in notice
    assert "4 donnes jouées par 1 de ses joueurs, 5 par les autres" in notice
    buttons = re.findall(r'name="deals_choice" value="(\d+)"', page)
    assert buttons == ["4", "8"]
    # The dashboard, where the round is seated, says it too.
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert "une table de 5 joue 6 donnes" in visible(dashboard.content.decode())

    # The organiser picks 8: saved, and everyone then plays the same number.
    form = {
        "name": "Open",
        "date": "2026-04-18",
        "format": "individual",
        "rounds": "3",
        "deals_per_round": "5",
        "odd_tables": "five",
        "seating_priority": "repeats",
        "rule_set": "fft",
        "visibility": "during",
        "deals_choice": "8",
    }
    assert client.post(url, form).status_code == 302
    tournament.refresh_from_db()
    assert tournament.deals_per_round == 8 and tournament.deals_at_table(5) == 10
    page = visible(client.get(url).content.decode())
    assert "elle joue 10 donnes et chaque joueur y joue 8" in page
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert 'id="deals-at-five"' not in dashboard.content.decode()


def test_tables_of_three_need_no_warning_about_tables_of_five():
    organiser = _organiser()
    client = french_client(organiser)
    form = {
        "name": "Homologué",
        "date": "2026-04-18",
        "format": "individual",
        "rounds": "3",
        "deals_per_round": "5",
        "odd_tables": "three",
        "seating_priority": "repeats",
        "rule_set": "fft",
        "visibility": "during",
    }
    response = client.post(reverse("tournaments:create"), form)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    url = reverse("tournaments:settings", args=[tournament.slug])
    assert 'id="deals-at-five"' not in client.get(url).content.decode()
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert 'id="deals-at-five"' not in dashboard.content.decode()
    # Switching to tables of 5 in a form that is refused shows the warning for what was typed.
    refused = client.post(url, {**form, "odd_tables": "five", "name": ""})
    assert refused.status_code == 422
    assert "une table de 5 joue 6 donnes" in visible(refused.content.decode())


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("deals", [1, 2, 3])
def test_a_few_deals_per_round_read_in_proper_plurals(deals, language):
    """« 1 donnes », « 1 deals »: never; a count of one (or none) reads singular in French."""
    organiser = _organiser()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(organiser)
    form = {
        "name": "Open",
        "date": "2026-04-18",
        "format": "individual",
        "rounds": "3",
        "deals_per_round": str(deals),
        "odd_tables": "five",
        "seating_priority": "repeats",
        "rule_set": "fft",
        "visibility": "during",
    }
    assert client.post(reverse("tournaments:create"), form).status_code == 302
    tournament = Tournament.objects.get()
    for url in (
        reverse("tournaments:dashboard", args=[tournament.slug]),
        reverse("tournaments:settings", args=[tournament.slug]),
    ):
        page = visible(client.get(url).content.decode())
        notice = page[page.index("À une table de 5" if language == "fr" else "At a table of 5") :]
        wrong = r"\b[01] donnes\b" if language == "fr" else r"(?<![\d.])1 deals\b"
        assert not re.search(wrong, page), url
        if language == "fr":
            assert f"{deals} donne{'s' if deals > 1 else ''} par position ne s" in notice
        else:
            assert f"{deals} deal{'s' if deals > 1 else ''} per round cannot" in notice

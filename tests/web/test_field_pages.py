"""A 3,000-player field's standings on a phone (``scoring/field_pages.py``): the page opens on the
top 30, the reader's own place and a search box, every row is one tap away, and each view costs
the same fixed number of queries whatever it shows. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from scoring.field_pages import LARGE_FIELD, PAGE_ROWS, TOP, field_view
from scoring.models import ScoreSheet
from scoring.standings import forget_standings
from tournaments import services
from tournaments.models import Player, Registration, Round, Seat, Table

PLAYERS = 3000
ROW = re.compile(
    r'<tr class="(?:odd|even)"><td class="num">([^<]*)</td><td>(?:<a href="[^"]*">)?([^<]*)'
)
# Every view of the standings, cold: the page's version (the tournament's stamp), the tournament,
# then the standings' reads (registrations, tables, seats, penalties), the rounds the pills name,
# and whether the tournament is a championship's stage (its cut line).
QUERIES = 7


def build_field(players: int = PLAYERS):
    """One round played by ``players`` at tables of 4, every sheet entered: player i has
    ``players - i`` points, so their rank is i + 1. Built with bulk_create (about a second)."""
    tournament = services.tournament_create(
        created_by=None, name="Championnat de Pontarlier", date=date(2026, 7, 1), rounds=3
    )
    people = Player.objects.bulk_create(
        Player(first_name="Joueur", last_name=f"Numéro{i:04d}") for i in range(players)
    )
    registrations = Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            player=p,
            first_name=p.first_name,
            last_name=p.last_name,
            club_name="Club de Pontarlier" if i % 2 else "Tarot Club de Besançon",
            status=Registration.Status.PRESENT,
        )
        for i, p in enumerate(people)
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)
    tables = Table.objects.bulk_create(
        Table(round=round_, number=n + 1) for n in range(players // 4)
    )
    ScoreSheet.objects.bulk_create(
        ScoreSheet(table=t, status=ScoreSheet.Status.COMPLETE) for t in tables
    )
    Seat.objects.bulk_create(
        Seat(
            table=tables[i // 4],
            round=round_,
            registration=r,
            position=i % 4,
            points=players - i,
            deals_played=4,
        )
        for i, r in enumerate(registrations)
    )
    forget_standings()
    return tournament, [r.pk for r in registrations]


def shown(response) -> list[tuple[str, str]]:
    """The standings rows of a page: (rank, name)."""
    return ROW.findall(response.content.decode())


@pytest.fixture
def field(db):
    return build_field()


def get(client, tournament, query=""):
    return client.get(reverse("public:standings", args=[tournament.slug]) + query)


@pytest.mark.django_db
def test_a_large_field_opens_on_its_top_with_a_search_and_every_row_one_tap_away(
    field, django_assert_num_queries
):
    tournament, _ids = field
    with django_assert_num_queries(QUERIES):
        response = get(Client(), tournament)
    assert response.status_code == 200
    rows = shown(response)
    assert rows == [(str(i + 1), f"Joueur Numéro{i:04d}") for i in range(TOP)]
    html = response.content.decode()
    assert len(response.content) < 60_000, "a phone loads tens of kB, not the whole field"
    assert 'name="q"' in html and "Chercher un joueur dans le classement" in html
    assert "Haut du classement (30 joueurs)" in html
    # Every row is one tap away: a link per 100 rows, and one to the whole field.
    for start in range(1, PLAYERS + 1, PAGE_ROWS):
        assert f"{start}–{start + PAGE_ROWS - 1}" in html
    assert f'href="?page={PLAYERS // PAGE_ROWS}"' in html and 'href="?tout=1"' in html


@pytest.mark.django_db
def test_each_row_of_a_large_field_is_on_a_page_and_all_rows_on_one(
    field, django_assert_num_queries
):
    tournament, _ids = field
    with django_assert_num_queries(QUERIES):
        page = get(Client(), tournament, "?page=17")
    assert [int(rank) for rank, _ in shown(page)] == list(range(1601, 1701))
    forget_standings()
    with django_assert_num_queries(QUERIES):
        whole = get(Client(), tournament, "?tout=1")
    assert len(shown(whole)) == PLAYERS
    last = get(Client(), tournament, "?page=9999")  # past the end: the last page
    assert [int(rank) for rank, _ in shown(last)] == list(range(2901, 3001))


@pytest.mark.django_db
def test_a_reader_finds_their_own_place_from_their_page(field, django_assert_num_queries):
    tournament, ids = field
    reader = ids[1499]  # rank 1500
    client = Client()
    player_page = client.get(reverse("public:player", args=[tournament.slug, reader]))
    link = f"{reverse('public:standings', args=[tournament.slug])}?joueur={reader}"
    assert f'href="{link}">Ma place au classement</a>' in player_page.content.decode()
    forget_standings()
    with django_assert_num_queries(QUERIES):
        response = client.get(link)
    ranks = [int(rank) for rank, _ in shown(response)]
    assert ranks == [*range(1, TOP + 1), 1498, 1499, 1500, 1501, 1502]
    assert "Votre place et vos voisins" in response.content.decode()
    assert len(response.content) < 60_000


@pytest.mark.django_db
def test_a_search_in_a_large_field_shows_the_rank_of_each_match(field, django_assert_num_queries):
    tournament, _ids = field
    with django_assert_num_queries(QUERIES):
        response = get(Client(), tournament, "?q=numero2345")
    rows = shown(response)
    assert rows[TOP:] == [("2346", "Joueur Numéro2345")]
    nobody = get(Client(), tournament, "?q=zzzz")
    assert len(shown(nobody)) == TOP
    assert "zzzz" in nobody.content.decode()


def rows_of(count: int) -> list[dict]:
    return [
        {"id": i + 1, "rank": i + 1, "tied": False, "name": f"P{i}", "club": ""}
        for i in range(count)
    ]


def test_a_field_up_to_the_limit_is_shown_whole():
    view = field_view(rows_of(LARGE_FIELD), page=2, reader=150)
    assert not view.large and [len(p.rows) for p in view.parts] == [LARGE_FIELD]


def test_a_reader_in_the_top_gets_no_second_copy_of_their_row():
    view = field_view(rows_of(LARGE_FIELD + 1), reader=5)
    assert [p.kind for p in view.parts] == ["top"] and view.reader["rank"] == 5
    near_top = field_view(rows_of(LARGE_FIELD + 1), reader=TOP + 1)
    assert [r["rank"] for r in near_top.parts[1].rows] == [TOP + 1, TOP + 2, TOP + 3]

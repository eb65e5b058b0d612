"""The club's public pages, read as a phone reads them: the next tournaments with their seats
left, the season standings with the formula in words, a player's career; cached like the other
public pages, with a fixed number of queries whatever the number of tournaments."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from scoring.season import season_data
from tournaments import services
from tournaments.models import Season, Tournament
from tournaments.services import clubs

pytestmark = pytest.mark.django_db


def french() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="fr")


def english() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_club_page_in_french_first(season_of):
    demo = season_of(2, players=8)
    services.player_register(
        tournament=demo.upcoming,
        row=services.PlayerRow(last_name="Inscrite", first_name="Anne"),
    )
    response = french().get(reverse("public:club", args=[demo.club.slug]))
    assert response.status_code == 200
    page = text(response)
    assert "Tournoi n° 3" in page and "7 places restantes" in page  # capacity 8, one registered
    assert "Seuls les tournois clos et définitifs comptent." in page
    assert "Tournoi n° 1" in page and "Vainqueur" in page
    data = season_data(demo.season)
    leader = data.standings()[0]
    assert leader.name in page and str(leader.points) in page
    # Each tournament's winner, as its own standings name it.
    for item in data.tournaments[:2]:
        assert ", ".join(item.winners) in page


def test_the_season_page_ranks_with_the_formula_shown(season_of):
    demo = season_of(2, players=8)
    response = english().get(reverse("public:season", args=[demo.club.slug, demo.season.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "Each tournament gives points by place" in page
    rows = re.findall(
        r'<tr><td class="num">(\d+)(=?)</td><td><a href="/club/[^"]+/joueur/(\d+)/',
        response.content.decode(),
    )
    data = season_data(demo.season)
    assert [(int(r), t == "=", int(p)) for r, t, p in rows] == [
        (s.rank, s.tied, s.player) for s in data.standings()
    ]


def test_a_provisional_tournament_is_marked_and_not_counted(season_of):
    demo = season_of(2, players=8)
    services.tournament_update(tournament=demo.tournaments[1], finished=False)
    page = text(english().get(reverse("public:season", args=[demo.club.slug, demo.season.pk])))
    assert "Provisional: 1 tournament played is not closed yet and does not count." in page
    assert "provisional: not closed, not counted" in page


def test_the_career_page(season_of):
    demo = season_of(3, players=8)
    data = season_data(demo.season)
    standing = data.standings()[0]
    mine = data.results_of(standing.player)
    response = english().get(reverse("public:career", args=[demo.club.slug, standing.player]))
    assert response.status_code == 200
    page = text(response)
    total = sum(r.total for r in mine)
    assert f"Tournaments {len(mine)}" in page and f"Total {total}" in page
    assert f"Best total {max(r.total for r in mine)}" in page
    assert response.content.count(b'class="dot"') == len(mine)  # the season chart
    assert b"<svg" in response.content and b"<script" not in response.content.split(b"<main")[1]
    # Someone who never played at the club has no career page there.
    stranger = services.player_register(
        tournament=services.tournament_create(
            created_by=None, name="Ailleurs", date=demo.season.start
        ),
        row=services.PlayerRow(last_name="Ailleurs"),
    ).player
    assert (
        english().get(reverse("public:career", args=[demo.club.slug, stranger.pk])).status_code
        == 404
    )


def _cold_queries(client, url, django_assert_num_queries, count):
    from django.core.cache import cache

    from scoring.season import forget_seasons

    cache.clear()
    forget_seasons()
    with django_assert_num_queries(count):
        assert client.get(url).status_code == 200


def test_a_fixed_number_of_queries_for_one_or_four_tournaments(
    season_of, django_assert_num_queries
):
    small = season_of(1, players=8, seed=1, club_name="Petit club")
    large = season_of(4, players=8, seed=2, club_name="Grand club")
    for demo in (small, large):
        url = reverse("public:season", args=[demo.club.slug, demo.season.pk])
        # The first reading after the close: the club and its version, its seasons, the
        # season's version, its tournaments, their stored final results (none yet), the four
        # queries of their standings, and the final results stored (in a savepoint here).
        _cold_queries(english(), url, django_assert_num_queries, 13)
        # Any later cold page reads the stored final results instead of ranking anew.
        _cold_queries(english(), url, django_assert_num_queries, 5)
        url = reverse("public:club", args=[demo.club.slug])
        # ... and the upcoming tournaments with their seats taken
        _cold_queries(english(), url, django_assert_num_queries, 6)


def test_cached_then_changed(season_of, django_assert_num_queries):
    demo = season_of(1, players=8)
    client = english()
    url = reverse("public:season", args=[demo.club.slug, demo.season.pk])
    first = client.get(url)
    with django_assert_num_queries(1):  # the club's version, nothing else
        again = client.get(url)
    assert again.content == first.content
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    clubs.season_update(season=Season.objects.get(pk=demo.season.pk), kind="totals", best=0)
    changed = client.get(url)
    assert changed["ETag"] != first["ETag"]
    assert "Each tournament counts its total" in text(changed)


def test_unknown_club_season_or_player_is_404(season_of):
    demo = season_of(1, players=8)
    client = english()
    assert client.get(reverse("public:club", args=["nope"])).status_code == 404
    assert client.get(reverse("public:season", args=[demo.club.slug, 999999])).status_code == 404
    assert client.get(reverse("public:career", args=[demo.club.slug, 999999])).status_code == 404
    assert client.post(reverse("public:club", args=[demo.club.slug])).status_code == 405


def test_the_career_page_lists_a_provisional_tournament_marked_and_not_counted(season_of):
    demo = season_of(2, players=8)
    services.tournament_update(tournament=demo.tournaments[1], finished=False)
    data = season_data(demo.season)
    assert [t.counted for t in data.tournaments[:2]] == [True, False]
    # Someone who played both: one counted result, one provisional.
    player = next(r.player for r in data.provisional_results if data.results_of(r.player))
    (counted,) = data.results_of(player)
    (provisional,) = data.provisional_results_of(player)
    response = english().get(reverse("public:career", args=[demo.club.slug, player]))
    page = text(response)
    assert "Tournoi n° 1" in page and "Tournoi n° 2" in page
    assert page.count("provisional: not closed, not counted") == 1
    assert f"{provisional.place}{'=' if provisional.tied else ''} / {provisional.field}" in page
    # The figures and the chart hold the counted tournament only.
    assert f"Tournaments 1 Total {counted.total}" in page
    assert response.content.count(b'class="dot"') == 1
    # Hidden standings stay hidden: the tournament is no longer listed with a place.
    services.tournament_update(
        tournament=demo.tournaments[1], visibility=Tournament.Visibility.AT_THE_END
    )
    page = text(english().get(reverse("public:career", args=[demo.club.slug, player])))
    assert "Tournoi n° 2" not in page and "provisional: not closed" not in page


def test_the_club_page_lists_the_current_season_first(season_of):
    demo = season_of(1, players=8)
    today = demo.season.start
    later = clubs.season_create(
        club=demo.club,
        name="Saison suivante",
        start=demo.season.end + timedelta(days=30),
        end=demo.season.end + timedelta(days=300),
    )
    earlier = clubs.season_create(
        club=demo.club,
        name="Saison passée",
        start=today - timedelta(days=400),
        end=today - timedelta(days=60),
    )
    page = english().get(reverse("public:club", args=[demo.club.slug])).content.decode()
    links = re.findall(r'<li><a href="/club/[^"]+/saison/(\d+)/">', page)
    assert [int(pk) for pk in links] == [demo.season.pk, later.pk, earlier.pk]


def test_french_column_of_tournaments_played(season_of):
    """« Jouée » is a deal's status; the season's column counts tournaments."""
    demo = season_of(1, players=8)
    page = french().get(reverse("public:season", args=[demo.club.slug, demo.season.pk]))
    head = page.content.decode().split("<thead>")[1].split("</thead>")[0]
    assert ">Tournois</th>" in head and "Jouée" not in head
    url = reverse("public:season_export", args=[demo.club.slug, demo.season.pk, "csv-fr"])
    first_line = french().get(url).content.decode("utf-8-sig").splitlines()[0]
    assert first_line.startswith("Rang;Joueur;Points;Tournois")


def test_a_place_decided_by_a_tie_break_says_which(season_of, monkeypatch):
    from dataclasses import replace

    from scoring.season import SeasonData

    demo = season_of(2, players=8)
    computed = SeasonData.standings

    def decided(self):
        first, *others = computed(self)
        return [replace(first, tie_break="played"), *others]

    monkeypatch.setattr(SeasonData, "standings", decided)
    page = text(english().get(reverse("public:season", args=[demo.club.slug, demo.season.pk])))
    assert page.count("(more tournaments played)") == 1


def test_a_tournament_under_way_links_to_its_live_standings_instead_of_seats(season_of):
    demo = season_of(1, players=8)
    for index in range(8):
        services.player_register(
            tournament=demo.upcoming,
            row=services.PlayerRow(last_name=f"Joueur{index}", first_name="Anne"),
            present=True,
        )
    url = reverse("public:club", args=[demo.club.slug])
    assert "0 seats left" in text(english().get(url))
    services.round_seat_next(tournament=demo.upcoming)
    response = english().get(url)
    page = text(response)
    assert "Under way: follow the standings live" in page
    assert "seats left" not in page and "Ask for a seat" not in page
    assert f'href="/t/{demo.upcoming.slug}/"' in response.content.decode()
    assert "En cours : suivez le classement en direct" in text(french().get(url))

"""The "me" search (case and accents ignored, on SQLite and PostgreSQL) and the public page cache,
which keys on what a page reads, never on the raw query string."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.demo import create_demo
from tournaments import services
from tournaments.folding import fold

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


@pytest.fixture
def tournament(db):
    tournament = services.tournament_create(
        created_by=None, name="Recherche", date=date(2026, 6, 1), rounds=2
    )
    for last, first, licence in [
        ("Lefèvre", "Hélène", "F0001"),
        ("LEFEBVRE", "Marc", "F0002"),
        ("Çelik", "Zoé", ""),
        ("Dupont-Œuvray", "Jean-Loup", "F0003"),
        ("Martin", "Léa", "F0004"),
    ]:
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first, licence=licence),
        )
    return tournament


def found(client, tournament, query) -> list[str]:
    response = client.get(reverse("public:find_me", args=[tournament.slug]), {"q": query})
    assert response.status_code == 200
    return [r.full_name for r in response.context["matches"]]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("lefevre", ["Hélène Lefèvre"]),
        ("LEFÈVRE", ["Hélène Lefèvre"]),
        ("lefe", ["Marc LEFEBVRE", "Hélène Lefèvre"]),
        ("helene lefevre", ["Hélène Lefèvre"]),
        ("lefevre helene", ["Hélène Lefèvre"]),
        ("celik", ["Zoé Çelik"]),
        ("zoe", ["Zoé Çelik"]),
        ("oeuvray", ["Jean-Loup Dupont-Œuvray"]),
        ("jean loup", ["Jean-Loup Dupont-Œuvray"]),
        ("f0004", ["Léa Martin"]),  # a licence number, exactly
        ("F000", []),  # ...not a part of one
        ("durand", []),
    ],
)
def test_the_me_search_ignores_case_and_accents(client, tournament, query, names):
    assert sorted(found(client, tournament, query)) == sorted(names)


@pytest.mark.parametrize("query", ["\x00", "le\x00fevre", "%00", "\x00" * 5000, "é" * 5000])
def test_the_me_search_takes_any_text(client, tournament, query):
    """A NUL in a query was a 500 on PostgreSQL: the typed text never reaches the database."""
    response = client.get(reverse("public:find_me", args=[tournament.slug]), {"q": query})
    assert response.status_code == 200
    assert b"\x00" not in response.content


def test_the_me_search_with_a_nul_byte_in_the_address(client, tournament):
    response = client.get(reverse("public:find_me", args=[tournament.slug]) + "?q=lef%00evre")
    assert response.status_code == 200
    assert [r.full_name for r in response.context["matches"]] == ["Hélène Lefèvre"]


def test_the_search_costs_two_queries(client, tournament, django_assert_max_num_queries):
    client.get(reverse("public:find_me", args=[tournament.slug]))  # warm the session etc.
    # The page's version (the tournament's stamp), the tournament, the names, the matches.
    with django_assert_max_num_queries(4):
        found(client, tournament, "lefe")


def test_fold():
    assert fold("Jean-Loup  LEFÈVRE") == fold("jean loup lefevre") == "jean loup lefevre"
    assert fold("Œuvray Ærø ß") == "oeuvray aero ss"
    assert fold("\x00a\x07b") == "ab"


# -- The public page cache ---------------------------------------------------------------------


@pytest.fixture
def played(db):
    return create_demo(players=8, rounds=2, deals=1, seed=3).tournament


def cache_keys() -> set[str]:
    return {key for key in cache._cache if ":public:" in key}  # LocMemCache's own store


def test_an_unknown_query_string_makes_no_new_cache_entry(played):
    client = Client()
    url = reverse("public:standings", args=[played.slug])
    client.get(url)
    keys = cache_keys()
    assert len(keys) == 1
    junks = ("?x=1", "?utm_source=qr", "?x=2&y=3", "?apres=", "?apres=abc", "?apres=99", "?apres=-")
    for junk in junks:
        assert client.get(url + junk).status_code == 200
    assert cache_keys() == keys, "junk query strings made new cache entries"
    # What the page reads does: standings after round 1.
    one = client.get(url + "?apres=1")
    assert len(cache_keys()) == 2
    assert client.get(url + "?apres=01&x=1").content == one.content
    assert len(cache_keys()) == 2


def test_pages_that_read_no_parameter_ignore_every_query_string(played):
    client = Client()
    for name in ("public:home", "public:tv"):
        url = reverse(name, args=[played.slug])
        for junk in ("", "?a=1", "?b=2", "?a=1&b=2&c=3"):
            assert client.get(url + junk).status_code == 200
    assert len(cache_keys()) == 2


def test_searches_are_not_kept_in_the_cache(played):
    client = Client()
    url = reverse("public:find_me", args=[played.slug])
    client.get(url)
    assert len(cache_keys()) == 1  # the empty search form
    for query in ("ab", "cd", "ef", "joueur"):
        assert client.get(url, {"q": query}).status_code == 200
    assert len(cache_keys()) == 1


def test_each_answer_has_its_own_tag(played):
    client = Client()
    url = reverse("public:standings", args=[played.slug])
    whole, after_one = client.get(url), client.get(url + "?apres=1")
    assert whole["ETag"] != after_one["ETag"]
    again = client.get(url + "?apres=1&x=2", HTTP_IF_NONE_MATCH=after_one["ETag"])
    assert again.status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=after_one["ETag"]).status_code == 200

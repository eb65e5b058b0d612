"""A phone asking whether its public page changed is answered before the middleware stack
(``scoring/public_answers.py``, ``RevalidateFirstMiddleware``): 304 in one query when it holds
the current version, the whole page once anything it shows has changed, in its language.
"""

from __future__ import annotations

import gzip

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client
from django.urls import reverse

from tests.web.playing import enter_deal

pytestmark = pytest.mark.django_db


def _pages(tournament, table) -> dict[str, str]:
    registration = table.seats.order_by("position").first().registration_id
    standings = reverse("public:standings", args=[tournament.slug])
    return {
        "player": reverse("public:player", args=[tournament.slug, registration]),
        "standings at the reader's place": f"{standings}?joueur={registration}",
        "tv": reverse("public:tv", args=[tournament.slug]),
        "home": reverse("public:home", args=[tournament.slug]),
    }


def _phone(language: str = "fr") -> Client:
    return Client(HTTP_ACCEPT_ENCODING="gzip", HTTP_ACCEPT_LANGUAGE=language)


def test_a_phone_holding_its_page_is_answered_304_in_one_query(
    playing, django_assert_num_queries, monkeypatch
):
    tournament, (table, _other) = playing
    phone = _phone()
    tags = {path: phone.get(path)["ETag"] for path in _pages(tournament, table).values()}

    def stack_reached(*args, **kwargs):
        raise AssertionError("a 304 went through the session middleware and the rest")

    monkeypatch.setattr(SessionMiddleware, "process_request", stack_reached)
    for path, tag in tags.items():
        with django_assert_num_queries(1):  # the page's version only
            again = phone.get(path, HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304, path
        assert again["ETag"] == tag
        assert again["Cache-Control"] == "no-cache"
        assert not again.cookies, path  # nothing of a session is set on the way


def test_a_deal_at_the_players_table_reaches_their_phone_at_once(playing):
    tournament, (table, _other) = playing
    path = _pages(tournament, table)["player"]
    phone = _phone()
    tag = phone.get(path)["ETag"]

    enter_deal(table, 1)

    after = phone.get(path, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200
    assert after["ETag"] != tag
    assert b'id="round-2-deal-1"' in _body(after)


def test_a_deal_elsewhere_leaves_the_tv_and_another_tables_phone_at_304(playing):
    tournament, (table, other) = playing
    pages = _pages(tournament, table)
    phone = _phone()
    tags = {name: phone.get(path)["ETag"] for name, path in pages.items()}

    enter_deal(other, 1)  # the other table's sheet does not count yet

    for name in ("player", "standings at the reader's place", "tv"):
        assert phone.get(pages[name], HTTP_IF_NONE_MATCH=tags[name]).status_code == 304, name
    # The home page shows every table's progress: it changes.
    assert phone.get(pages["home"], HTTP_IF_NONE_MATCH=tags["home"]).status_code == 200


def test_each_language_has_its_own_version(playing):
    tournament, (table, _other) = playing
    path = _pages(tournament, table)["tv"]
    french, english = _phone("fr"), _phone("en")
    french_tag = french.get(path)["ETag"]
    english_page = english.get(path)
    assert english_page["ETag"] != french_tag
    # An English phone holding the French copy gets the English page, not a 304.
    assert english.get(path, HTTP_IF_NONE_MATCH=french_tag).status_code == 200
    assert english.get(path, HTTP_IF_NONE_MATCH=english_page["ETag"]).status_code == 304
    # The language cookie (the language switch) wins over the browser's, as on the full page.
    english.cookies["django_language"] = "fr"
    assert english.get(path, HTTP_IF_NONE_MATCH=french_tag).status_code == 304


def test_what_is_not_a_held_public_page_goes_through_the_stack(playing, client):
    tournament, (table, _other) = playing
    path = _pages(tournament, table)["tv"]
    tag = client.get(path)["ETag"]
    unknown = reverse("public:tv", args=["no-such-tournament"])
    assert client.get(unknown, HTTP_IF_NONE_MATCH=tag).status_code == 404
    # A host the settings do not allow is refused, as on every other answer.
    assert client.get(path, HTTP_IF_NONE_MATCH=tag, HTTP_HOST="evil.example").status_code == 400
    # A staff page is never answered here: the login page still asks for the login.
    dashboard = reverse("tournaments:dashboard", args=[tournament.slug])
    assert client.get(dashboard, HTTP_IF_NONE_MATCH=tag).status_code == 302


def _body(response) -> bytes:
    content = response.content
    return gzip.decompress(content) if response.get("Content-Encoding") == "gzip" else content

"""Rank changes reach the per-reader pages spread over time (``scoring/page_versions.py``).

When a sheet starts to count, every player's page and the standings at each reader's place are
a new version: in a 3,000-player field every phone rendered its page within 4 s. A large field's
readers adopt the change each at a phase of its own in [0, S); a club (S under a second) sees it
at once, as do the TV and the plain standings, and a player sees their own table's deals at once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from scoring import page_versions
from scoring.models import SharedPublication
from scoring.page_versions import phase_of, seen_by, shared_version, spread_of, stamp_of
from scoring.services.versions import shared_publish
from scoring.standings import current_standings
from tests.web.playing import enter_deal
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SPREAD = 8.0  # seconds: 8 players at one second each (the test's "large field")


class Clock:
    def __init__(self):
        self.now = page_versions.clock()

    def __call__(self):
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    frozen = Clock()
    monkeypatch.setattr(page_versions, "clock", frozen)
    return frozen


@pytest.fixture
def large(monkeypatch, clock):
    """The spread of a large field with the test's eight players."""
    monkeypatch.setattr(page_versions, "SPREAD_PER_PLAYER", SPREAD / 8)
    monkeypatch.setattr(page_versions, "SPREAD_FROM_PLAYERS", 8)
    assert spread_of(8) == SPREAD
    return clock


def _players(table) -> list[int]:
    return list(table.seats.order_by("position").values_list("registration_id", flat=True))


def _me(tournament, registration_id: int) -> str:
    return reverse("public:player", args=[tournament.slug, registration_id])


def _live(tournament) -> str:
    return shared_version(Tournament.objects.get(pk=tournament.pk))


def _tags(tournament, readers) -> dict[int, str]:
    return {pk: Client().get(_me(tournament, pk))["ETag"] for pk in readers}


def test_a_club_sees_a_rank_change_on_a_players_page_at_once(playing, clock):
    tournament, (here, elsewhere) = playing
    assert spread_of(8) == 0 and spread_of(99) == 0  # a club: no spread
    assert spread_of(3000) == page_versions.MAX_SPREAD
    mine = _players(here)
    tags = _tags(tournament, mine)

    enter_deal(elsewhere, 1)
    enter_deal(elsewhere, 2)  # the other table's sheet counts: every rank may move

    for pk in mine:
        again = Client().get(_me(tournament, pk), HTTP_IF_NONE_MATCH=tags[pk])
        assert again.status_code == 200, pk
        assert _live(tournament) in again["ETag"]


def test_a_large_field_spreads_a_rank_change_over_its_readers_phases(
    playing, large, django_assert_num_queries
):
    tournament, (here, elsewhere) = playing
    mine = _players(here)
    tags = _tags(tournament, mine)  # the first reader published the shared version
    tv = reverse("public:tv", args=[tournament.slug])
    tv_tag = Client().get(tv)["ETag"]
    large.advance(100)  # long after that publication: the next change is published at once

    enter_deal(elsewhere, 1)
    enter_deal(elsewhere, 2)  # another table's sheet counts

    first, *others = sorted(mine, key=lambda pk: phase_of(pk, SPREAD))
    later = others[-1]
    assert phase_of(later, SPREAD) > 1
    # The first reader publishes the change; those whose phase has not come keep their page.
    Client().get(_me(tournament, first), HTTP_IF_NONE_MATCH=tags[first])
    with django_assert_num_queries(1):  # a 304 is still one statement
        kept = Client().get(_me(tournament, later), HTTP_IF_NONE_MATCH=tags[later])
    assert kept.status_code == 304
    assert Client().get(tv, HTTP_IF_NONE_MATCH=tv_tag).status_code == 200  # the TV: at once
    standings = reverse("public:standings", args=[tournament.slug])
    mine_there = Client().get(f"{standings}?joueur={later}")
    assert _live(tournament) not in mine_there["ETag"]  # the reader's place: spread too

    large.advance(phase_of(later, SPREAD) + 0.01)  # its phase has come
    seen = Client().get(_me(tournament, later), HTTP_IF_NONE_MATCH=tags[later])
    assert seen.status_code == 200
    assert _live(tournament) in seen["ETag"]
    assert _live(tournament) in Client().get(f"{standings}?joueur={later}")["ETag"]


def test_every_reader_sees_a_change_within_two_spreads(playing, large):
    tournament, (here, elsewhere) = playing
    readers = _players(here) + _players(elsewhere)
    _tags(tournament, readers)
    large.advance(100)
    enter_deal(elsewhere, 1)
    enter_deal(elsewhere, 2)
    _tags(tournament, readers[:1])  # published now: the next change waits SPREAD seconds

    large.advance(0.5)
    services.tournament_touch(tournament_id=tournament.pk)  # a name corrected: ranks move
    held = _tags(tournament, readers)
    assert not any(_live(tournament) in tag for tag in held.values())

    large.advance(SPREAD - 0.5)  # a reader publishes it as soon as it may
    _tags(tournament, readers[:1])
    large.advance(SPREAD)
    for pk in readers:
        again = Client().get(_me(tournament, pk), HTTP_IF_NONE_MATCH=held[pk])
        assert again.status_code == 200, pk
        assert _live(tournament) in again["ETag"]


def test_a_players_own_table_reaches_their_page_at_once_in_a_large_field(playing, large):
    tournament, (here, _elsewhere) = playing
    mine = max(_players(here), key=lambda pk: phase_of(pk, SPREAD))
    tag = _tags(tournament, [mine])[mine]
    large.advance(100)
    enter_deal(here, 1)
    first = Client().get(_me(tournament, mine), HTTP_IF_NONE_MATCH=tag)
    assert first.status_code == 200  # a deal at their table
    enter_deal(here, 2)  # their own sheet counts
    again = Client().get(_me(tournament, mine), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert b'id="round-2-deal-2"' in again.content


def test_two_readers_publishing_at_once_make_one_publication(playing, large):
    tournament, (here, elsewhere) = playing
    one, two = _players(here)[:2]
    _tags(tournament, [one])
    large.advance(100)
    enter_deal(elsewhere, 1)
    enter_deal(elsewhere, 2)
    stamp = stamp_of(tournament.slug)  # both read the row before either writes
    due = [seen_by(stamp, pk)[1] for pk in (one, two)]
    assert all(publication is not None for publication in due)
    large.advance(0.001)
    due[1] = seen_by(stamp, two)[1]  # written a moment later

    won = [
        shared_publish(
            tournament_id=p.tournament_id,
            read_at=p.read_at,
            previous=p.previous,
            current=p.current,
            published_at=p.published_at,
        )
        for p in due
    ]

    assert won == [True, False]
    row = SharedPublication.objects.get(tournament=tournament)
    assert row.published_at == due[0].published_at
    assert row.players == 8


def test_a_readers_page_reuses_standings_as_recent_as_it_shows(
    playing, large, django_assert_max_num_queries
):
    """A per-reader page shows the rank change its reader adopted: standings already computed
    for it serve it, even once the live standings moved on (no ranking of the field again in
    each process), and the player's own sheet counting still gets standings that include it."""
    tournament, (here, elsewhere) = playing
    mine = min(_players(here), key=lambda pk: phase_of(pk, SPREAD))
    _tags(tournament, [mine])
    large.advance(100)
    enter_deal(elsewhere, 1)
    enter_deal(elsewhere, 2)  # another table's sheet counts
    _tags(tournament, [mine])  # published now
    large.advance(phase_of(mine, SPREAD) + 0.01)  # adopted by this reader; no publication yet
    tv = reverse("public:tv", args=[tournament.slug])
    Client().get(tv)  # the TV ranks the field as it is now
    services.tournament_touch(tournament_id=tournament.pk)  # the live standings move on

    # The reader's page renders (its own table's first deal, which does not count yet)
    # without ranking the field: the version's stamp, the tournament, the player's
    # registration, seats, names and deals, and whether their own sheets count since.
    enter_deal(here, 1)
    with django_assert_max_num_queries(7):
        page = Client().get(_me(tournament, mine))
    assert page.status_code == 200
    assert _live(tournament) not in page["ETag"]

    enter_deal(here, 2)  # the reader's own sheet counts: their rank includes it at once
    page = Client().get(_me(tournament, mine))
    live = current_standings(Tournament.objects.get(pk=tournament.pk))
    assert page.context["standing"].total == live.standing_of(mine).total
    assert page.context["standing"].rank == live.standing_of(mine).rank

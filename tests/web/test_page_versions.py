"""A deal changes the pages that show it, and only those (``scoring/page_versions.py``).

With 3,000 phones polling their player's own page, a deal at one table must not make every
phone's copy old: a player's page changes with a deal at their table, or with anything the
standings show; the standings and the TV change once a sheet counts.
"""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import ScoreSheet
from scoring.page_versions import player_version, shared_version, stamp_of
from scoring.services import Actor, deal_delete_last
from scoring.standings import current_standings
from tests.web.playing import enter_deal
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def _fresh(tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def _player_version(tournament, registration_id: int) -> str:
    """A player's page version as a phone's request reads it now (its stamp)."""
    stamp = stamp_of(tournament.slug, registration_id=registration_id)
    return player_version(stamp, registration_id)


def _player_at(table) -> int:
    return table.seats.order_by("position").first().registration_id


def _me(tournament, registration_id: int) -> str:
    return reverse("public:player", args=[tournament.slug, registration_id])


def test_a_deal_elsewhere_leaves_a_players_page_and_the_standings_as_they_were(playing):
    tournament, (here, elsewhere) = playing
    mine, theirs = _player_at(here), _player_at(elsewhere)
    before = _fresh(tournament)
    mine_before, theirs_before = _player_version(before, mine), _player_version(before, theirs)

    enter_deal(here, 1)  # the sheet has one deal of two: it does not count yet

    after = _fresh(tournament)
    assert after.changed_at > before.changed_at  # every other page is still a new version
    assert shared_version(after) == shared_version(before)
    assert _player_version(after, theirs) == theirs_before
    assert _player_version(after, mine) != mine_before


def test_a_sheet_that_counts_changes_every_players_page_and_the_standings(playing):
    tournament, (here, elsewhere) = playing
    theirs = _player_at(elsewhere)
    enter_deal(here, 1)
    before = _fresh(tournament)
    shared_before, theirs_before = shared_version(before), _player_version(before, theirs)

    enter_deal(here, 2)  # the sheet is complete: its players' results count in the standings

    after = _fresh(tournament)
    assert shared_version(after) != shared_before
    assert _player_version(after, theirs) != theirs_before
    totals = {s.entry.id: s.total for s in current_standings(after).standings()}
    seated = here.seats.values_list("registration_id", "points")
    assert all(totals[pk] != 0 or points == 0 for pk, points in seated)


def test_any_other_change_after_a_deal_changes_the_shared_version(playing):
    tournament, (here, _elsewhere) = playing
    enter_deal(here, 1)
    before = _fresh(tournament)

    services.tournament_touch(tournament_id=tournament.pk)  # a name corrected, a setting...

    assert shared_version(_fresh(tournament)) != shared_version(before)
    enter_deal(here, 2)
    later = _fresh(tournament)
    services.tournament_touch(tournament_id=tournament.pk)
    assert shared_version(_fresh(tournament)) != shared_version(later)


def test_removing_a_deal_changes_its_tables_pages_only(playing):
    tournament, (here, elsewhere) = playing
    mine, theirs = _player_at(here), _player_at(elsewhere)
    enter_deal(here, 1)
    before = _fresh(tournament)
    versions = (_player_version(before, mine), _player_version(before, theirs))
    referee = get_user_model().objects.create_user("ref", password="pw-ref-123")

    deal_delete_last(sheet=ScoreSheet.objects.get(table=here), actor=Actor.staff(referee))

    after = _fresh(tournament)
    assert _player_version(after, mine) != versions[0]
    assert _player_version(after, theirs) == versions[1]
    assert shared_version(after) == shared_version(before)


def test_a_phone_is_answered_304_after_a_deal_elsewhere_and_sees_one_at_its_table(
    playing, django_assert_num_queries, caplog
):
    tournament, (here, elsewhere) = playing
    theirs, mine = _player_at(elsewhere), _player_at(here)
    phones = {pk: Client() for pk in (theirs, mine)}
    tags = {
        pk: phone.get(_me(tournament, pk), HTTP_ACCEPT_ENCODING="gzip")["ETag"]
        for pk, phone in phones.items()
    }
    standings = reverse("public:standings", args=[tournament.slug])
    tv = reverse("public:tv", args=[tournament.slug])
    boards = {url: Client().get(url)["ETag"] for url in (standings, tv)}

    enter_deal(here, 1)

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="tarot.pagecache"):
        with django_assert_num_queries(1):  # the tournament, with the player's sheets
            again = phones[theirs].get(
                _me(tournament, theirs),
                HTTP_ACCEPT_ENCODING="gzip",
                HTTP_IF_NONE_MATCH=tags[theirs],
            )
        assert again.status_code == 304
        for url, tag in boards.items():
            assert Client().get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert not [r for r in caplog.records if r.name == "tarot.pagecache"]  # nothing rendered
    seen = phones[mine].get(_me(tournament, mine), HTTP_IF_NONE_MATCH=tags[mine])
    assert seen.status_code == 200 and seen["ETag"] != tags[mine]
    assert 'id="round-2-deal-1"' in seen.content.decode()


def test_each_readers_standings_show_the_field_in_their_language(playing):
    tournament, _tables = playing
    withdrawn = tournament.registrations.order_by("pk").first()
    Registration.objects.filter(pk=withdrawn.pk).update(status=Registration.Status.WITHDRAWN)
    services.tournament_touch(tournament_id=tournament.pk)
    url = reverse("public:standings", args=[tournament.slug])
    others = list(tournament.registrations.exclude(pk=withdrawn.pk).values_list("pk", flat=True))
    pages = {
        (pk, language): Client()
        .get(f"{url}?joueur={pk}", HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
        for pk in others[:2]
        for language in ("fr", "en")
    }
    expected = {s.entry.id: s.total for s in current_standings(_fresh(tournament)).standings()}
    for (_pk, language), page in pages.items():  # the rows are kept once, shown in each
        assert ("(forfait)" in page) == (language == "fr")
        assert ("(withdrawn)" in page) == (language == "en")
    response = Client().get(f"{url}?joueur={others[2]}")  # a page not kept yet: rendered
    rows = {row["id"]: row["total"] for part in response.context["parts"] for row in part[0].rows}
    assert rows and all(expected[pk] == total for pk, total in rows.items())


def test_a_championship_page_and_the_standings_share_one_computation_while_a_sheet_fills(
    playing, django_assert_num_queries
):
    """A deal on a sheet not counted yet leaves the standings' version, so the standings kept by
    one page (``current_standings``) serve a championship's (``current_standings_of``), and back."""
    from scoring.standings import current_standings_of

    tournament, (here, _elsewhere) = playing
    enter_deal(here, 1)
    after = _fresh(tournament)
    kept = current_standings(after)
    with django_assert_num_queries(0):
        assert current_standings_of([after]) == {after.pk: kept}
        assert current_standings(after) is kept

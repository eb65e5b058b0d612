"""The season's data from the database: final results of closed tournaments only, a fixed
number of queries, and who may change a club's season."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import FinalResults
from scoring.season import current_season_data, formula_in_words, season_data
from scoring.standings import current_standings
from tarot_club.errors import ServiceError
from tests.tournaments.conftest import make_tournament, make_user
from tournaments import championship, services
from tournaments.models import Season, Tournament
from tournaments.permissions import can_manage_club, can_organise, can_run
from tournaments.services import clubs

pytestmark = pytest.mark.django_db


def test_results_are_each_closed_tournament_standings(season_of):
    demo = season_of(2, players=8)
    data = season_data(demo.season)
    assert [t.tournament.pk for t in data.tournaments] == [
        *(t.pk for t in demo.tournaments),
        demo.upcoming.pk,
    ]
    assert [(t.counted, t.played, t.field) for t in data.tournaments] == [
        (True, True, 8),
        (True, True, 8),
        (False, False, 0),
    ]
    for tournament in demo.tournaments:
        standings = current_standings(tournament)
        places = {
            standings.player_ids[s.entry.id]: (s.rank, s.total) for s in standings.standings()
        }
        mine = {r.player: (r.place, r.total) for r in data.results if r.tournament == tournament.pk}
        assert mine == places
    # The season ranks those results with its own formula.
    expected = championship.season_standings(data.results, demo.season.formula)
    assert [(s.player, s.points, s.rank) for s in data.standings()] == [
        (s.player, s.points, s.rank) for s in expected
    ]
    # The upcoming tournament is in the season, not played, not counted.
    assert demo.upcoming.season_id == demo.season.pk


def test_a_tournament_not_closed_is_provisional_and_adds_nothing(season_of, organiser):
    demo = season_of(1, players=8)
    open_one = services.tournament_update(tournament=demo.tournaments[0], finished=False)
    data = season_data(open_one.season)
    assert [t.tournament.pk for t in data.provisional] == [open_one.pk]
    assert data.results == [] and data.standings() == []
    services.tournament_update(tournament=open_one, finished=True)
    with pytest.raises(ServiceError, match="reopen the tournament first"):
        services.round_reopen(round_=open_one.round_set.get(number=1))
    # A round reopened while the tournament is marked finished (as a database older than
    # « Terminer le tournoi » may hold) still keeps the tournament out of the season.
    services.tournament_update(tournament=open_one, finished=False)
    services.round_reopen(round_=open_one.round_set.get(number=1))
    services.tournament_update(tournament=open_one, finished=True)
    data = season_data(Season.objects.get(pk=demo.season.pk))
    assert [t.tournament.pk for t in data.provisional] == [open_one.pk]


def _queries(season) -> int:
    with CaptureQueriesContext(connection) as queries:
        season_data(Season.objects.get(pk=season.pk)).standings()
    return len(queries)


def test_a_fixed_number_of_queries_whatever_the_number_of_tournaments(season_of):
    small = season_of(1, players=8, seed=1, club_name="Petit club")
    large = season_of(3, players=8, seed=2, club_name="Grand club")
    # The first reading after the close: the season, its tournaments, their stored final
    # results (none yet), the four queries of the standings of them all, and the final
    # results stored (delete and insert, in a savepoint here).
    assert _queries(small.season) == _queries(large.season) == 11
    # Later readings take the stored final results.
    assert _queries(small.season) == _queries(large.season) == 3


def test_the_season_is_computed_again_after_any_change(season_of):
    demo = season_of(1, players=8)
    season = Season.objects.get(pk=demo.season.pk)
    first = current_season_data(season)
    assert current_season_data(season) is first
    season = clubs.season_update(season=season, kind="totals", best=0)
    again = current_season_data(season)
    assert again is not first and again.formula.kind == "totals"


def test_stored_final_results_are_read_only_while_the_tournament_has_not_changed(season_of):
    demo = season_of(2, players=8)
    season = Season.objects.get(pk=demo.season.pk)
    truth = season_data(season).results
    assert FinalResults.objects.count() == 2  # the two closed tournaments, not the upcoming one
    first = demo.tournaments[0]
    final = FinalResults.objects.get(tournament=first)
    final.standings = [
        [p, name, place, total + 1000, tied] for p, name, place, total, tied in final.standings
    ]
    final.save()
    # Read as stored while the tournament is the same version...
    read = season_data(season).results
    assert [r.total for r in read] == [
        r.total + (1000 if r.tournament == first.pk else 0) for r in truth
    ]
    # ...and ranked again from the seats, and stored again, once anything changed.
    services.tournament_update(tournament=Tournament.objects.get(pk=first.pk), place="Ailleurs")
    assert season_data(season).results == truth
    again = FinalResults.objects.get(tournament=first)
    assert again.version == Tournament.objects.get(pk=first.pk).changed_at
    assert [row[3] for row in again.standings] == [
        r.total for r in truth if r.tournament == first.pk
    ]


def test_a_bad_formula_is_refused_and_nothing_is_written(season_of):
    demo = season_of(1, players=8)
    for changes, field in [
        ({"place_points": "100, 90, abc"}, "place_points"),
        ({"place_points": "50, 90"}, "place_points"),
        ({"tie_breaks": "coin"}, "tie_breaks"),
        ({"start": demo.season.end, "end": demo.season.start}, None),
    ]:
        with pytest.raises(ServiceError) as raised:
            clubs.season_update(season=demo.season, **changes)
        assert raised.value.field == field, changes
    assert Season.objects.get(pk=demo.season.pk).place_points == demo.season.place_points


def test_formula_changes_are_kept_in_the_season_history(season_of):
    demo = season_of(1, players=8)
    clubs.season_update(season=demo.season, place_points="120, 100 ,80", attendance_bonus=5)
    season = Season.objects.get(pk=demo.season.pk)
    assert season.place_points == "120,100,80"
    assert [h.place_points for h in season.history.order_by("history_date")][-2:] == [
        demo.season.place_points,
        "120,100,80",
    ]


def test_the_formula_in_words():
    words = formula_in_words(championship.Formula(kind="places", best=3, attendance_bonus=5))
    assert words == [
        "Only closed, final tournaments count.",
        "Each tournament gives points by place: 1st 100, 2nd 90, 3rd 80, 4th 70, 5th 60, "
        "6th 50, 7th 40, 8th 30, 9th 20, 10th 10; any place after the 10th: 0. "
        "Tied players share the place and its points.",
        "Only each player's 3 best results count.",
        "Plus 5 points for each tournament played.",
        "Equal points share the rank.",
    ]
    words = formula_in_words(championship.Formula(tie_breaks=("best_place", "played")))
    assert words[1].startswith("Each tournament counts its total")
    assert words[-1] == (
        "Equal points: better best place, then more tournaments played (the club's choice)."
    )


def test_club_organisers_manage_seasons_and_staff_keep_their_tournament(season_of, organiser):
    demo = season_of(1, players=8)
    outsider = make_user("someone-else", organiser=True)
    assert can_manage_club(organiser, demo.club) and not can_manage_club(outsider, demo.club)
    # The outsider's own tournament cannot enter a club they do not organise.
    theirs = make_tournament(0, organiser=outsider)
    with pytest.raises(ServiceError):
        clubs.tournament_season_set(user=outsider, tournament=theirs, season=demo.season)
    # A club organiser gains no right on a tournament they do not run, nor can attach it.
    assert not can_run(organiser, theirs)
    with pytest.raises(ServiceError):
        clubs.tournament_season_set(user=organiser, tournament=theirs, season=demo.season)
    theirs.refresh_from_db()
    assert theirs.season_id is None
    # Once the outsider is also the club's organiser, they may.
    demo.club.organisers.add(outsider)
    outsider = type(outsider).objects.get(pk=outsider.pk)
    clubs.tournament_season_set(user=outsider, tournament=theirs, season=demo.season)
    theirs.refresh_from_db()
    assert theirs.season_id == demo.season.pk
    assert can_organise(outsider, theirs) and not can_run(organiser, theirs)

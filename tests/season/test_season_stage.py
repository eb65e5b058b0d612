"""A championship's stage in a club's season: the season counts each player's own points in
the stage, not the points they carried in from the stage before (the stage's rank, which may
include them, stays its place)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from scoring.championship_demo import create_demo_championship
from scoring.season import formula_in_words, season_data
from scoring.standings import current_standings
from tournaments.championships.models import Stage
from tournaments.services import clubs
from tournaments.services.ending import tournament_finish

pytestmark = pytest.mark.django_db


def test_a_stage_counts_its_own_points_in_the_season():
    demo = create_demo_championship(
        players=12, stages=[12, 8], seed=3, rounds=1, deals=1, final_deals=1, carry="all"
    )
    club = clubs.club_create(name="Club des étapes", ask=False)
    today = date.today()
    season = clubs.season_create(
        club=club, name="Saison", start=today - timedelta(days=1), end=today + timedelta(days=5)
    )
    stages = list(Stage.objects.filter(championship=demo.championship).order_by("number"))
    tournaments = [stage.groups.get().tournament for stage in stages]
    for tournament in tournaments:
        clubs.tournament_season_set(user=None, tournament=tournament, season=season)
        tournament.refresh_from_db()
        if not tournament.finished:  # closing its stage finished the first one
            tournament_finish(tournament=tournament, by="test")
    data = season_data(season)
    final = tournaments[1]
    standings = current_standings(final)
    expected = {
        standings.player_ids[s.entry.id]: (s.rank, s.total - s.entry.carried)
        for s in standings.standings()
    }
    assert any(s.entry.carried for s in standings.standings())
    got = {r.player: (r.place, r.total) for r in data.results if r.tournament == final.pk}
    assert got == expected
    # The first stage carried nothing in: its totals are its standings'.
    first = current_standings(tournaments[0])
    assert {r.player: r.total for r in data.results if r.tournament == tournaments[0].pk} == {
        first.player_ids[s.entry.id]: s.total for s in first.standings()
    }
    assert any("not the points carried in" in line for line in formula_in_words(season.formula))

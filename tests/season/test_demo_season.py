"""``manage.py demo_season``: a season played through the services, its summary as JSON."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from scoring.season import season_data
from tournaments.models import Season, Tournament

pytestmark = pytest.mark.django_db


def test_demo_season_prints_its_summary():
    out = io.StringIO()
    call_command("demo_season", "--tournaments", "2", "--players", "8", "--seed", "3", stdout=out)
    summary = json.loads(out.getvalue())
    season = Season.objects.get(pk=summary["season"]["id"])
    data = season_data(season)
    assert summary["tournaments"] == 2 and summary["players"] == 8
    assert summary["club"]["members"] == 10
    assert [t.counted for t in data.tournaments] == [True, True, False]
    assert summary["standings"] == [
        {"rank": s.rank, "tied": s.tied, "name": s.name, "points": s.points, "played": s.played}
        for s in data.standings()[:5]
    ]
    assert len(summary["formula"]) >= 3


@pytest.mark.parametrize(
    "args", [["--tournaments", "0", "--players", "8"], ["--tournaments", "2", "--players", "3"]]
)
def test_demo_season_refuses_impossible_sizes(args):
    with pytest.raises(CommandError):
        call_command("demo_season", *args)


def test_demo_season_twice_with_one_seed_says_what_to_do_and_changes_nothing():
    call_command(
        "demo_season", "--tournaments", "1", "--players", "4", "--seed", "9", stdout=io.StringIO()
    )
    counts = (Season.objects.count(), Tournament.objects.count())
    with pytest.raises(CommandError, match="choose another --seed"):
        call_command("demo_season", "--tournaments", "1", "--players", "4", "--seed", "9")
    assert (Season.objects.count(), Tournament.objects.count()) == counts
    out = io.StringIO()
    call_command("demo_season", "--tournaments", "1", "--players", "4", "--seed", "10", stdout=out)
    assert json.loads(out.getvalue())["tournaments"] == 1

"""``manage.py demo_championship``: a small funnel played through the services, and its bad
arguments refused in one line."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tournaments.championships.models import CarriedPoints, Championship

pytestmark = pytest.mark.django_db


def test_a_small_funnel_is_played_to_its_final():
    out = io.StringIO()
    call_command(
        "demo_championship", "--players", "8", "--stages", "8,4", "--seed", "3", stdout=out
    )
    summary = json.loads(out.getvalue())
    assert [s["players"] for s in summary["stages"]] == [8, 4]
    assert summary["stages"][0]["qualified"] == 4
    assert summary["winner"]
    championship = Championship.objects.get(slug=summary["slug"])
    assert all(stage.closed_at for stage in championship.stages.all())
    assert CarriedPoints.objects.count() == 4


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--players", "8", "--stages", "8,x"], "--stages lists the field"),
        (["--players", "8", "--stages", "9,4"], "starts with --players"),
        (["--players", "8", "--stages", "8"], "starts with --players"),
        (["--players", "8", "--stages", "8,10"], "fewer players than the one before"),
        (["--players", "99999", "--stages", "99999,4"], "3 to 2000 players"),
        (["--players", "8", "--stages", "8,4", "--seed", "-1"], "--seed goes from 0"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(argv, expected):
    with pytest.raises(CommandError) as refused:
        call_command("demo_championship", *argv)
    assert expected in str(refused.value) and "\n" not in str(refused.value)
    assert not Championship.objects.exists()

"""The demonstration commands: ``demo_tournament`` and ``setup_demo``."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from tournaments.models import Registration, Round, Season, Seat, StaffMember, Tournament
from tournaments.permissions import can_create_tournaments

from .conftest import en_client

pytestmark = pytest.mark.django_db

KEYS = {
    "slug",
    "players",
    "rounds",
    "tables_per_round",
    "table_sizes",
    "repeat_meetings",
    "teammates_together",
    "deals",
}


def demo(**options) -> dict:
    out = StringIO()
    call_command("demo_tournament", stdout=out, **options)
    return json.loads(out.getvalue())


def test_demo_tournament_reports_what_is_in_the_database():
    result = demo(players=9, rounds=1, deals=1, seed=4)
    assert set(result) == KEYS
    tournament = Tournament.objects.get(slug=result["slug"])
    assert result["players"] == tournament.registrations.count() == 9
    assert result["rounds"] == Round.objects.filter(tournament=tournament).count() == 1
    assert result["tables_per_round"] == [2]
    assert result["table_sizes"] == {"4": 1, "5": 1}
    assert (
        result["deals"] == Deal.objects.filter(sheet__table__round__tournament=tournament).count()
    )
    # A table of 4 plays 1 deal, a table of 5 one too (5 for every 4, rounded down: nobody
    # there plays more than at a table of 4); passed deals come on top.
    assert result["deals"] >= 1 + 1
    assert_all_signed_and_closed(tournament)


def test_demo_tournament_over_several_rounds():
    result = demo(players=16, rounds=2, deals=1, seed=9)
    tournament = Tournament.objects.get(slug=result["slug"])
    assert result["rounds"] == 2
    assert result["tables_per_round"] == [4, 4]
    assert result["table_sizes"] == {"4": 8}
    assert result["repeat_meetings"] == 0
    assert (
        result["deals"] == Deal.objects.filter(sheet__table__round__tournament=tournament).count()
    )
    assert result["deals"] >= 8
    assert_all_signed_and_closed(tournament)


def assert_all_signed_and_closed(tournament):
    sheets = ScoreSheet.objects.filter(table__round__tournament=tournament)
    assert sheets.exists()
    assert set(sheets.values_list("status", flat=True)) == {"signed"}
    assert all(sheet.fingerprint for sheet in sheets)
    for sheet in sheets:
        seated = set(sheet.table.seats.values_list("registration", flat=True))
        assert set(sheet.signatures.values_list("registration", flat=True)) == seated
    assert set(Round.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        "closed"
    }


def test_demo_with_teams_keeps_team_mates_apart():
    result = demo(players=16, rounds=2, deals=1, teams=2, seed=5)
    assert result["teammates_together"] == 0
    tournament = Tournament.objects.get(slug=result["slug"])
    assert tournament.format == "teams_2"
    assert tournament.teams.count() == 8
    team_of = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "team"))
    for table_id in (
        Seat.objects.filter(round__tournament=tournament).values_list("table", flat=True).distinct()
    ):
        teams = [
            team_of[r]
            for r in Seat.objects.filter(table=table_id).values_list("registration", flat=True)
        ]
        assert len(teams) == len(set(teams))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 10, "teams": 4},
        {"players": 7, "teams": 2},
        {"players": 8, "rounds": 0},
        {"players": 8, "deals": 31},
    ],
)
def test_demo_tournament_refuses_impossible_settings(options):
    with pytest.raises(CommandError):
        call_command("demo_tournament", stdout=StringIO(), **options)
    assert not Tournament.objects.exists()


def test_demo_tournament_refuses_unseatable_teams_cleanly():
    """Three teams of 4 cannot be kept apart on three tables: a CommandError, not a crash."""
    with pytest.raises(CommandError, match="share a table"):
        call_command("demo_tournament", stdout=StringIO(), players=12, teams=4, rounds=1)


def test_setup_demo_creates_the_organiser_and_tournaments_once():
    out = StringIO()
    call_command("setup_demo", stdout=out)
    assert "organisateur" in out.getvalue() and "tarot-demo" in out.getvalue()
    user = get_user_model().objects.get(username="organisateur")
    assert can_create_tournaments(user)
    tournaments = list(Tournament.objects.order_by("pk"))
    # Two tournaments, then the club season's three closed ones and the next one, then the
    # small championship's stage 1 and final.
    assert len(tournaments) == 8
    season = Season.objects.get()
    assert [t.season_id for t in tournaments] == [None, None, *[season.pk] * 4, None, None]
    assert list(season.club.organisers.all()) == [user]
    for tournament in tournaments:
        assert StaffMember.objects.get(tournament=tournament, user=user).role == "organiser"

    client = en_client()
    assert client.login(username="organisateur", password="tarot-demo")
    listed = set(client.get(reverse("tournaments:list")).context["tournaments"])
    assert listed == set(tournaments)
    for tournament in tournaments:
        url = reverse("tournaments:dashboard", args=[tournament.slug])
        assert client.get(url).status_code == 200
    assert client.get(reverse("tournaments:create")).status_code == 200

    counts = (
        get_user_model().objects.count(),
        Tournament.objects.count(),
        Registration.objects.count(),
        Round.objects.count(),
        Deal.objects.count(),
    )
    out = StringIO()
    call_command("setup_demo", stdout=out)
    assert "demo not loaded" in out.getvalue()
    assert (
        get_user_model().objects.count(),
        Tournament.objects.count(),
        Registration.objects.count(),
        Round.objects.count(),
        Deal.objects.count(),
    ) == counts


def test_setup_demo_gives_every_new_page_real_content():
    """Séries, sexes and years of birth, two halls played in, categories and a prize list,
    a championship whose stage 1 is played: the hall TV, the category standings and TV, the
    prize list and the championship page all show players."""
    call_command("setup_demo", stdout=StringIO())
    demo = Tournament.objects.get(name="Tournoi de démonstration par équipes")
    registrations = list(Registration.objects.filter(tournament=demo))
    assert all(r.series and r.sex in ("F", "M") and r.birth_year for r in registrations)
    assert {r.sex for r in registrations} == {"F", "M"}
    client = en_client()
    for slug, tables in (("pourny", range(1, 4)), ("capucins", range(4, 11))):
        tv = client.get(reverse("public:tv", args=[demo.slug]) + f"?salle={slug}")
        assert tv.status_code == 200
        seated = Seat.objects.filter(
            round__tournament=demo, round__number=3, table__number__in=tables
        ).select_related("registration")
        assert seated.exists()
        text = tv.content.decode()
        assert all(seat.registration.full_name in text for seat in seated)
    categories = client.get(reverse("public:categories", args=[demo.slug])).content.decode()
    assert "No player in this category." not in categories
    assert categories.count('class="standings category"') == 1
    prizes = categories[categories.index('id="palmares"') :]
    assert "Coupe des Dames" in prizes and "(not awarded)" not in prizes
    tv = client.get(reverse("public:tv", args=[demo.slug])).content.decode()
    assert "tv-category" in tv
    championship = client.get(reverse("championships:public", args=["championnat-du-club"]))
    assert "8 qualifiers as things stand" in championship.content.decode()

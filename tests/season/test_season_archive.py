"""The season's archive: exported from the staff page, imported into an empty database with the
same season standings, all or nothing; for those who organise the club and all its tournaments."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.season import season_data
from scoring.season_archive import export_season_json, import_season_json
from tarot_club.errors import ServiceError
from tests.tournaments.conftest import en_client, make_user
from tournaments.models import Club, Player, Registration, Season, SeatRequest, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db


def standings(season):
    data = season_data(Season.objects.get(pk=season.pk))
    return (
        [(s.rank, s.tied, s.name, s.points, s.played) for s in data.standings()],
        [(t.tournament.slug, t.counted, t.field, t.winners) for t in data.tournaments],
        data.formula,
    )


def test_round_trip_into_an_empty_database(season_of, organiser):
    demo = season_of(2, players=8)
    before = standings(demo.season)
    response = en_client(organiser).get(
        reverse("tournaments:season_archive", args=[demo.club.slug, demo.season.pk])
    )
    assert response.status_code == 200
    content = response.content
    assert json.loads(content)["format"] == "tarot-club-season"
    # As on another machine: nothing of the club is left.
    SeatRequest.objects.all().delete()
    for tournament in Tournament.objects.all():
        tournament_delete(tournament=tournament)
    Club.objects.all().delete()
    Player.objects.all().delete()
    imported = import_season_json(content)
    assert standings(imported) == before
    with pytest.raises(ServiceError):
        import_season_json(content)  # already here: refused


def test_a_damaged_archive_imports_nothing(season_of):
    demo = season_of(1, players=8)
    archive = json.loads(export_season_json(demo.season))
    archive["club"]["name"] = "Autre club"
    archive["season"]["name"] = "Autre saison"
    archive["tournaments"][0]["rounds"][0]["tables"][0]["sheet"]["deals"][0]["scores"][0] += 10
    counts = (Club.objects.count(), Season.objects.count(), Registration.objects.count())
    with pytest.raises(ServiceError):
        import_season_json(json.dumps(archive))
    assert (Club.objects.count(), Season.objects.count(), Registration.objects.count()) == counts


def test_only_who_organises_every_tournament_downloads_it(season_of, organiser):
    demo = season_of(1, players=8)
    url = reverse("tournaments:season_archive", args=[demo.club.slug, demo.season.pk])
    club_only = make_user("club-only", organiser=True)
    demo.club.organisers.add(club_only)
    assert en_client(club_only).get(url).status_code == 404
    assert en_client(organiser).get(url).status_code == 200
    assert en_client().get(url).status_code == 302


def test_an_oversized_or_hostile_archive_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from django.core.management import CommandError, call_command

    from scoring import season_archive

    # A 5,000-digit number or NaN is refused as damage, not parsed.
    for hostile in (
        b'{"format": "tarot-club-season", "version": ' + b"9" * 5000 + b"}",
        b'{"format": "tarot-club-season", "version": NaN}',
    ):
        with pytest.raises(ServiceError, match="damaged"):
            import_season_json(hostile)
    monkeypatch.setattr(season_archive, "MAX_BYTES", 1000)
    big = b'{"format": "tarot-club-season", "padding": "' + b"x" * 2000 + b'"}'
    with pytest.raises(ServiceError, match="largest season archive"):
        import_season_json(big)
    path = tmp_path / "season.json"
    path.write_bytes(big)
    with pytest.raises(CommandError, match="largest season archive"):
        call_command("import_season", str(path))
    assert not Season.objects.exists()


def _empty_of_tournaments():
    """As on another machine that knows the club but none of these tournaments."""
    SeatRequest.objects.all().delete()
    for tournament in Tournament.objects.all():
        tournament_delete(tournament=tournament)


@pytest.mark.parametrize(
    "damage",
    [
        lambda a: a["club"].__setitem__("name", "Club\x00de tarot"),
        lambda a: a["season"].__setitem__("name", "Saison\x002025"),
        lambda a: a["club"].__setitem__("place", None),
        lambda a: a["club"].__setitem__("place", ["Lyon"]),
        lambda a: a["club"].__setitem__("name", "x" * 500),
    ],
    ids=[
        "NUL in the club's name",
        "NUL in the season's name",
        "place null",
        "place a list",
        "long",
    ],
)
def test_a_damaged_club_or_season_text_is_a_sentence_and_imports_nothing(
    season_of, tmp_path, damage
):
    demo = season_of(1, players=8)
    archive = json.loads(export_season_json(demo.season))
    _empty_of_tournaments()
    Club.objects.all().delete()
    Player.objects.all().delete()
    damage(archive)
    counts = (Club.objects.count(), Season.objects.count(), Tournament.objects.count())
    with pytest.raises(ServiceError, match=r"endommagée|damaged"):
        import_season_json(json.dumps(archive), merge_club=True)
    path = tmp_path / "season.json"
    path.write_text(json.dumps(archive))
    with pytest.raises(CommandError) as refused:
        call_command("import_season", str(path))
    assert "\n" not in str(refused.value)
    assert (Club.objects.count(), Season.objects.count(), Tournament.objects.count()) == counts


def test_a_season_of_a_club_already_here_is_merged_only_when_asked(season_of, tmp_path):
    demo = season_of(1, players=8)
    archive = json.loads(export_season_json(demo.season))
    archive["season"]["name"] = "Saison importée"
    _empty_of_tournaments()
    club = Club.objects.get(pk=demo.club.pk)
    # Renamed here since: the short name still tells it is the same club.
    Club.objects.filter(pk=club.pk).update(name="Tarot Club renommé")
    path = tmp_path / "season.json"
    path.write_text(json.dumps(archive))
    counts = (Club.objects.count(), Season.objects.count(), Tournament.objects.count())
    with pytest.raises(CommandError) as refused:
        call_command("import_season", str(path))
    message = str(refused.value)
    assert "Tarot Club renommé" in message and "Saison importée" in message
    assert "--merge-into-existing-club" in message and "\n" not in message
    assert (Club.objects.count(), Season.objects.count(), Tournament.objects.count()) == counts

    call_command("import_season", str(path), "--merge-into-existing-club")
    season = Season.objects.get(name="Saison importée")
    assert season.club_id == club.pk
    assert Club.objects.count() == counts[0]
    assert season.tournaments.count() == len(archive["tournaments"])

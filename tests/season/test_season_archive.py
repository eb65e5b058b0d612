"""The season's archive: exported from the staff page, imported into an empty database with the
same season standings, all or nothing; for those who organise the club and all its tournaments."""

from __future__ import annotations

import json

import pytest
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
    monkeypatch.setattr("scoring.management.commands.import_season.MAX_BYTES", 1000)
    with pytest.raises(CommandError, match="largest season archive"):
        call_command("import_season", str(path))
    assert not Season.objects.exists()

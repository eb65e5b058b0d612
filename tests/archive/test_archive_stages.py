"""A stage's tournament archive carries its stage: the championship, the stage's number, cut
rule, carried points share and seating, the points each player carried in, the invitations and
withdrawals. Exported, imported into an empty database (stage after stage), exported again:
identical, the same people across the stages, the same standings."""

from __future__ import annotations

import json
from datetime import date

import pytest

from scoring.archive import export_json, export_tournament, import_json
from scoring.standings import standings_data
from tarot_club.errors import ServiceError
from tests.championships.conftest import make_championship, tournament_of
from tournaments import services
from tournaments.championships import selectors
from tournaments.championships import services as championship_services
from tournaments.championships.models import (
    CarriedPoints,
    Championship,
    Invitation,
    Stage,
)
from tournaments.models import Player, Registration, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db


def closed_first_stage():
    """12 players, the top 7 go on (one of them withdraws: the 8th takes the place) with an
    invited player, carrying half their points."""
    championship, (first, second) = make_championship(12, cut=7, carry=Stage.Carry.HALF)
    invited = Player.objects.create(first_name="Inès", last_name="Invitée")
    championship_services.invitation_add(stage=first, player=invited)
    leader = selectors.stage_state(first).rows[0]
    championship_services.withdrawal_add(
        stage=first, registration=Registration.objects.get(pk=leader.registration_id)
    )
    championship_services.stage_close(stage=first)
    return championship, first, second


def keyed_by_name(archive: dict) -> dict:
    """The archive's stage, registration keys (this database's ids) replaced by names."""
    names = {r["key"]: (r["last_name"], r["first_name"]) for r in archive["registrations"]}
    stage = json.loads(json.dumps(archive["stage"]))
    for row in stage["carried"]:
        row["registration"] = names[row["registration"]]
    stage["carried"].sort(key=lambda row: row["registration"])
    stage["withdrawals"] = sorted(names[key] for key in stage["withdrawals"])
    return stage


def standings(tournament: Tournament) -> list:
    return [
        (s.entry.name, s.rank, s.total, s.entry.carried)
        for s in standings_data(tournament).standings()
    ]


def test_stages_round_trip_identical():
    championship, first, second = closed_first_stage()
    tournaments = [tournament_of(first), tournament_of(second)]
    archives = [export_tournament(t) for t in tournaments]
    contents = [export_json(t) for t in tournaments]
    stage2 = archives[1]["stage"]
    assert stage2["championship"]["slug"] == championship.slug
    assert (stage2["number"], stage2["carry"], stage2["seating"]) == (2, "half", "snake")
    assert archives[0]["stage"]["closed_at"] is not None
    assert len(stage2["carried"]) == 8
    assert sum(1 for row in stage2["carried"] if row["from"] is None) == 1  # the invited player
    assert {row["from"] for row in stage2["carried"]} == {tournaments[0].slug, None}
    assert [i["last_name"] for i in archives[0]["stage"]["invitations"]] == ["Invitée"]
    assert len(archives[0]["stage"]["withdrawals"]) == 1
    before = [standings(t) for t in tournaments]
    assert any(carried for *_rest, carried in before[1])
    people = Player.objects.count()

    # Another machine's empty database.
    championship.delete()
    for tournament in tournaments:
        tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    imported = [import_json(content) for content in contents]

    again = [export_tournament(t) for t in imported]
    for archive, other in zip(archives, again, strict=True):
        assert keyed_by_name(other) == keyed_by_name(archive)
    assert [standings(t) for t in imported] == before
    # The same people across the stages: the championship ranks them as before.
    assert Player.objects.count() == people
    assert Championship.objects.count() == 1
    assert list(Stage.objects.values_list("number", "carry")) == [(1, "half"), (2, "half")]
    played_first = set(
        Registration.objects.filter(tournament=imported[0]).values_list("player_id", flat=True)
    )
    invited = Invitation.objects.get().player
    assert invited.last_name == "Invitée"
    assert set(
        Registration.objects.filter(tournament=imported[1]).values_list("player_id", flat=True)
    ) <= played_first | {invited.pk}
    sources = CarriedPoints.objects.filter(source__isnull=False)
    assert sources.count() == 7
    assert {c.source.tournament_id for c in sources} == {imported[0].pk}
    assert all(c.source.player_id == c.registration.player_id for c in sources)


def test_an_archive_outside_a_championship_has_no_stage_key():
    tournament = services.tournament_create(created_by=None, name="Seul", date=date(2026, 5, 1))
    assert "stage" not in export_tournament(tournament)


def test_a_stage_already_here_with_other_settings_is_refused():
    _championship, first, _second = closed_first_stage()
    tournament = tournament_of(first)
    archive = export_tournament(tournament)
    tournament_delete(tournament=tournament)
    Stage.objects.filter(pk=first.pk).update(carry=Stage.Carry.ALL)
    with pytest.raises(ServiceError) as caught:
        import_json(json.dumps(archive))
    assert "stage.number" in str(caught.value)
    assert not Tournament.objects.filter(slug=archive["tournament"]["slug"]).exists()
    archive["stage"]["carried"] = [
        {"registration": -1, "points": 3, "from": None, "previous_rank": 1}
    ]
    with pytest.raises(ServiceError) as caught:
        import_json(json.dumps(archive))
    assert "stage.carried[0].registration" in str(caught.value)

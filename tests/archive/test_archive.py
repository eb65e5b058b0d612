"""Tournament archives: export then import: same standings, same fingerprints; bad files refused."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from scoring.archive import export_json, export_tournament, import_json
from scoring.demo import create_demo
from scoring.models import Deal, ScoreSheet, SheetEvent, SheetSeal, Signature
from scoring.scores import to_engine
from scoring.selectors import current_canonical
from scoring.services import Actor, deal_record, penalty_add
from scoring.standings import standings_data
from tarot_club.errors import ServiceError
from tournaments.models import Player, Registration, Round, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db

MODELS = [Tournament, Registration, Player, Deal, Signature, SheetEvent, SheetSeal]


def counts():
    return {m.__name__: m.objects.count() for m in MODELS}


def snapshot(tournament):
    data = standings_data(tournament)
    standings = [(s.entry.name, s.rank, s.total) for s in data.standings()]
    sheets = {
        (s.table.round.number, s.table.number): (s.status, s.fingerprint, current_canonical(s)[0])
        for s in ScoreSheet.objects.filter(table__round__tournament=tournament).select_related(
            "table__round"
        )
    }
    history = sorted(
        (h.number, h.version, str(h.points), h.history_change_reason or "")
        for h in Deal.history.filter(sheet__table__round__tournament=tournament)
    )
    return standings, sheets, history


@pytest.fixture
def played(db, django_user_model):
    tournament = create_demo(players=9, rounds=2, deals=2, seed=8, play_rounds=1).tournament
    referee = django_user_model.objects.create_user("arbitre-a", password="pw-arbitre-a1")
    sheet = ScoreSheet.objects.filter(table__round__tournament=tournament).first()
    deal = sheet.deals.first()
    from tournaments import services

    services.round_reopen(round_=tournament.round_set.get(number=1))
    engine = to_engine(deal, sheet.table.seats.count())
    from dataclasses import replace

    deal_record(
        sheet=sheet,
        number=deal.number,
        kind="played",
        actor=Actor.staff(referee),
        deal=replace(engine, points=engine.points + 1),
        version=deal.version,
        reason="Erreur de comptage",
    )
    penalty_add(
        sheet=sheet,
        registration=sheet.table.seats.first().registration,
        amount=-10,
        reason="Retard",
        actor=Actor.staff(referee),
    )
    return tournament


def test_round_trip_into_an_empty_database(played):
    before = snapshot(played)
    content = export_json(played)
    # Empty the database of this tournament (as on another machine).
    slug = played.slug
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    imported = import_json(content)
    assert imported.slug == slug
    after = snapshot(imported)
    assert after == before
    assert any(status == "amended" for status, *_ in before[1].values())
    assert all(
        fp == recomputed for status, fp, recomputed in after[1].values() if status == "signed"
    )


def test_export_holds_every_deal_version_signatures_and_events(played):
    archive = export_tournament(played)
    sheets = [t["sheet"] for r in archive["rounds"] for t in r["tables"]]
    assert archive["format"] == "tarot-club-tournament" and archive["version"] == 3
    assert sum(len(s["deal_history"]) for s in sheets) == Deal.history.count()
    assert sum(len(s["signatures"]) for s in sheets) == Signature.objects.count()
    assert sum(len(s["events"]) for s in sheets) == SheetEvent.objects.count()
    assert any(h["history_user"] == "arbitre-a" for s in sheets for h in s["deal_history"])
    assert all(r["pin"] for r in archive["registrations"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"%PDF-1.4 not json", "This file is not a tournament archive (it is not JSON)."),
        (b'{"hello": "world"}', "This file is not a Tarot Club tournament archive."),
        (
            json.dumps({"format": "tarot-club-tournament", "version": 99}).encode(),
            "This archive was made by a newer version of the application (format 99).",
        ),
        (
            json.dumps({"format": "tarot-club-tournament", "version": 1}).encode(),
            "The archive is damaged (tournament: missing): nothing was imported.",
        ),
        (b"\xff\xfe\x00garbage", "This file is not a tournament archive (it is not JSON)."),
    ],
)
def test_foreign_or_damaged_files_are_refused_and_change_nothing(
    played, content, message, settings
):
    settings.LANGUAGE_CODE = "en"
    before = counts()
    with pytest.raises(ServiceError) as raised:
        import_json(content)
    assert raised.value.message == message
    assert counts() == before


def test_an_altered_score_is_refused(played):
    archive = export_tournament(played)
    tournament_delete(tournament=played)
    deal = archive["rounds"][0]["tables"][0]["sheet"]["deals"][0]
    deal["scores"] = [
        s + 1 if i == 0 else s - 1 if i == 1 else s for i, s in enumerate(deal["scores"])
    ]
    before = counts()
    with pytest.raises(ServiceError, match=r"\d"):
        import_json(json.dumps(archive))
    assert counts() == before


def test_an_altered_signed_sheet_is_refused(played):
    archive = export_tournament(played)
    tournament_delete(tournament=played)
    signed = next(
        t["sheet"]
        for r in archive["rounds"]
        for t in r["tables"]
        if t["sheet"]["status"] == "signed"
    )
    signed["signatures"][0]["signed_at"] = "2020-01-01T10:00:00+00:00"
    with pytest.raises(ServiceError):
        import_json(json.dumps(archive))
    assert not Tournament.objects.exists()


def test_importing_twice_is_refused(played):
    content = export_json(played)
    with pytest.raises(ServiceError):
        import_json(content)


def test_commands(played, tmp_path):
    path = tmp_path / "archive.json"
    call_command("export_tournament", played.slug, "-o", str(path))
    assert json.loads(path.read_text())["tournament"]["slug"] == played.slug
    with pytest.raises(CommandError):
        call_command("import_tournament", str(path))  # already here
    tournament_delete(tournament=played)
    call_command("import_tournament", str(path))
    assert Tournament.objects.filter(slug=played.slug).exists()
    with pytest.raises(CommandError):
        call_command("import_tournament", str(tmp_path / "missing.json"))


def test_a_penalty_after_signing_amends_the_sheet_and_the_archive_still_imports(played):
    """Signatures vouch for the sheet as sealed, penalties included: a penalty given after
    signing voids them (the sheet shows 'amended' until signed again), so the archive's
    signed sheets still match their fingerprints."""
    from django.contrib.auth import get_user_model

    signed = ScoreSheet.objects.filter(
        table__round__tournament=played, status=ScoreSheet.Status.SIGNED
    ).first()
    referee = get_user_model().objects.get(username="arbitre-a")
    penalty_add(
        sheet=signed,
        registration=signed.table.seats.first().registration,
        amount=-20,
        reason="Comportement",
        actor=Actor.staff(referee),
    )
    signed.refresh_from_db()
    assert signed.status == ScoreSheet.Status.AMENDED
    assert not Signature.objects.filter(sheet=signed, superseded_at__isnull=True).exists()
    content = export_json(played)
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    imported = import_json(content)
    assert (
        ScoreSheet.objects.filter(table__round__tournament=imported, status="amended").count() >= 2
    )


def test_seats_changed_by_hand_travel_with_the_archive(played):
    Round.objects.filter(tournament=played, number=1).update(seats_changed=2)
    content = export_json(played)
    older = json.loads(content)
    for round_data in older["rounds"]:
        del round_data["seats_changed"]  # an archive made before the count existed
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    imported = import_json(content)
    assert Round.objects.get(tournament=imported, number=1).seats_changed == 2
    tournament_delete(tournament=imported)
    Player.objects.all().delete()
    imported = import_json(json.dumps(older))
    assert Round.objects.get(tournament=imported, number=1).seats_changed == 0

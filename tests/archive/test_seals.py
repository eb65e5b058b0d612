"""Seals nobody can forge: each signed sheet is signed with the installation's private key, kept
out of the database and of archives; the verification page and the archive import check it."""

from __future__ import annotations

import hashlib
import json
import os
import stat

import pytest
from django.urls import reverse

from scoring.archive import export_json, export_tournament, import_json
from scoring.demo import create_demo
from scoring.documents.fingerprint import canonical_bytes
from scoring.documents.seal import key_code, new_private_key, public_key_text, sign_seal
from scoring.models import ScoreSheet, SheetSeal, TrustedKey
from scoring.sealing import installation_public_key
from scoring.trust import UnknownKeys
from tarot_club.errors import ServiceError
from tournaments.models import Player, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db


@pytest.fixture
def keys(settings, tmp_path):
    """This installation's key lives in a file of the test's own folder."""
    settings.SEAL_KEY_FILE = str(tmp_path / "here.seal-key")
    settings.INSTALLATION_NAME = "Club de Lyon"
    return tmp_path


@pytest.fixture
def played(keys):
    return create_demo(players=8, rounds=2, deals=2, seed=3, play_rounds=1).tournament


def _signed_sheets(archive):
    return [
        t["sheet"]
        for r in archive["rounds"]
        for t in r["tables"]
        if t["sheet"]["status"] == "signed"
    ]


def _verify_page(client, tournament):
    seal = SheetSeal.objects.filter(
        sheet__table__round__tournament=tournament, sheet__status="signed"
    ).first()
    return client.get(reverse("verify_code", args=[seal.code]), HTTP_ACCEPT_LANGUAGE="fr")


def _forge_a_name(archive, name="Faussaire"):
    """What someone with the app's code does: rename a player of a signed sheet, recompute the
    seal's content and every fingerprint (all that a plain SHA-256 needed)."""
    sheet = _signed_sheets(archive)[0]
    seal = next(s for s in sheet["seals"] if s["fingerprint"] == sheet["fingerprint"])
    old_name = seal["content"]["players"][0]["name"]
    registration = next(
        r
        for r in archive["registrations"]
        if f"{r['first_name']} {r['last_name']}" == old_name
        or f"{r['last_name']} {r['first_name']}" == old_name
    )
    registration["last_name"] = name
    registration["licence"] = ""
    return sheet, seal, registration


def test_signing_seals_with_a_key_file_kept_out_of_the_database(played, keys):
    path = keys / "here.seal-key"
    assert path.exists() and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    pem = path.read_bytes()
    seals = SheetSeal.objects.filter(sheet__table__round__tournament=played)
    assert seals.exists()
    for seal in seals:
        assert seal.public_key == installation_public_key()
        assert seal.installation == "Club de Lyon" and len(seal.signature) == 88
    # Neither the database nor the archive holds the private key.
    archive = export_json(played)
    body = pem.split(b"-----")[2].strip()
    assert body not in archive
    assert json.loads(archive)["origin"] == {
        "installation": "Club de Lyon",
        "public_key": installation_public_key(),
        "fingerprint": key_code(installation_public_key()),
    }
    assert all(body.decode() not in str(s.__dict__) for s in seals)


def test_the_verification_page_shows_who_sealed(played, client):
    response = _verify_page(client, played)
    text = response.content.decode()
    assert response.status_code == 200
    assert "Authentique" in text
    assert "Scellée par Club de Lyon (cette installation)" in text
    assert f"Empreinte de la clé {key_code(installation_public_key())}" in text


def test_a_seal_altered_in_the_database_is_called_altered(played, client):
    seal = SheetSeal.objects.filter(
        sheet__table__round__tournament=played, sheet__status="signed"
    ).first()
    content = seal.content
    content["deals"][0]["points"] = "90"
    SheetSeal.objects.filter(pk=seal.pk).update(content=content)
    text = client.get(reverse("verify_code", args=[seal.code])).content.decode()
    assert "Authentique" not in text and "Scellée par" not in text
    assert 'data-seal="broken"' in text


def test_an_archive_sealed_elsewhere_shows_its_installation_once_its_key_is_trusted(
    played, keys, settings, client
):
    # The archive was made by another installation (another key, another name).
    content = export_json(played)
    lyon = key_code(installation_public_key())
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    TrustedKey.objects.all().delete()  # another installation's database
    settings.SEAL_KEY_FILE = str(keys / "elsewhere.seal-key")
    settings.INSTALLATION_NAME = "Club de Paris"
    with pytest.raises(UnknownKeys, match=lyon):
        import_json(content)
    assert not Tournament.objects.exists()
    imported = import_json(content, trust=[lyon])
    text = _verify_page(client, imported).content.decode()
    assert "Authentique" in text
    assert "Scellée par Club de Lyon." in text and "cette installation" not in text
    assert f"Empreinte de la clé {lyon}" in text


def test_a_forged_archive_with_recomputed_fingerprints_is_refused(played):
    archive = export_tournament(played)
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    sheet, seal, _registration = _forge_a_name(archive)
    seal["content"]["players"][0]["name"] = "Faussaire"
    fingerprint = hashlib.sha256(canonical_bytes(seal["content"])).hexdigest()
    seal["fingerprint"] = sheet["fingerprint"] = fingerprint
    with pytest.raises(ServiceError, match=r"ne se vérifie pas|does not verify"):
        import_json(json.dumps(archive))
    assert not Tournament.objects.exists() and not SheetSeal.objects.exists()


def test_a_signed_sheet_whose_seal_was_removed_is_refused(played):
    archive = export_tournament(played)
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    sheet = _signed_sheets(archive)[0]
    sheet["seals"] = [s for s in sheet["seals"] if s["fingerprint"] != sheet["fingerprint"]]
    with pytest.raises(ServiceError):
        import_json(json.dumps(archive))
    assert not Tournament.objects.exists()


def test_a_forger_who_signs_with_their_own_key_cannot_pass_for_the_club(played):
    """A forger may seal with a key of their own and borrow the club's name: the import asks
    to trust the forger's key, under its own fingerprint, never the club's."""
    archive = export_tournament(played)
    club_key = installation_public_key()
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    forger = new_private_key()
    for sheet in _signed_sheets(archive):
        for seal in sheet["seals"]:
            seal["public_key"] = public_key_text(forger)
            seal["signature"] = sign_seal(forger, seal["content"], seal["installation"])
    with pytest.raises(UnknownKeys) as refused:
        import_json(json.dumps(archive))
    assert [code for _name, _key, code in refused.value.keys] == [key_code(public_key_text(forger))]
    assert key_code(club_key) not in str(refused.value)
    assert not Tournament.objects.exists() and not SheetSeal.objects.exists()


def test_an_archive_from_before_seals_imports_but_proves_nothing(played, client):
    archive = export_tournament(played)
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    archive["version"] = 1
    del archive["origin"]
    for sheet in _signed_sheets(archive):
        for seal in sheet["seals"]:
            for field in ("signature", "public_key", "installation"):
                del seal[field]
    imported = import_json(json.dumps(archive))
    assert ScoreSheet.objects.filter(table__round__tournament=imported, status="signed").exists()
    text = _verify_page(client, imported).content.decode()
    assert "Authentique" not in text and "Scellée par" not in text
    assert 'data-seal="none"' in text

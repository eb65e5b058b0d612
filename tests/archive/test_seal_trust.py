"""A seal means what a reader thinks it means (issue 26): its signature covers the sheet, the
installation's name and its key; only a key this installation trusts makes it « Authentique »;
every sheet, archive and verification page shows the key's fingerprint to compare with the one
the club publishes. The forger's attacks are played end to end, as the issue tells them."""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import socket
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive import export_json, export_tournament, import_json
from scoring.demo import create_demo
from scoring.documents.fingerprint import canonical_bytes, verification_code
from scoring.documents.seal import (
    key_code,
    new_private_key,
    public_key_file,
    public_key_text,
    seal_scheme,
    sign_content,
    sign_seal,
)
from scoring.models import Deal, SheetSeal, TrustedKey
from scoring.scores import deal_scores
from scoring.sealing import installation_name, installation_public_key
from scoring.sheet_documents import render_sheets, tables_in_scope
from scoring.trust import UnknownKeys
from tarot_club.errors import ServiceError
from tests.tournaments.conftest import en_client, make_user
from tournaments.models import Club, Player, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db


@pytest.fixture
def keys(settings, tmp_path):
    settings.SEAL_KEY_FILE = str(tmp_path / "lyon.seal-key")
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


def _forget(tournament):
    """Another installation's database: neither this tournament nor the keys trusted here."""
    tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    TrustedKey.objects.all().delete()


def _verify(client, seal):
    response = client.get(reverse("verify_code", args=[seal.code]), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    return response.content.decode()


def _a_seal_of(tournament) -> SheetSeal:
    return SheetSeal.objects.filter(
        sheet__table__round__tournament=tournament, sheet__status="signed"
    ).first()


def _forge_points(archive, forger, name="Club de Lyon"):
    """What a forger at home does with the app's code: change a played deal's points on a
    signed sheet, score it again, recompute the seal's content and fingerprints, and sign
    every seal with a key of their own under the club's name. Returns the forged code."""
    sheet = next(
        s for s in _signed_sheets(archive) if any(d["kind"] == "played" for d in s["deals"])
    )
    deal = next(d for d in sheet["deals"] if d["kind"] == "played")
    size = len(sheet["seals"][-1]["content"]["players"])
    points = Decimal(deal["points"])
    points = points + 10 if points <= 81 else points - 10
    stored = Deal(**{k: v for k, v in deal.items() if k in {f.name for f in Deal._meta.fields}})
    stored.points = points
    stored.handfuls = deal["handfuls"]
    scores = deal_scores(stored, size, archive["tournament"]["rule_set"])
    deal["points"], deal["scores"] = f"{points.normalize():f}", scores
    seal = next(s for s in sheet["seals"] if s["fingerprint"] == sheet["fingerprint"])
    content_deal = next(d for d in seal["content"]["deals"] if d["number"] == deal["number"])
    content_deal["points"], content_deal["scores"] = deal["points"], scores
    fingerprint = hashlib.sha256(canonical_bytes(seal["content"])).hexdigest()
    seal["fingerprint"] = sheet["fingerprint"] = fingerprint
    seal["code"] = verification_code(fingerprint)
    for sheet_ in _signed_sheets(archive):
        for s in sheet_["seals"]:
            s["installation"] = name
            s["public_key"] = public_key_text(forger)
            s["signature"] = sign_seal(forger, s["content"], name)
    archive["origin"] = {"installation": name, "public_key": public_key_text(forger)}
    return seal["code"]


# -- what a seal signs --------------------------------------------------------------------------


def test_a_seal_signs_the_content_the_installation_name_and_the_key(played):
    seal = _a_seal_of(played)
    assert seal.installation == "Club de Lyon"
    assert seal_scheme(seal.public_key, seal.content, "Club de Lyon", seal.signature) == 2
    # The same signature does not verify under another name, nor as a content-only seal.
    assert seal_scheme(seal.public_key, seal.content, "Fédération", seal.signature) == 0
    assert TrustedKey.objects.filter(public_key=seal.public_key, own=True).exists()


# -- the forger's attacks, end to end -----------------------------------------------------------


def test_the_forgers_attack_points_changed_and_resigned_at_home_is_never_genuine(played, client):
    """Alter a signed sheet's points in an archive, score it again, sign it with a key made at
    home under the club's name, import it: the import stops and shows the forger's fingerprint,
    not the club's; nothing is imported and no page calls the forged sheet « Authentique »."""
    club = key_code(installation_public_key())
    archive = export_tournament(played)
    _forget(played)
    forger = new_private_key()
    forged_code = _forge_points(archive, forger)
    organiser = make_user("orga", organiser=True)
    page = en_client(organiser)
    page.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    upload = SimpleUploadedFile("archive.json", json.dumps(archive).encode())
    response = page.post(reverse("tournaments:archive_import"), {"file": upload})
    text = response.content.decode()
    assert response.status_code == 409
    assert key_code(public_key_text(forger)) in text and club not in text
    assert "Authentique" not in text and 'data-step="trust"' in text
    assert not Tournament.objects.exists() and not SheetSeal.objects.exists()
    assert not TrustedKey.objects.exclude(public_key=installation_public_key()).exists()
    verified = client.get(reverse("verify_code", args=[forged_code]), HTTP_ACCEPT_LANGUAGE="fr")
    assert verified.status_code == 404 and "Authentique" not in verified.content.decode()


def test_a_genuine_seal_relabelled_with_another_name_does_not_verify(played, client):
    archive = export_tournament(played)
    _forget(played)
    for sheet in _signed_sheets(archive):
        for seal in sheet["seals"]:
            seal["installation"] = "Fédération Française de Tarot"
    with pytest.raises(ServiceError, match=r"ne se vérifie pas|does not verify") as refused:
        import_json(json.dumps(archive))
    assert not isinstance(refused.value, UnknownKeys)
    assert not Tournament.objects.exists() and not SheetSeal.objects.exists()


def test_a_seal_relabelled_in_the_database_is_called_altered(played, client):
    seal = _a_seal_of(played)
    SheetSeal.objects.filter(pk=seal.pk).update(installation="Fédération Française de Tarot")
    text = _verify(client, seal)
    assert 'data-seal="broken"' in text
    assert "Authentique" not in text and "Fédération" not in text


# -- unknown keys, trusted keys -----------------------------------------------------------------


def test_a_valid_signature_by_an_unknown_key_is_never_called_genuine(played, client):
    seal = _a_seal_of(played)
    stranger = new_private_key()
    SheetSeal.objects.filter(pk=seal.pk).update(
        public_key=public_key_text(stranger),
        signature=sign_seal(stranger, seal.content, "Club de Lyon"),
    )
    text = _verify(client, seal)
    code = key_code(public_key_text(stranger))
    assert f"Signature valide, clé inconnue (empreinte {code})" in text
    assert 'data-seal="unknown"' in text
    assert "Authentique" not in text and "Scellée par" not in text


def test_importing_an_archive_of_another_club_asks_to_trust_its_key_on_the_staff_page(
    played, keys, settings, client
):
    lyon_key = installation_public_key()
    content = export_json(played)
    _forget(played)
    settings.SEAL_KEY_FILE = str(keys / "paris.seal-key")
    settings.INSTALLATION_NAME = "Club de Paris"
    organiser = make_user("orga", organiser=True)
    page = en_client(organiser)
    page.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    url = reverse("tournaments:archive_import")
    asked = page.post(url, {"file": SimpleUploadedFile("a.json", content)})
    assert asked.status_code == 409
    text = asked.content.decode()
    assert key_code(lyon_key) in text and "Club de Lyon" in text
    assert f'name="trust" value="{lyon_key}"' in text
    assert not Tournament.objects.exists()
    # Not ticked: asked again, nothing imported.
    again = page.post(url, {"file": SimpleUploadedFile("a.json", content)})
    assert again.status_code == 409 and not Tournament.objects.exists()
    done = page.post(url, {"file": SimpleUploadedFile("a.json", content), "trust": lyon_key})
    assert done.status_code == 302
    trusted = TrustedKey.objects.get(public_key=lyon_key)
    assert (trusted.name, trusted.added_by, trusted.own) == ("Club de Lyon", organiser, False)
    text = _verify(client, _a_seal_of(Tournament.objects.get()))
    assert "Authentique" in text and "Scellée par Club de Lyon." in text
    assert f"Empreinte de la clé {key_code(lyon_key)}" in text


def test_a_lost_key_still_vouches_for_what_it_sealed(played, keys, settings, client):
    seal = _a_seal_of(played)
    settings.SEAL_KEY_FILE = str(keys / "new.seal-key")  # the old file is gone: a new key
    assert installation_public_key() != seal.public_key
    text = _verify(client, seal)
    assert "Authentique" in text and "Scellée par Club de Lyon." in text


# -- seals made before names were signed --------------------------------------------------------


def _sealed_the_old_way(seal, key, name):
    SheetSeal.objects.filter(pk=seal.pk).update(
        public_key=public_key_text(key),
        signature=sign_content(key, seal.content),
        installation=name,
    )


def test_an_old_seal_by_a_trusted_key_says_its_name_is_not_signed(played, keys, client):
    seal = _a_seal_of(played)
    federation = new_private_key()
    TrustedKey.objects.create(public_key=public_key_text(federation), name="Ligue du Rhône")
    _sealed_the_old_way(seal, federation, "Fédération Française de Tarot")
    text = _verify(client, seal)
    assert 'data-seal="old"' in text and "Scellée par" not in text
    assert "Scellée avec la clé de Ligue du Rhône" in text
    assert (
        "pas le nom qu'il porte (\u00abFédération Française de Tarot\u00bb)".replace(
            "\u00ab", "\u00ab\u00a0"
        ).replace("\u00bb", "\u00a0\u00bb")
        in text
    )


def test_an_old_seal_by_an_unknown_key_reads_unknown(played, client):
    seal = _a_seal_of(played)
    _sealed_the_old_way(seal, new_private_key(), "Club de Lyon")
    text = _verify(client, seal)
    assert 'data-seal="unknown"' in text and "Authentique" not in text


def test_the_upgrade_signs_this_installations_old_seals_with_their_name(played, settings):
    """The seals this installation made before names were signed are signed again, by the
    same key, over their content, name and key; seals by other keys are left as they were."""
    own = list(SheetSeal.objects.all())
    from scoring.sealing import installation_key

    for seal in own:
        _sealed_the_old_way(seal, installation_key(), "vm")
    stranger = new_private_key()
    _sealed_the_old_way(own[0], stranger, "Club de Paris")
    TrustedKey.objects.all().delete()
    migration = importlib.import_module("scoring.migrations.0010_trusted_keys")
    migration.trust_own_key_and_sign_names(apps, None)
    for seal in SheetSeal.objects.all():
        if seal.pk == own[0].pk:
            assert seal.installation == "Club de Paris"
            assert seal_scheme(seal.public_key, seal.content, "", seal.signature) == 1
        else:
            assert seal.installation == "Club de Lyon"
            assert seal_scheme(seal.public_key, seal.content, "Club de Lyon", seal.signature) == 2
    assert list(TrustedKey.objects.values_list("public_key", "own")) == [
        (installation_public_key(), True)
    ]


# -- the fingerprint on every document ----------------------------------------------------------


def test_every_printed_sheet_and_archive_shows_the_keys_fingerprint(played):
    code = key_code(installation_public_key())
    tables = tables_in_scope(played, round_number=1)
    pdf = PdfReader(io.BytesIO(render_sheets(played, tables, fmt="pdf")))
    pages = [page.extract_text() for page in pdf.pages]
    assert pages and all(f"Clé du sceau : {code}" in text for text in pages)
    book = load_workbook(io.BytesIO(render_sheets(played, tables, fmt="xlsx")))
    sheets = [ws for ws in book.worksheets if ws["A1"].value == "FEUILLE DE MARQUE"]
    assert sheets
    for ws in sheets:
        values = [cell.value for row in ws.iter_rows() for cell in row]
        assert "Clé du sceau" in values and code in values
        assert code in ws.oddFooter.center.text
    assert json.loads(export_json(played))["origin"]["fingerprint"] == code


# -- the installation's name --------------------------------------------------------------------


def test_without_a_chosen_name_seals_carry_the_clubs_name_never_the_host(settings, tmp_path):
    settings.SEAL_KEY_FILE = str(tmp_path / "club.seal-key")
    settings.INSTALLATION_NAME = ""
    Club.objects.create(name="Tarot Club de Villeurbanne", slug="villeurbanne")
    assert installation_name() == "Tarot Club de Villeurbanne"
    played = create_demo(players=8, rounds=1, deals=2, seed=4, play_rounds=1).tournament
    seal = _a_seal_of(played)
    assert seal.installation == "Tarot Club de Villeurbanne"
    text = _verify(en_client(), seal)
    assert "Scellée par Tarot Club de Villeurbanne (cette installation)" in text
    assert f"Scellée par {socket.gethostname()}" not in text


# -- the commands -------------------------------------------------------------------------------


def test_a_club_publishes_its_key_and_another_trusts_it_after_comparing(
    played, keys, settings, client
):
    published = keys / "lyon.pub"
    out = io.StringIO()
    call_command("publish_seal_key", "-o", str(published), stdout=out)
    lyon = key_code(installation_public_key())
    assert f"written to {published} (fingerprint: {lyon})" in out.getvalue()
    assert published.read_text() == public_key_file("Club de Lyon", installation_public_key())
    content = export_json(played)
    _forget(played)
    settings.SEAL_KEY_FILE = str(keys / "paris.seal-key")
    settings.INSTALLATION_NAME = "Club de Paris"
    # A fingerprint that is not the key's is refused, and nothing is trusted.
    with pytest.raises(Exception, match=r"not this key's|n'est pas celle de cette clé") as wrong:
        call_command("trust_key", str(published), "--fingerprint", "AAAA-BBBB-CCCC-DDDD")
    assert type(wrong.value).__name__ == "CommandError"
    assert not TrustedKey.objects.filter(name="Club de Lyon").exists()
    out = io.StringIO()
    call_command("trust_key", str(published), "--fingerprint", lyon.lower(), stdout=out)
    assert f"Club de Lyon, fingerprint {lyon}" in out.getvalue()
    imported = import_json(content)
    assert "Authentique" in _verify(client, _a_seal_of(imported))
    out = io.StringIO()
    call_command("trust_key", "--list", stdout=out)
    assert f"{lyon}  Club de Lyon" in out.getvalue()


def test_import_tournament_names_the_unknown_key_and_trusts_it_when_told(
    played, keys, settings, tmp_path
):
    path = tmp_path / "archive.json"
    path.write_bytes(export_json(played))
    lyon = key_code(installation_public_key())
    _forget(played)
    settings.SEAL_KEY_FILE = str(keys / "paris.seal-key")
    with pytest.raises(Exception, match=lyon) as refused:
        call_command("import_tournament", str(path))
    assert type(refused.value).__name__ == "CommandError"
    assert not Tournament.objects.exists()
    call_command("import_tournament", str(path), "--trust", lyon, stdout=io.StringIO())
    assert Tournament.objects.exists()

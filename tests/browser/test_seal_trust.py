"""An organiser imports another club's archive: the page stops on the key it does not know, shows
its fingerprint, and imports only once the organiser ticks that they compared it (issue 26)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.archive import export_json
from scoring.demo import create_demo
from scoring.documents.seal import key_code
from scoring.management.commands.setup_demo import organiser_group
from scoring.models import SheetSeal, TrustedKey
from scoring.sealing import installation_public_key
from tournaments.models import Player, Tournament
from tournaments.services import tournament_delete

from .helpers import login

expect = pytest.importorskip("playwright.sync_api").expect


def test_an_organiser_trusts_a_clubs_key_after_comparing_its_fingerprint(
    page, shot, settings, tmp_path
):
    # Made by the Club de Lyon's installation...
    settings.SEAL_KEY_FILE = str(tmp_path / "lyon.seal-key")
    settings.INSTALLATION_NAME = "Club de Lyon"
    played = create_demo(players=8, rounds=2, deals=2, seed=3, play_rounds=1).tournament
    archive = export_json(played)
    lyon = key_code(installation_public_key())
    # ...imported by the Club de Paris's, which has never seen that key.
    tournament_delete(tournament=played)
    Player.objects.all().delete()
    TrustedKey.objects.all().delete()
    settings.SEAL_KEY_FILE = str(tmp_path / "paris.seal-key")
    settings.INSTALLATION_NAME = "Club de Paris"
    user = get_user_model().objects.create_user("organisatrice", password="tarot-2026-Paris-75")
    user.groups.add(organiser_group())
    login(page, "organisatrice", "tarot-2026-Paris-75")

    page.goto(reverse("tournaments:archive_import"))
    upload = {"name": "archive-lyon.json", "mimeType": "application/json", "buffer": archive}
    page.locator("input[type=file][name=file]").set_input_files(upload)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    step = page.locator("[data-step=trust]")
    expect(step).to_be_visible()
    expect(step).to_contain_text(lyon)
    expect(step).to_contain_text("Club de Lyon")
    shot(page, "trust-step")
    assert not Tournament.objects.exists()

    page.get_by_label("Faire confiance à cette clé").check()
    page.locator("input[type=file][name=file]").set_input_files(upload)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    tournament = Tournament.objects.get()
    assert page.url.endswith(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert TrustedKey.objects.get(name="Club de Lyon").added_by == user

    seal = SheetSeal.objects.filter(sheet__table__round__tournament=tournament).first()
    page.goto(reverse("verify_code", args=[seal.code]))
    expect(page.locator("main")).to_contain_text("Authentique")
    expect(page.locator("main")).to_contain_text("Scellée par Club de Lyon.")
    expect(page.locator("main")).to_contain_text(f"Empreinte de la clé {lyon}")
    shot(page, "verified")

"""A long player list's preview on the organiser's phone: the confirmation is on the first
screen, not only under hundreds of rows (1,203 lines took tens of thousands of pixels to reach)."""

from __future__ import annotations

from datetime import date

import pytest

from tests.tournaments.conftest import make_user
from tournaments import services

from .helpers import horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_confirmation_of_a_long_preview_is_on_the_first_screen(phone_at, tmp_path):
    user = make_user("orga-import", organiser=True)
    tournament = services.tournament_create(
        created_by=user, name="Grand open", date=date(2026, 11, 30), seed=3
    )
    rows = ["nom;prénom;club;licence"]
    rows += [f"Nom{i:03d};Prénom{i};Club {i // 3};B{i:07d}" for i in range(60)]
    csv = tmp_path / "joueurs.csv"
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")

    phone = phone_at(390, 844).new_page()
    login(phone, "orga-import", "pw-orga-import")
    phone.goto(f"/t/{tournament.slug}/gestion/joueurs/import/")
    phone.locator("input[type=file]").set_input_files(str(csv))
    phone.get_by_role("button", name="Aperçu").click()
    confirm = phone.get_by_role("button", name="Importer 60 joueurs").first
    expect(confirm).to_be_visible()
    assert confirm.bounding_box()["y"] + confirm.bounding_box()["height"] <= 844
    assert horizontal_overflow(phone) == 0
    confirm.click()
    expect(phone.locator("main")).to_contain_text("60 joueurs importés")

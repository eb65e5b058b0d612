"""A championship followed on a phone (390 × 844), in French: its page shows the stage, its
cut in words and who goes on as things stand; the stage's standings draw the cut line under
the last qualifier."""

from __future__ import annotations

import pytest

from tests.championships.conftest import make_championship, tournament_of
from tournaments.championships import selectors

from .helpers import axe_problems
from .test_public_pages import assert_no_sideways_scroll

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_reads_the_championship_and_the_cut_line_on_a_phone(phone_at, shot):
    championship, (first, _second) = make_championship(12, cut=8)
    last_in = selectors.stage_state(first).qualified_rows[-1]
    page = phone_at(width=390, height=844).new_page()
    page.goto(f"/championnat/{championship.slug}/")
    expect(page.get_by_role("heading", name=championship.name)).to_be_visible()
    expect(
        page.get_by_text("Les 8 premiers se qualifient, sur l’ensemble de l’étape.")
    ).to_be_visible()
    expect(page.get_by_text("8 qualifiés en l’état actuel")).to_be_visible()
    expect(page.locator("ol.qualifiers li")).to_have_count(8)
    assert_no_sideways_scroll(page, "championship page")
    assert axe_problems(page) == []
    shot(page, "championship")

    page.get_by_role("link", name=tournament_of(first).name).click()
    line = page.locator("table.standings tr.cut-line")
    expect(line).to_have_count(1)
    expect(line).to_be_visible()
    expect(line).to_contain_text(last_in.name)
    expect(page.get_by_text("Chaque qualifié reporte la moitié de ses points")).to_be_visible()
    assert_no_sideways_scroll(page, "stage standings")
    assert axe_problems(page) == []
    shot(page, "cut-line")

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


def test_the_stage_tv_shows_every_player_with_the_cut_under_the_last_qualifier(page, shot):
    """The walk's TV of a stage: the cut's label was a list item of its own, the grid grew a
    column for it, names broke mid-word and rows went under the footer."""
    from scoring.standings import standings_data

    from .test_tv_screen import NAMES_SHOWN, one_cycle, open_tv

    _championship, (first, _second) = make_championship(40, cut=16)
    stage_tournament = tournament_of(first)
    expected = {str(s.entry.id) for s in standings_data(stage_tournament).standings()}
    last_in = selectors.cut_line_of(stage_tournament)["last_in"]  # in the standings' order
    open_tv(page, stage_tournament.slug, "1080p")
    shown = page.evaluate(NAMES_SHOWN)
    assert shown and all(row["inside"] for row in shown), "a row is under the footer"
    assert not any(row["overflow"] for row in shown), "a name leaves its column"
    columns = page.evaluate(
        "() => new Set(Array.from(document.querySelectorAll('.tv-row'))"
        ".filter((r) => r.offsetParent !== null)"
        ".map((r) => Math.round(r.getBoundingClientRect().width))).size"
    )
    assert columns == 1, "every column of a page is as wide as the others"
    seen = [row for p in one_cycle(page) for row in p["rows"]]
    assert set(seen) == expected and len(seen) == len(expected)
    cut = page.locator(".tv-row.cut-line")
    expect(cut).to_have_count(1)
    expect(cut).to_have_attribute("data-id", str(last_in))
    expect(cut.locator(".tv-cut")).to_have_text("Limite de qualification")
    shot(page, "stage-tv")

"""Public pages read on a phone (375 px): standings, "me", a player's page, a score sheet.

A played tournament (``create_demo``: 12 players, 2 rounds of 2 deals) is built through the real
services; a real Chromium reads it as a player would, in French, on a small touch screen.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.utils import translation

from scoring.demo import create_demo
from scoring.engine import Contract, Deal, get_rule_set
from scoring.models import Score, ScoreSheet
from scoring.services import Actor, deal_record
from scoring.standings import standings_data
from tournaments import services
from tournaments.models import Registration, Seat, Tournament

from .helpers import SHEET_DEAL_ROWS, SHEET_TOTALS, fr, horizontal_overflow, widest_elements

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


_DEMO: dict[str, Path] = {}


@pytest.fixture
def played(tmp_path_factory):
    """The demo tournament: built once per test process, then reloaded from its dump.

    Building it seats two rounds (a few seconds of seating search); every test needs the same
    data, and the live server's transactional tests empty the database after each test.
    """
    if "dump" not in _DEMO:
        tournament = create_demo(players=12, rounds=2, deals=2, seed=4).tournament
        dump = tmp_path_factory.mktemp("demo") / "demo.json"
        call_command("dumpdata", "tournaments", "scoring", output=str(dump), verbosity=0)
        _DEMO["dump"] = dump
        return tournament
    call_command("loaddata", str(_DEMO["dump"]), verbosity=0)
    return Tournament.objects.get()


def assert_no_sideways_scroll(page, what: str) -> None:
    overflow = horizontal_overflow(page)
    assert overflow == 0, (
        f"{what}: the page is {overflow}px wider than the 375px screen; "
        f"sticking out: {widest_elements(page)}"
    )


def test_standings_fit_a_phone_and_rank_like_the_ranking_code(played, phone, shot):
    page = phone.new_page()
    page.goto(f"/t/{played.slug}/classement/")
    rows = page.locator("table.standings tbody tr")
    expected = standings_data(played).standings()
    expect(rows).to_have_count(len(expected))

    first = rows.first.locator("td")
    assert first.nth(1).inner_text().strip() == expected[0].entry.name
    assert rows.first.locator("td.strong").inner_text().strip() == str(expected[0].total)
    totals = page.locator("table.standings tbody td.strong").all_inner_texts()
    shown = [int(t.strip()) for t in totals]
    assert shown == [s.total for s in expected]

    assert_no_sideways_scroll(page, "standings")
    shot(page, "standings")


def test_search_box_is_thumb_sized_on_a_phone(played, phone):
    page = phone.new_page()
    page.goto(f"/t/{played.slug}/")
    search = page.locator("form.search input[name=q]")
    expect(search).to_be_visible()
    box = search.bounding_box()
    font = search.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
    assert box["height"] >= 44 and font >= 16, f"height {box['height']}px, text {font}px"


def test_me_flow_from_the_home_page(played, phone, shot):
    registration = Registration.objects.filter(tournament=played).order_by("pk")[5]
    player = registration
    page = phone.new_page()
    page.goto(f"/t/{played.slug}/")
    assert_no_sideways_scroll(page, "public home")
    shot(page, "home")

    search = page.locator("form.search input[name=q]")
    search.fill(player.last_name)
    with page.expect_navigation():
        search.press("Enter")
    assert_no_sideways_scroll(page, "search results")
    shot(page, "search")
    with page.expect_navigation():
        page.get_by_role("link", name=player.full_name, exact=True).first.click()
    # Two players may share a last name: the link names the player, the page must be theirs.
    assert page.url.rstrip("/").endswith(f"/joueur/{registration.pk}")
    expect(page.locator("h1")).to_have_text(player.full_name)

    # Where I sit now: the latest round's table and seat, and who else is there.
    seat = (
        Seat.objects.filter(registration=registration)
        .select_related("table", "round")
        .order_by("-round__number")
        .first()
    )
    where = page.locator("section.where")
    with translation.override("fr"):
        seat_label = seat.label
    sentence = fr("Round %(r)s: table %(t)s, seat %(s)s") % {
        "r": seat.round.number,
        "t": seat.table.number,
        "s": seat_label,
    }
    expect(where.locator("p.big")).to_have_text(sentence)
    for other in Seat.objects.filter(table=seat.table).select_related("registration"):
        expect(where).to_contain_text(other.registration.full_name)

    # My total for each round, as the sheets counted it.
    sections = page.locator("main section.card:not(.where)")
    expect(sections).to_have_count(2)
    for index, number in enumerate([2, 1]):  # latest round first
        total = Score.objects.filter(registration=registration, round_number=number).aggregate(
            total=Sum("points")
        )["total"]
        expect(sections.nth(index).locator("h2 span.num")).to_have_text(str(total))

    # Why a deal scored what it did: the explanation opens under its summary.
    details = page.locator("ol.deals details").first
    explanation = details.locator("dl.explanation")
    expect(explanation).to_be_hidden()
    details.locator("summary").tap()
    expect(explanation).to_be_visible()
    lines = explanation.locator("div")
    assert lines.count() >= 4
    expect(lines.first.locator("dt")).to_have_text(fr("Contract"))

    # The progression chart: one point per round, drawn and on screen.
    chart = page.locator("figure.chart svg")
    expect(chart).to_be_visible()
    expect(chart.locator("circle.dot")).to_have_count(2)
    box = chart.bounding_box()
    assert box and box["width"] > 200 and box["x"] + box["width"] <= 375 + 0.5

    assert_no_sideways_scroll(page, "player page")
    shot(page, "player")


def test_english_switch_changes_the_language(played, phone, shot):
    registration = Registration.objects.filter(tournament=played).order_by("pk").first()
    page = phone.new_page()
    page.goto(f"/t/{played.slug}/joueur/{registration.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    where = page.locator("section.where")
    first_line = page.locator("ol.deals dl.explanation dt").first
    # Strings the French catalogue holds today: the seat and the explanation of a deal.
    seat = Seat.objects.filter(registration=registration).order_by("-round__number").first()
    with translation.override("fr"):
        french_seat = seat.label
    with translation.override("en"):
        english_seat = seat.label
    assert french_seat != english_seat, "the seat labels should be translated"
    expect(where).to_contain_text(french_seat)
    expect(first_line).to_have_text(fr("Contract"), use_inner_text=False)
    shot(page, "french")

    with page.expect_navigation():
        page.locator("header .lang a[lang=en]").click()
    # Back on the same page, now in English, and the switch says so.
    assert page.url.rstrip("/").endswith(f"/joueur/{registration.pk}")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("header .lang a[lang=en]")).to_have_attribute("aria-current", "true")
    expect(page.locator("section.where")).to_contain_text(english_seat)
    expect(page.locator("ol.deals dl.explanation dt").first).to_have_text(
        "Contract", use_inner_text=False
    )
    assert_no_sideways_scroll(page, "English player page")
    shot(page, "english")

    # The choice sticks on the next page.
    page.goto(f"/t/{played.slug}/classement/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Standings")
    expect(page.locator("table.standings thead")).to_contain_text("Player")


def test_public_pages_read_in_french(played, phone):
    """The same public texts differ between the French page and the English one.

    (The French catalogue once held only the calculator's strings: these pages were English.)
    """
    registration = Registration.objects.filter(tournament=played).order_by("pk").first()
    pages = [
        (f"/t/{played.slug}/", "form.search label"),
        (f"/t/{played.slug}/classement/", "h1"),
        (f"/t/{played.slug}/classement/", "table.standings thead"),
        (f"/t/{played.slug}/joueur/{registration.pk}/", "section.card:not(.where) h2"),
    ]
    page = phone.new_page()

    def texts():
        out = []
        for url, selector in pages:
            page.goto(url)
            out.append(page.locator(selector).first.inner_text().strip())
        return out

    french = texts()
    page.goto(pages[0][0])
    with page.expect_navigation():
        page.locator("header .lang a[lang=en]").click()
    english = texts()
    same = [f for f, e in zip(french, english, strict=True) if f == e]
    assert not same, f"still in English on the French pages: {same}"


def test_signed_score_sheet_fits_a_phone(played, phone, shot):
    """The table's link on North's phone after the round: deals, totals, signatures."""
    page = phone.new_page()
    signed = ScoreSheet.objects.filter(table__round__tournament=played).order_by("pk").first()
    assert signed.table.seats.count() == 4
    page.goto(f"/table/{signed.token}/")
    expect(page.locator(SHEET_DEAL_ROWS)).to_have_count(2)
    expect(page.locator(SHEET_TOTALS)).to_have_count(4)
    expect(page.locator("#sheet-status")).to_have_text(fr("Signed"))
    expect(page.locator("#entry")).to_have_count(0)
    assert_no_sideways_scroll(page, "signed score sheet")
    shot(page, "signed-sheet")


def test_every_round_total_of_a_table_of_four_is_on_a_phone_screen(played, phone, shot):
    """Players check their four totals (and that they sum to zero) before signing.

    (The sheet once cut the 4th player's column off on a phone, behind a sideways scroll.)
    """
    page = phone.new_page()
    sheet = ScoreSheet.objects.filter(table__round__tournament=played).order_by("pk").first()
    page.goto(f"/table/{sheet.token}/")
    totals = page.locator(SHEET_TOTALS)
    expect(totals).to_have_count(4)
    shot(page, "sheet")
    width = page.viewport_size["width"]
    cut = [
        totals.nth(i).inner_text()
        for i in range(4)
        if (box := totals.nth(i).bounding_box()) is None or box["x"] + box["width"] > width
    ]
    assert not cut, f"round totals off the screen: {cut}"


LONG_NAMES = [
    ("de La Rochefoucauld-Liancourt", first)
    for first in ["Marie-Thérèse", "Jean-Christophe", "Bérénice-Anaïs", "Maximilien"]
]
USUAL_NAMES = [("Thomas", "Jules"), ("Faure", "Irène"), ("Martin", "Léa"), ("Durand", "Théo")]


def _table_of_four(names):
    """A 4-player table whose sheet is half entered: the deal form is on the table's page."""
    tournament = services.tournament_create(
        created_by=None, name="Feuille sur un téléphone", date=date.today(), rounds=1, seed=3
    )
    for last, first in names:
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first),
            present=True,
        )
    round_ = services.round_seat_next(tournament=tournament)
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=Deal(players=4, taker=1, contract=Contract.GARDE, oudlers=2, points=Decimal(45)),
        actor=Actor.table(page="test"),
    )
    return sheet


def test_deal_form_with_long_names_fits_a_phone(phone, shot):
    sheet = _table_of_four(LONG_NAMES)
    page = phone.new_page()
    page.goto(f"/table/{sheet.token}/")
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("#entry fieldset[data-field=contract]")).to_be_visible()
    shot(page, "entry-sheet")
    assert_no_sideways_scroll(page, "score sheet with the deal form")


def _preview_a_deal(page):
    """North fills a deal (garde, 2 oudlers, 47 points) and the htmx preview appears."""
    entry = page.locator("#entry")
    entry.locator("input[name=taker][value='0'] + label").click()
    entry.locator("input[name=contract][value=garde] + label").click()
    entry.locator("input[name=oudlers][value='2'] + label").click()
    entry.locator("input[name=points]").fill("47")
    entry.locator("input[name=points]").press("Tab")
    result = page.locator("#preview .result-scores")
    expect(result.locator("table.scores td")).to_have_count(4)
    return result


def test_score_preview_names_the_rules(phone):
    sheet = _table_of_four(USUAL_NAMES)
    page = phone.new_page()
    page.goto(f"/table/{sheet.token}/")
    result = _preview_a_deal(page)
    rules = fr(get_rule_set(sheet.table.round.tournament.rule_set).label)
    shown = result.locator("p.muted").inner_text()  # no waiting: the preview is complete
    assert rules in shown, f"the preview says {shown!r}, not the rules ({rules})"


def test_score_preview_fits_a_phone(phone, shot):
    sheet = _table_of_four(USUAL_NAMES)
    page = phone.new_page()
    page.goto(f"/table/{sheet.token}/")
    assert_no_sideways_scroll(page, "deal form before the preview")
    result = _preview_a_deal(page)
    shot(page, "preview")
    assert_no_sideways_scroll(page, "deal form with the score preview")
    # Both edges measured at once: a later preview may replace the element between two calls.
    card_right, table_right = result.evaluate(
        "(card) => [card.getBoundingClientRect().right,"
        " card.querySelector('table.scores').getBoundingClientRect().right]"
    )
    assert table_right <= card_right, (
        f"the scores table ends at {table_right:.0f}px, its card at {card_right:.0f}px"
    )


def test_progression_chart_is_drawn_in_french(played, phone, shot):
    registration = Registration.objects.filter(tournament=played).order_by("pk").first()
    page = phone.new_page()
    page.goto(f"/t/{played.slug}/joueur/{registration.pk}/")
    svg = page.locator("figure.chart svg")
    expect(svg).to_be_visible()
    shot(page, "chart")
    bad = svg.evaluate(
        """(svg) => {
            const number = /^-?[0-9]+([.][0-9]+)?$/;
            return [...svg.querySelectorAll('*')].flatMap((el) =>
                ['cx', 'cy', 'x', 'y', 'x1', 'x2', 'y1', 'y2']
                    .filter((a) => el.hasAttribute(a) && !number.test(el.getAttribute(a)))
                    .map((a) => `${el.tagName} ${a}="${el.getAttribute(a)}"`));
        }"""
    )
    assert not bad, f"SVG coordinates the browser cannot read: {bad}"

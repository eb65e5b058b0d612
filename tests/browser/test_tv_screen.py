"""The room's screen (``/t/<slug>/ecran/``) on a 1920x1080 and a 1280x720 television.

What the room sees: the whole screen used, no site header, one line per player, text big enough
to read from 5 m, every player shown in every paging cycle, team and individual standings in
turn for a team event, the tables still playing, and new results without a reload. Paging is
made fast with ``?secondes=`` (the organiser's setting) and updates with ``?maj=``.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from scoring.demo import create_demo
from scoring.standings import standings_data
from tests.scene import build_scene, finish_table
from tournaments import services
from tournaments.models import Table, Tournament

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"1080p": (1920, 1080), "720p": (1280, 720)}
# Readable from 5 m: on a 40-55" television, 3.4% of the screen's height is a capital letter of
# about 15-20 mm, the size road-sign guidance gives for that distance. Every text of the screen
# is at least that: 36 px on a 1080-line screen, 24 px on a 720-line one.
MIN_FONT_PX = {"1080p": 36, "720p": 24}

# Rows on screen now: visible, inside the viewport, and each on one line.
VISIBLE_ROWS = """() => Array.from(document.querySelectorAll('.tv-row')).filter((row) => {
    const box = row.getBoundingClientRect();
    return row.offsetParent !== null && box.height > 0;
}).map((row) => {
    const box = row.getBoundingClientRect();
    const size = parseFloat(getComputedStyle(row).fontSize);
    return {id: row.dataset.id, inside: box.left >= 0 && box.top >= 0
              && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5,
            oneLine: box.height <= 1.6 * size, name: row.querySelector('.tv-name').textContent};
})"""

# Record the rows of every page shown during the next whole cycle (from its first page to its last).
RECORD_CYCLE = """() => {
    const root = document.querySelector('.tv');
    const cycle = String(Number(root.dataset.cycle) + 1);
    window.tvCycle = cycle;
    window.tvPages = [];
    const visible = () => Array.from(document.querySelectorAll('.tv-row'))
        .filter((row) => row.offsetParent !== null).map((row) => row.dataset.id);
    const title = () => document.querySelector('[data-tv-title]').textContent;
    new MutationObserver(() => {
        if (root.dataset.cycle === cycle) window.tvPages.push({title: title(), rows: visible()});
    }).observe(root, {attributes: true, attributeFilter: ['data-page']});
}"""

# The smallest font size of any text shown (every element with its own visible text).
SMALLEST_TEXT = """() => {
    let smallest = Infinity, where = '';
    for (const el of document.querySelectorAll('body *')) {
        if (el.offsetParent === null && el.tagName !== 'BODY') continue;
        const own = Array.from(el.childNodes).some(
            (n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        if (!own) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < smallest) { smallest = size; where = el.className || el.tagName; }
    }
    return [smallest, where];
}"""


def big_field(players: int = 70) -> Tournament:
    return create_demo(
        players=players, rounds=2, deals=1, seed=21, play_rounds=1, name="Grand Prix du Comtat"
    ).tournament


def open_tv(page, slug: str, size: str, query: str = "secondes=0.4"):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/t/{slug}/ecran/?{query}")
    page.wait_for_function("() => document.querySelector('.tv').dataset.pages")


def one_cycle(page) -> list[dict]:
    """Every page of one cycle, as shown: its title and the rows visible on it."""
    page.evaluate(RECORD_CYCLE)
    page.wait_for_function(
        "() => Number(document.querySelector('.tv').dataset.cycle) > Number(window.tvCycle)"
    )
    return page.evaluate("() => window.tvPages")


@pytest.mark.parametrize("size", list(SIZES))
def test_every_player_is_shown_in_every_cycle(page, size, shot):
    tournament = big_field()
    expected = {str(s.entry.id) for s in standings_data(tournament).standings()}
    open_tv(page, tournament.slug, size)
    assert page.locator("header.topbar").count() == 0, "the site header takes room on the TV"
    assert page.locator("meta[http-equiv=refresh]").count() == 0

    first = page.evaluate(VISIBLE_ROWS)
    assert len(first) > 12, f"only {len(first)} rows on a {size} screen"
    assert all(row["inside"] for row in first), "a row is cut off by the edge of the screen"
    # One line each, but for a name too long for its column (a namesake's club added): it
    # takes the lines it needs, never cut (issue 27).
    wrapped = [row["name"] for row in first if not row["oneLine"]]
    assert all(len(name) > 24 for name in wrapped), f"a short name wraps: {wrapped}"
    columns = page.evaluate(
        "() => new Set(Array.from(document.querySelectorAll('.tv-row'))"
        ".filter((r) => r.offsetParent !== null)"
        ".map((r) => Math.round(r.getBoundingClientRect().left))).size"
    )
    assert columns >= 2, "a large field is shown in several columns"
    used = page.evaluate(
        "() => { const rows = Array.from(document.querySelectorAll('.tv-row'))"
        ".filter((r) => r.offsetParent !== null); const r = rows.map((x) => "
        "x.getBoundingClientRect()); return [Math.min(...r.map((b) => b.left)), "
        "Math.max(...r.map((b) => b.right)), Math.max(...r.map((b) => b.bottom))]; }"
    )
    width, height = SIZES[size]
    assert used[1] - used[0] > 0.9 * width, f"the rows use {used} of a {width}px wide screen"
    assert used[2] > 0.75 * height, f"the rows stop at {used[2]}px of {height}px"
    smallest, where = page.evaluate(SMALLEST_TEXT)
    assert smallest >= MIN_FONT_PX[size], f"{where} is {smallest}px on a {size} screen"
    shot(page, f"tv-{size}")

    pages = one_cycle(page)
    seen = [row for p in pages for row in p["rows"]]
    assert len(pages) >= 2, "70 players need more than one page"
    assert set(seen) == expected, f"never shown: {sorted(expected - set(seen))}"
    assert len(seen) == len(expected), "a player is shown twice in a cycle"


# Each visible row's name and club: their whole text, and whether either overflows its box.
NAMES_SHOWN = """() => Array.from(document.querySelectorAll('.tv-row'))
    .filter((row) => row.offsetParent !== null).map((row) => {
    const parts = ['.tv-name', '.tv-club'].map((s) => row.querySelector(s))
        .filter((el) => el && el.offsetParent !== null);
    const box = row.getBoundingClientRect();
    return {id: row.dataset.id, text: parts.map((el) => el.textContent).join(' | '),
            overflow: parts.some((el) => el.scrollWidth > el.clientWidth),
            inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth + 0.5
                    && box.bottom <= innerHeight + 0.5};
})"""

# Record NAMES_SHOWN on every page of the next whole cycle.
RECORD_NAMES = (
    """() => {
    const root = document.querySelector('.tv');
    const cycle = String(Number(root.dataset.cycle) + 1);
    const shown = """
    + NAMES_SHOWN
    + """;
    window.tvCycle = cycle;
    window.tvPages = [];
    new MutationObserver(() => {
        if (root.dataset.cycle === cycle) window.tvPages.push(shown());
    }).observe(root, {attributes: true, attributeFilter: ['data-page']});
}"""
)

LONG_NAME = ("Jean-Christophe-Édouard", "de La Tour-Montaigne d'Auvergne-Lauraguais")
LONG_CLUB = "Association du Tarot Club des Amis du Petit au Bout de Saint-Germain-en-Laye"


@pytest.mark.parametrize("players", [12, 70])
def test_a_long_name_takes_the_lines_it_needs_never_cut(page, players):
    """Issue 27: a long name (and club) is shown whole, on as many lines as it needs, inside
    the screen and never overflowing its box, at 1920x1080 and 1280x720; every player still
    shown once in a cycle."""
    tournament = big_field(players)
    registration = tournament.registrations.order_by("pk").first()
    registration.first_name, registration.last_name = LONG_NAME
    registration.club_name = LONG_CLUB
    registration.save()
    Tournament.objects.filter(pk=tournament.pk).update(changed_at=timezone.now())
    expected = {str(s.entry.id) for s in standings_data(tournament).standings()}
    for size in SIZES:
        open_tv(page, tournament.slug, size, "secondes=0.4")
        page.evaluate(RECORD_NAMES)
        page.wait_for_function(
            "() => Number(document.querySelector('.tv').dataset.cycle) > Number(window.tvCycle)",
            timeout=20_000,
        )
        pages = page.evaluate("() => window.tvPages")
        rows = [row for shown in pages for row in shown]
        assert sorted(r["id"] for r in rows) == sorted(expected), "every player once a cycle"
        faults = [r for r in rows if not r["inside"] or r["overflow"]]
        assert faults == [], (size, faults)
        (long,) = [r for r in rows if r["id"] == str(registration.pk)]
        assert " ".join(LONG_NAME) in long["text"], long
        if players == 12:  # the whole field in one wide column: the club is shown too
            assert long["text"].endswith(f" | {LONG_CLUB}"), long


@pytest.mark.parametrize("size", list(SIZES))
def test_a_team_event_alternates_team_and_individual_standings(page, size, shot):
    scene = build_scene()
    tournament = Tournament.objects.get(slug=scene.slug)
    data = standings_data(tournament)
    open_tv(page, scene.slug, size)
    pages = one_cycle(page)
    titles = [p["title"] for p in pages]
    team_rows = {r for p in pages for r in p["rows"] if r.startswith("team-")}
    player_rows = {r for p in pages for r in p["rows"] if not r.startswith("team-")}
    assert len(set(titles)) == 2, titles
    assert team_rows == {f"team-{t.team}" for t in data.team_standings()}
    assert player_rows == {str(s.entry.id) for s in data.standings()}
    shot(page, f"teams-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_round_in_progress_shows_the_tables_still_playing(page, size):
    scene = build_scene()
    tournament = Tournament.objects.get(slug=scene.slug)
    playing = list(
        Table.objects.filter(round__tournament=tournament, round__number=2)
        .exclude(sheet__status__in=["complete", "signed", "amended"])
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert playing  # the scene has tables still playing
    open_tv(page, scene.slug, size, "secondes=3600")
    status = page.locator(".tv-status")
    expect(status).to_contain_text(", ".join(map(str, playing)))
    expect(status).to_contain_text("2")
    # Shown whole on the screen, not cut short with an ellipsis (an older 1024 x 768 screen
    # or projector too).
    for width, height in (SIZES[size], (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        box = status.evaluate(
            "(el) => ({scroll: el.scrollWidth, client: el.clientWidth, bottom:"
            " el.getBoundingClientRect().bottom, screen: window.innerHeight,"
            " shown: el.innerText.trim().length > 0})"
        )
        assert box["shown"] and box["scroll"] <= box["client"] + 1, (width, box)
        assert box["bottom"] <= box["screen"], (width, box)


def test_the_screen_updates_itself_without_a_reload(page):
    scene = build_scene()
    tournament = Tournament.objects.get(slug=scene.slug)
    table = Table.objects.get(pk=scene.penalty_table)
    others = list(
        Table.objects.filter(round=table.round, sheet__status__in=["not_started", "in_progress"])
        .exclude(pk=table.pk)
        .order_by("number")
        .values_list("number", flat=True)
    )
    open_tv(page, scene.slug, "1080p", "secondes=0.5&maj=0.3")
    page.evaluate("() => { window.notReloaded = true; }")
    status = page.locator(".tv-status")
    expect(status).to_contain_text(", ".join(map(str, sorted([table.number, *others]))))
    loaded = []
    page.on("load", lambda: loaded.append(True))

    # The table plays its last deals: the band no longer lists it, the standings move.
    finish_table(table)
    tournament.refresh_from_db()
    leader = standings_data(tournament).standings()[0]
    expect(status).to_contain_text(", ".join(map(str, others)) if len(others) > 1 else "")
    expect(status).not_to_contain_text(f"{table.number}, ")
    expect(page.locator(f".tv-row[data-id='{leader.entry.id}'] .tv-total")).to_have_text(
        str(leader.total), timeout=10_000
    )
    assert page.evaluate("() => window.notReloaded === true")
    assert not loaded, "the page was reloaded"


def test_paging_can_be_paused_from_the_keyboard_and_respects_reduced_motion(page):
    tournament = big_field()
    page.emulate_media(reduced_motion="reduce")
    open_tv(page, tournament.slug, "1080p", "secondes=0.4")
    page.wait_for_function("() => document.querySelector('.tv').dataset.page === '1'")
    assert page.evaluate("() => document.getAnimations().length") == 0, "no fade when reduced"
    # No pause button on the room's screen (issue 27): P pauses and resumes from a keyboard.
    expect(page.locator(".tv-foot .live-control button")).to_be_hidden()
    page.keyboard.press("p")
    shown = page.evaluate("() => document.querySelector('.tv').dataset.page")
    page.wait_for_timeout(1500)
    assert page.evaluate("() => document.querySelector('.tv').dataset.page") == shown
    page.keyboard.press("p")
    page.wait_for_function(
        f"() => document.querySelector('.tv').dataset.page !== '{shown}'", timeout=5_000
    )


def _tables_named(text: str) -> set[int]:
    """The table numbers a band names: « tables 1, 2, 4–7 » → {1, 2, 4, 5, 6, 7}."""
    named = set()
    for first, last in re.findall(r"(\d+)(?:\s*[–-]\s*(\d+))?", text.split(":", 1)[1]):
        named.update(range(int(first), int(last or first) + 1))
    return named


@pytest.mark.parametrize("size", list(SIZES))
def test_a_large_round_names_every_table_still_playing(page, size):
    """17 tables, 13 still playing: the band says which, not only how many."""
    tournament = big_field()
    round_ = services.round_seat_next(tournament=tournament, seed=5)
    for number in (3, 8, 9, 10):
        finish_table(Table.objects.get(round=round_, number=number))
    playing = set(
        Table.objects.filter(round=round_)
        .exclude(sheet__status__in=["complete", "signed", "amended"])
        .values_list("number", flat=True)
    )
    assert len(playing) == 13
    open_tv(page, tournament.slug, size, "secondes=3600")
    status = page.locator(".tv-status")
    expect(status).to_contain_text("2")
    text = status.inner_text()
    assert _tables_named(text) == playing, text
    box = status.evaluate(
        "(el) => ({scroll: el.scrollWidth, client: el.clientWidth,"
        " bottom: el.getBoundingClientRect().bottom, screen: window.innerHeight})"
    )
    assert box["scroll"] <= box["client"] + 1 and box["bottom"] <= box["screen"], box
    rows = page.evaluate(VISIBLE_ROWS)
    assert rows and all(row["inside"] for row in rows), "a row is cut off by the band"


# A team row's visible text, and whether any part of it is cut short with an ellipsis.
TEAM_ROWS = """() => Array.from(document.querySelectorAll('.tv-row')).filter((row) =>
    row.offsetParent !== null && row.dataset.id.startsWith('team-')).map((row) => {
    const name = row.querySelector('.tv-name');
    return {id: row.dataset.id, text: row.innerText, cut: name.scrollWidth > name.clientWidth + 1};
})"""


@pytest.mark.parametrize("size", list(SIZES))
def test_teams_of_four_show_every_member_whole(page, size):
    """20 teams of four, more than one column holds: each team's row keeps the whole width
    (more pages, not narrower columns), every member's name read whole, none cut short; and a
    long tournament name is shown whole on two lines, not cut."""
    name = "Coupe des clubs du Vaucluse et des Bouches-du-Rhône"
    tournament = create_demo(
        players=80, rounds=1, deals=1, teams=4, seed=4, play_rounds=1, name=name
    ).tournament
    teams = {f"team-{t.team}": t for t in standings_data(tournament).team_standings()}
    open_tv(page, tournament.slug, size, "secondes=3600")
    rows = page.evaluate(TEAM_ROWS)
    assert 8 <= len(rows) < len(teams) == 20
    assert not [row for row in rows if row["cut"]], "a team's members are cut short"
    for row in rows:
        for member in teams[row["id"]].members:
            assert member.name.split()[-1] in row["text"], (member.name, row["text"])
    assert all(row["oneLine"] and row["inside"] for row in page.evaluate(VISIBLE_ROWS))
    smallest, where = page.evaluate(SMALLEST_TEXT)
    assert smallest >= MIN_FONT_PX[size], f"{where} is {smallest}px on a {size} screen"
    title = page.locator(".tv-head h1").evaluate(
        "(el) => ({text: el.textContent, scroll: el.scrollHeight, client: el.clientHeight,"
        " wide: el.scrollWidth <= el.clientWidth + 1})"
    )
    assert title["text"] == name and title["wide"], title
    assert title["scroll"] <= title["client"] + 1, f"the tournament's name is cut: {title}"
    open_tv(page, tournament.slug, size)  # paging fast
    pages = one_cycle(page)
    seen = [r for p in pages for r in p["rows"] if r.startswith("team-")]
    assert sorted(seen) == sorted(teams), "every team once in a cycle"

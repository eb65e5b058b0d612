"""A whole tournament day in a real browser, from the organiser's login to the printed sheets.

The organiser creates the tournament, imports 16 players from an Excel file, checks them in and
seats round 1. At each table North enters the deals on a phone through the table's private link
(big buttons, typed card points, the score preview), and the four players sign with their PINs.
The referee corrects a signed deal with a reason; the sheet shows "amended" until the players
sign again. The round is closed, round 2 is seated without any repeated meeting, the public
standings agree with the ranking code, and the PDF and Excel documents read back correctly.
"""

from __future__ import annotations

import io
import itertools
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from openpyxl import Workbook, load_workbook
from pypdf import PdfReader

from scoring.engine import Contract, Deal, get_rule_set, score_deal
from scoring.management.commands.setup_demo import organiser_group
from scoring.models import ScoreSheet, Signature
from scoring.standings import standings_data
from tests.jobs.worker import run_worker
from tournaments.models import Registration, Round, Seat, Table, Tournament

from .helpers import SHEET_DEAL_ROWS, SHEET_TOTALS, fr, horizontal_overflow, login, widest_elements

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEALS = 2  # deals per round at a table of 4 (kept small: 4 tables enter them all by hand)
NAME = "Open de la Saint-Nicolas"
PLAYERS = [
    ("Martin", "Léa"),
    ("Bernard", "Hugo"),
    ("Dubois", "Chloé"),
    ("Thomas", "Jules"),
    ("Robert", "Manon"),
    ("Richard", "Inès"),
    ("Petit", "Zoé"),
    ("Durand", "Théo"),
    ("Leroy", "Élodie"),
    ("Moreau", "Noël"),
    ("Simon", "Anaïs"),
    ("Laurent", "Loïc"),
    ("Lefèvre", "Cécile"),
    ("Michel", "Rémi"),
    ("Garcia", "Yves"),
    ("Faure", "Irène"),
]
CLUBS = ["Tarot Club de Lyon", "Excuse Nantaise", "Les Bouts d'Annecy"]
# (contract, oudlers, card points): won, lost, won exactly, lost — cycled over the deals.
DEAL_INPUTS = [
    (Contract.GARDE, 2, 45),
    (Contract.PETITE, 1, 48),
    (Contract.GARDE_SANS, 3, 36),
    (Contract.GARDE, 0, 50),
]


def players_xlsx() -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Inscrits"
    sheet.append(["nom", "prénom", "club", "licence"])
    for i, (last, first) in enumerate(PLAYERS):
        sheet.append([last, first, CLUBS[i % len(CLUBS)], f"B{i + 1:06d}"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def expected_scores(taker: int, contract: Contract, oudlers: int, points: int) -> list[int]:
    deal = Deal(players=4, taker=taker, contract=contract, oudlers=oudlers, points=Decimal(points))
    return list(score_deal(deal, get_rule_set("fft")).scores)


def no_sideways_scroll(page, what: str) -> None:
    overflow = horizontal_overflow(page)
    assert overflow == 0, f"{what}: {overflow}px too wide; sticking out: {widest_elements(page)}"


def submit(page, button) -> None:
    """Click a submit button of a plain (non-htmx) form and wait for the next page."""
    with page.expect_navigation():
        button.click()


def pins(table: Table) -> list[tuple[int, str]]:
    return [
        (seat.registration_id, seat.registration.pin)
        for seat in table.seats.select_related("registration").order_by("position")
    ]


# --- the steps of the day ------------------------------------------------------------------------


def create_tournament(page, shot) -> Tournament:
    page.goto("/gestion/")
    page.locator("main a[href$='/gestion/nouveau/']").click()
    page.wait_for_url("**/gestion/nouveau/")
    form = page.locator("main form")
    form.locator("input[name=name]").fill(NAME)
    form.locator("input[name=date]").fill(date.today().isoformat())
    form.locator("input[name=place]").fill("Salle polyvalente")
    form.locator("select[name=format]").select_option(Tournament.Format.INDIVIDUAL)
    form.locator("input[name=rounds]").fill("2")
    form.locator("input[name=deals_per_round]").fill(str(DEALS))
    form.locator("select[name=visibility]").select_option(Tournament.Visibility.DURING_PLAY)
    shot(page, "01-new-tournament")
    submit(page, form.locator("button[type=submit]"))
    tournament = Tournament.objects.get(name=NAME)
    assert page.url.endswith(f"/t/{tournament.slug}/gestion/")
    expect(page.locator("h1")).to_have_text(NAME)
    assert (tournament.rounds, tournament.deals_per_round) == (2, DEALS)
    assert tournament.format == Tournament.Format.INDIVIDUAL
    return tournament


def import_players(page, tournament, shot) -> None:
    page.locator("header nav a[href$='/gestion/joueurs/']").click()
    page.wait_for_url("**/gestion/joueurs/")
    page.locator("main a[href$='/gestion/joueurs/import/']").click()
    page.wait_for_url("**/gestion/joueurs/import/")
    page.locator("input[type=file][name=file]").set_input_files(
        {
            "name": "inscrits.xlsx",
            "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "buffer": players_xlsx(),
        }
    )
    submit(page, page.locator("form[enctype='multipart/form-data'] button[type=submit]"))
    # The preview: every line, each one OK, nothing imported yet.
    preview = page.locator("section.card table tbody tr")
    expect(preview).to_have_count(len(PLAYERS))
    expect(page.locator("section.card table tbody .badge.ok")).to_have_count(len(PLAYERS))
    expect(page.locator("section.card table")).to_contain_text("Lefèvre")
    assert not Registration.objects.filter(tournament=tournament).exists()
    shot(page, "02-import-preview")
    submit(page, page.locator("button[name=confirm]"))
    assert page.url.endswith(f"/t/{tournament.slug}/gestion/joueurs/")
    expect(page.locator("table.players tbody tr")).to_have_count(len(PLAYERS))
    registrations = Registration.objects.filter(tournament=tournament)
    assert sorted((r.last_name, r.first_name) for r in registrations) == sorted(PLAYERS)


def check_everyone_in(page, tournament, shot) -> None:
    present = page.locator("table.players button[name=status][value=present]")
    expect(present).to_have_count(len(PLAYERS))
    for left in range(len(PLAYERS) - 1, -1, -1):
        present.first.click()  # htmx swaps the row: its "Present" button goes away
        expect(present).to_have_count(left)
    expect(page.locator("table.players tbody .badge.ok")).to_have_count(len(PLAYERS))
    assert Registration.objects.filter(tournament=tournament, status="present").count() == len(
        PLAYERS
    )
    shot(page, "03-checked-in")


def seat_next_round(page, tournament, number: int, shot) -> Round:
    page.goto(f"/t/{tournament.slug}/gestion/")
    form = page.locator(f"main form[action$='/t/{tournament.slug}/gestion/placer/']")
    submit(page, form.locator("button[type=submit]"))
    assert page.url.endswith(f"/t/{tournament.slug}/gestion/position/{number}/")
    round_ = Round.objects.get(tournament=tournament, number=number)
    tables = Table.objects.filter(round=round_)
    assert tables.count() == len(PLAYERS) // 4
    assert all(t.seats.count() == 4 for t in tables)
    expect(page.locator("#tables table.dashboard tbody tr")).to_have_count(tables.count())
    shot(page, f"04-round-{number}-seated")
    return round_


def table_link_from_referee_page(page, tournament, table: Table) -> str:
    page.goto(f"/t/{tournament.slug}/gestion/position/{table.round.number}/")
    submit(page, page.locator(f"#tables a[href$='/gestion/feuille/{table.pk}/']"))
    tools = page.locator("details.card")
    tools.locator("summary").click()
    link = tools.locator("a[href*='/table/']:not([href*='/gestion/'])")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href.endswith(f"/table/{table.sheet.token}/")
    return href


def enter_deal(page, number: int, table_number: int) -> list[int]:
    """North enters one deal with the big buttons; returns the scores the preview showed."""
    contract, oudlers, points = DEAL_INPUTS[(number + table_number) % len(DEAL_INPUTS)]
    taker = (number + table_number) % 4
    entry = page.locator("#entry")
    expect(entry.locator("h2")).to_contain_text(str(number))
    entry.locator(f"input[name=taker][value='{taker}'] + label").tap()
    entry.locator(f"input[name=contract][value={contract.value}] + label").tap()
    entry.locator(f"input[name=oudlers][value='{oudlers}'] + label").tap()
    # Big buttons really are big enough for a thumb (44 px, the usual touch target).
    box = entry.locator(f"input[name=oudlers][value='{oudlers}'] + label").bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44, box
    entry.locator("input[name=points]").fill(str(points))
    entry.locator("input[name=points]").press("Tab")  # change → htmx preview
    expected = expected_scores(taker, contract, oudlers, points)
    preview = page.locator("#preview table.scores tbody td")
    expect(preview).to_have_text([str(s) for s in expected])
    return expected


def sign_all(page, table: Table) -> None:
    sign = page.locator("#sign")
    expect(sign).to_be_visible()
    for registration_id, pin in pins(table):
        form = sign.locator("form:has(input[name=action][value=sign])")
        form.locator("select[name=registration]").select_option(str(registration_id))
        form.locator("input[name=pin]").fill(pin)
        submit(page, form.locator("button[type=submit]"))
        expect(page.locator("ul.messages li.success")).to_be_visible()
    expect(page.locator("#sheet-status")).to_have_text(fr("Signed"))
    expect(page.locator("#sign")).to_have_count(0)


def play_table(phone, table: Table, shot, link: str | None = None) -> None:
    page = phone.new_page()
    page.goto(link or f"/table/{table.sheet.token}/")
    expect(page.locator("h1")).to_contain_text(str(table.number))
    no_sideways_scroll(page, f"table {table.number} deal form")
    if table.number == 1:
        shot(page, "05-phone-deal-form")
    totals = [0, 0, 0, 0]
    for number in range(1, DEALS + 1):
        scores = enter_deal(page, number, table.number)
        if table.number == 1 and number == 1:
            # (the preview's table is wider than the phone: see test_public_pages.py)
            shot(page, "06-phone-preview")
        # Saved on the phone, sent at once, confirmed by the server; the page then reloads.
        submit(page, page.locator("#entry button.primary[type=submit]"))
        expect(page.locator("#queue-status .queue-saved").last).to_contain_text(str(number))
        rows = page.locator(SHEET_DEAL_ROWS)
        expect(rows).to_have_count(number)
        expect(rows.nth(number - 1).locator("td.num:not(:first-child)")).to_have_text(
            [str(s) for s in scores]
        )
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
    expect(page.locator(SHEET_TOTALS)).to_have_text([str(t) for t in totals])
    expect(page.locator("#entry")).to_have_count(0)
    sheet = ScoreSheet.objects.get(pk=table.sheet.pk)
    assert sheet.status == ScoreSheet.Status.COMPLETE
    assert sheet.deals.count() == DEALS
    if table.number == 1:
        shot(page, "07-phone-complete")
    sign_all(page, table)
    assert ScoreSheet.objects.get(pk=table.sheet.pk).status == ScoreSheet.Status.SIGNED
    no_sideways_scroll(page, f"table {table.number} signed")
    if table.number == 1:
        shot(page, "08-phone-signed")
    page.close()


def referee_corrects(page, tournament, table: Table, shot) -> None:
    page.goto(f"/t/{tournament.slug}/gestion/feuille/{table.pk}/?donne=1")
    entry = page.locator("#entry")
    expect(entry).to_be_visible()
    deal = table.sheet.deals.get(number=1)
    expect(entry.locator("input[name=points]")).to_have_value(f"{deal.points.normalize():f}")
    new_points = int(deal.points) - 6
    entry.locator("input[name=points]").fill(str(new_points))
    entry.locator("input[name=points]").press("Tab")
    expect(page.locator("#preview table.scores")).to_be_visible()
    # Without a reason the signed sheet is not changed.
    submit(page, entry.locator("button.primary[type=submit]"))
    expect(page.locator("#entry .errorlist")).to_be_visible()
    assert table.sheet.deals.get(number=1).points == deal.points
    assert ScoreSheet.objects.get(pk=table.sheet.pk).status == ScoreSheet.Status.SIGNED
    shot(page, "09-referee-needs-reason")
    page.locator("#entry textarea[name=reason]").fill("Erreur de comptage des points (arbitre)")
    submit(page, page.locator("#entry button.primary[type=submit]"))
    expect(page.locator("ul.messages li.success")).to_be_visible()
    expect(page.locator("#sheet-status")).to_have_text(fr("Amended after signature"))
    sheet = ScoreSheet.objects.get(pk=table.sheet.pk)
    assert sheet.status == ScoreSheet.Status.AMENDED
    assert sheet.deals.get(number=1).points == new_points
    assert not Signature.objects.filter(sheet=sheet, superseded_at__isnull=True).exists()
    shot(page, "10-referee-amended")
    # The round page shows the table as amended too.
    page.goto(f"/t/{tournament.slug}/gestion/position/{table.round.number}/")
    row = page.locator("#tables tbody tr", has=page.locator(f"a[href$='/feuille/{table.pk}/']"))
    expect(row).to_have_class("state-amended")


def close_round(page, tournament, round_: Round, shot) -> None:
    page.goto(f"/t/{tournament.slug}/gestion/position/{round_.number}/")
    expect(page.locator("#tables .badge.ok")).to_have_count(round_.tables.count())
    form = page.locator(f"form[action$='/position/{round_.number}/close/']")
    submit(page, form.locator("button[type=submit]"))
    expect(page.locator("ul.messages li.success")).to_be_visible()
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    shot(page, f"11-round-{round_.number}-closed")


def tables_of(round_: Round) -> list[set[int]]:
    by_table: dict[int, set[int]] = {}
    for table_id, registration_id in Seat.objects.filter(round=round_).values_list(
        "table_id", "registration_id"
    ):
        by_table.setdefault(table_id, set()).add(registration_id)
    return list(by_table.values())


def check_public_standings(phone, tournament, shot) -> None:
    page = phone.new_page()
    page.goto(f"/t/{tournament.slug}/classement/")
    expected = standings_data(tournament).standings()
    assert len(expected) == len(PLAYERS)
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(expected))
    names = [t.strip() for t in rows.locator("td:nth-child(2)").all_inner_texts()]
    totals = [int(t.strip()) for t in rows.locator("td.strong").all_inner_texts()]
    assert names == [s.entry.name for s in expected]
    assert totals == [s.total for s in expected]
    assert sum(totals) == 0
    no_sideways_scroll(page, "public standings")
    shot(page, "13-public-standings")
    page.close()


def prepared(page, button: str):
    """Start a document with one of the page's « Préparer » buttons: the job's page shows its
    progress bar, a worker makes the document, the page (polling) then shows the link."""
    page.get_by_role("button", name=button, exact=True).first.click()
    expect(page.locator("#job")).to_be_visible()
    expect(page.locator("#job progress")).to_be_visible()
    run_worker()
    link = page.locator("#job a[data-file]")
    expect(link).to_be_visible(timeout=20_000)  # the page asks every 2 s
    return link


def check_documents(page, tournament, shot) -> None:
    page.goto(f"/t/{tournament.slug}/gestion/")
    names = [f"{first} {last}" for last, first in PLAYERS]
    # Excel: prepared by a worker from the dashboard's button, then downloaded.
    link = prepared(page, "Préparer le classeur Excel")
    expect(page.locator("#job [data-progress]")).to_contain_text("feuilles sur")
    shot(page, "14-workbook-ready")
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == f"{tournament.slug}.xlsx"
    workbook = load_workbook(io.BytesIO(download.path().read_bytes()))
    tables = list(
        Table.objects.filter(round__tournament=tournament).select_related("round").order_by("pk")
    )
    # One worksheet per table ("R1 T3"), the ranking first.
    assert workbook.sheetnames[0] == "Classement provisoire"
    assert sorted(workbook.sheetnames[1:]) == sorted(
        f"R{t.round.number} T{t.number}" for t in tables
    )
    first = tables[0]
    cells = {
        str(c) for row in workbook[f"R1 T{first.number}"].iter_rows(values_only=True) for c in row
    }
    seated = [s.registration.full_name for s in first.seats.select_related("registration")]
    assert all(any(name in c for c in cells) for name in seated), seated
    ranking = workbook["Classement provisoire"]
    expected = standings_data(tournament).standings()
    assert [ranking.cell(row=i + 2, column=2).value for i in range(len(expected))] == [
        s.entry.name for s in expected
    ]
    assert [ranking.cell(row=i + 2, column=4).value for i in range(len(expected))] == [
        s.total for s in expected
    ]
    # PDF: shown inline by the browser; fetched with the page's own session (and login).
    page.goto(f"/t/{tournament.slug}/gestion/")
    link = prepared(page, "Préparer le PDF")
    response = page.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.body()))
    text = "\n".join(p.extract_text() or "" for p in reader.pages)
    assert len(reader.pages) >= len(tables)
    missing = [n for n in names if n.split()[-1] not in text]
    assert not missing, f"names missing from the PDF: {missing}"
    assert NAME in text
    # A round's bundle, from the round page's button: one page per table at least.
    page.goto(f"/t/{tournament.slug}/gestion/position/1/")
    link = prepared(page, "Préparer le PDF")
    response = page.request.get(link.get_attribute("href"))
    assert response.ok
    assert len(PdfReader(io.BytesIO(response.body())).pages) >= len(PLAYERS) // 4


# --- the day -------------------------------------------------------------------------------------


def test_a_whole_tournament_day(page, phone, shot):
    user = get_user_model().objects.create_user("organisatrice", password="tarot-2026-Saint-Nic")
    user.groups.add(organiser_group())

    login(page, "organisatrice", "tarot-2026-Saint-Nic")
    tournament = create_tournament(page, shot)
    import_players(page, tournament, shot)
    check_everyone_in(page, tournament, shot)
    round_1 = seat_next_round(page, tournament, 1, shot)

    tables = list(Table.objects.filter(round=round_1).select_related("sheet").order_by("number"))
    link = table_link_from_referee_page(page, tournament, tables[0])
    for table in tables:
        play_table(phone, table, shot, link=link if table.number == 1 else None)

    # The referee corrects deal 1 of table 1 after the signatures; the players sign again.
    referee_corrects(page, tournament, tables[0], shot)
    again = phone.new_page()
    again.goto(link)
    expect(again.locator("#sheet-status")).to_have_text(fr("Amended after signature"))
    shot(again, "10b-phone-amended")
    sign_all(again, tables[0])
    again.close()
    assert ScoreSheet.objects.get(pk=tables[0].sheet.pk).status == ScoreSheet.Status.SIGNED

    close_round(page, tournament, round_1, shot)
    round_2 = seat_next_round(page, tournament, 2, shot)
    quality = page.locator("section.card", has=page.locator("h2", has_text=fr("Seating quality")))
    expect(quality.locator(".badge.ok")).to_have_text(fr("No repeated meeting"))
    expect(quality.locator(".errors")).to_have_count(0)
    shot(page, "12-round-2-quality")
    met_before = set()
    for players in tables_of(round_1):
        met_before |= {frozenset(p) for p in itertools.combinations(players, 2)}
    again_pairs = [
        pair
        for players in tables_of(round_2)
        for pair in map(frozenset, itertools.combinations(players, 2))
        if pair in met_before
    ]
    assert again_pairs == []

    check_public_standings(phone, tournament, shot)
    check_documents(page, tournament, shot)

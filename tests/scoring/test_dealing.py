"""Who deals each deal, read back from the sheet as people read it (the page, the PDF, the
Excel file): at a table of 4 or 3 the next player deals after a passed deal (FFT: the dealer's
right-hand neighbour deals the new hand); at a table of 5 the same dealer deals again, so the
seat sitting out stays."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import Deal, ScoreSheet
from scoring.services import deal_record
from tournaments.models import Seat, StaffMember

from .conftest import TABLE, legal, make_tournament

pytestmark = pytest.mark.django_db

PLAYED, PASSED = "played", "passed"

# (table size, kinds of the deals entered, dealer's table position for each, written by hand)
CASES = {
    "four": (4, [PLAYED, PASSED, PLAYED, PLAYED, PLAYED], [0, 1, 2, 3, 0]),
    "four-two-passed": (4, [PASSED, PASSED, PLAYED, PLAYED, PLAYED, PLAYED], [0, 1, 2, 3, 0, 1]),
    "three": (3, [PLAYED, PASSED, PLAYED, PLAYED, PLAYED], [0, 1, 2, 0, 1]),
    "five": (5, [PLAYED, PASSED, PLAYED, PLAYED, PLAYED, PLAYED], [0, 1, 1, 2, 3, 4]),
}


def _play(size: int, kinds: list[str]):
    tournament, round_ = make_tournament(size, deals=4)
    sheet = ScoreSheet.objects.get(table__round=round_)
    for number, kind in enumerate(kinds, start=1):
        deal = legal(players=3 if size == 3 else 4) if kind == PLAYED else None
        deal_record(sheet=sheet, number=number, kind=kind, deal=deal, actor=TABLE)
    sheet.refresh_from_db()
    names = [
        s.registration.player.full_name
        for s in Seat.objects.filter(table=sheet.table)
        .select_related("registration__player")
        .order_by("position")
    ]
    return tournament, sheet, names


def _download(client, tournament, sheet, fmt: str) -> bytes:
    url = reverse(
        "sheet_document",
        args=[tournament.slug, sheet.table.round.number, sheet.table.number, fmt],
    )
    response = client.get(url)
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize("case", CASES)
def test_the_sheet_shows_the_right_dealer_for_every_deal(case, client, referee):
    size, kinds, expected = CASES[case]
    tournament, sheet, names = _play(size, kinds)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    client.force_login(referee)
    assert [d.dealer for d in Deal.objects.filter(sheet=sheet).order_by("number")] == expected
    last_names = [names[p].split()[-1] for p in expected]

    # The page: each deal's row says who dealt it.
    html = client.get(reverse("sheet", args=[tournament.slug, sheet.table.pk])).content.decode()
    body = re.search(r"<tbody>(.*?)</tbody>", html, flags=re.S).group(1)
    wide_rows = re.findall(r'<td class="hide-narrow">(.*?)</td>', body, flags=re.S)
    shown = [re.search(r'class="dealer"[^>]*>([^<]*)<', row).group(1) for row in wide_rows]
    assert len(shown) == len(kinds)
    for text, last in zip(shown, last_names, strict=True):
        assert last in text, (text, last)

    # The Excel file: the dealer's column (C) of each deal's row.
    workbook = load_workbook(io.BytesIO(_download(client, tournament, sheet, "xlsx")))
    ws = workbook["R1 T1"]
    header = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 3).value == "Donneur")
    column = [
        ws.cell(r, 3).value
        for r in range(header + 1, header + 40)
        if isinstance(ws.cell(r, 1).value, int) and ws.cell(r, 2).value in ("jouée", "passée")
    ]
    assert len(column) == len(kinds)
    for text, last in zip(column, last_names, strict=True):
        assert last in text, (text, last)

    # The PDF: each deal's line starts with its number, then its dealer (seat letter, then the
    # name, shortened at a table of 5).
    text = "\n".join(
        page.extract_text()
        for page in PdfReader(io.BytesIO(_download(client, tournament, sheet, "pdf"))).pages
    )
    letters = ["N", "E", "S", "O", "5e"]
    for number, position in enumerate(expected, start=1):
        line = re.search(rf"(?m)^{number}\*?\n({letters[position]} [^\n]*)$", text)
        assert line, (number, letters[position])
        assert line.group(1).split()[-1] in (last_names[number - 1], "J."), line.group(1)

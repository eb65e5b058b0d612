"""A misdeal is not a deal: no score, never one of the round's deals, the same dealer deals
again; the sheet's page, PDF, workbook and history say so."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.documents.pdf import score_sheet_pdf
from scoring.documents.xlsx import score_sheets_workbook
from scoring.history import history_lines
from scoring.models import ScoreSheet, SheetEvent
from scoring.selectors import round_dashboard, sheet_data, sheet_state
from scoring.services import deal_record

from .conftest import TABLE, legal, make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("passed_count", [False, True])
def test_a_misdeal_scores_nothing_does_not_count_and_the_same_dealer_deals_again(passed_count):
    _, round_ = make_tournament(4, passed_count=passed_count)
    sheet = ScoreSheet.objects.get(table__round=round_)
    first = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    misdeal = deal_record(sheet=sheet, number=2, kind="misdeal", deal=None, actor=TABLE)
    assert misdeal.scores == [0, 0, 0, 0] and misdeal.taker is None
    again = deal_record(sheet=sheet, number=3, kind="played", deal=legal(taker=2), actor=TABLE)
    assert (first.dealer, misdeal.dealer, again.dealer) == (0, 1, 1)  # East deals again
    deal_record(sheet=sheet, number=4, kind="played", deal=legal(), actor=TABLE)
    sheet.refresh_from_db()
    # 4 deals entered, 3 played: the table still has a deal to play.
    assert sheet.status == ScoreSheet.Status.IN_PROGRESS
    (state,) = round_dashboard(round_)
    assert state.deals == 3
    fifth = deal_record(sheet=sheet, number=5, kind="played", deal=legal(), actor=TABLE)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    assert fifth.dealer == 3  # N, E, E again, S, O


def test_the_sheet_page_documents_and_history_show_the_misdeal(client):
    _, round_ = make_tournament(4)
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal_record(sheet=sheet, number=1, kind="misdeal", deal=None, actor=TABLE)
    deal_record(sheet=sheet, number=2, kind="played", deal=legal(), actor=TABLE)

    page = client.get(reverse("table_sheet", args=[sheet.token])).content.decode()
    assert "Donne annulée (mauvaise donne) : redistribuée par le même donneur, non comptée" in page
    assert ">Mauvaise donne<" in page  # the choice on North's form

    data = sheet_data(sheet_state(sheet))
    with pdfplumber.open(io.BytesIO(score_sheet_pdf([data]))) as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
    assert "Donne annulée (mauvaise donne)" in text and "non comptée" in text
    book = load_workbook(io.BytesIO(score_sheets_workbook([data])))
    values = [c.value for row in book.worksheets[0].iter_rows() for c in row]
    assert "annulée" in values
    assert any(
        isinstance(v, str) and v.startswith("Donne annulée (mauvaise donne)") for v in values
    )
    # Deals played: the misdeal is nobody's deal.
    assert data.deals_played() == (1, 1, 1, 1)

    names = sheet_state(sheet).names
    lines = [line.sentence for line in history_lines(SheetEvent.objects.filter(sheet=sheet), names)]
    assert any("mauvaise donne, redistribuée par le même donneur" in line for line in lines)


def test_the_players_page_reads_misdeal_not_passed(client):
    tournament, round_ = make_tournament(4)
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal_record(sheet=sheet, number=1, kind="misdeal", deal=None, actor=TABLE)
    deal_record(sheet=sheet, number=2, kind="passed", deal=None, actor=TABLE)
    seat = sheet.table.seats.select_related("registration").first()
    url = reverse("public:player", args=[tournament.slug, seat.registration_id])
    items = [
        " ".join(li.split())
        for li in client.get(url)
        .content.decode()
        .split('<ol class="deals">')[1]
        .split("</ol>")[0]
        .split("<li>")[1:]
    ]
    assert [item.removesuffix("</li>").strip() for item in items] == ["Mauvaise donne", "Passée"]

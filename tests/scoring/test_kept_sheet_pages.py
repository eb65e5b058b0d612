"""Issue 28: a signed sheet never changes, so its PDF page is drawn once and copied into every
later PDF that holds it (one table, its round, the whole tournament); the copy reads exactly as
a page drawn afresh, and a sheet amended after signing is drawn again."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from scoring.documents.pdf import score_sheet
from scoring.models import ScoreSheet
from scoring.services import deal_record, sheet_sign_with_pin
from scoring.sheet_documents import render_sheets, tables_in_scope
from tournaments.models import StaffMember

from .conftest import TABLE, legal, make_tournament, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def pages_dir(settings, tmp_path):
    """A folder of the test's own for the kept pages."""
    settings.JOBS_DIR = str(tmp_path / "jobs")
    settings.SHEET_PAGES_MB = 50
    return tmp_path / "jobs" / "pages"


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[int, int]]:
    """The (round, table) of every sheet laid out, in order."""
    calls: list[tuple[int, int]] = []
    real = score_sheet.draw_sheet

    def counting(canv, sheet, *args):
        calls.append((sheet.round_number, sheet.table_number))
        real(canv, sheet, *args)

    monkeypatch.setattr(score_sheet, "draw_sheet", counting)
    return calls


def play(sheet: ScoreSheet) -> None:
    for number in range(1, 5):
        deal_record(
            sheet=sheet, number=number, kind="played", deal=legal(taker=number % 4), actor=TABLE
        )


def sign(sheet: ScoreSheet) -> ScoreSheet:
    for seat in sheet.table.seats.select_related("registration"):
        registration = seat.registration
        sheet_sign_with_pin(
            sheet=sheet, registration=registration, pin=registration.pin, client="x", actor=TABLE
        )
    sheet.refresh_from_db()
    return sheet


@pytest.fixture
def tournament(referee):
    """Three tables: tables 1 and 2 signed, table 3 played but not signed."""
    tournament, round_ = make_tournament(12)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    for sheet in ScoreSheet.objects.filter(table__round=round_).order_by("table__number"):
        play(sheet)
        if sheet.table.number != 3:
            sign(sheet)
    return tournament


def pdf(tournament, **scope) -> bytes:
    with translation.override("fr"):  # printed in the asker's language
        return render_sheets(tournament, tables_in_scope(tournament, **scope), fmt="pdf")


def pages_text(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def test_a_signed_sheet_is_drawn_once_and_copied_into_every_later_pdf(
    tournament, drawn, pages_dir, settings
):
    first = pdf(tournament)
    assert drawn == [(1, 1), (1, 2), (1, 3)]
    assert len(list(pages_dir.rglob("*"))) > 2  # the two signed pages are kept

    drawn.clear()
    again = pdf(tournament)
    round_pdf = pdf(tournament, round_number=1)
    one_table = pdf(tournament, round_number=1, table_number=2)
    # Only the unsigned sheet is laid out again; the signed ones are copied.
    assert drawn == [(1, 3), (1, 3)]

    settings.SHEET_PAGES_MB = 0  # nothing kept: every page drawn afresh
    fresh = pdf(tournament)
    assert pages_text(again) == pages_text(fresh) == pages_text(first)
    assert pages_text(round_pdf) == pages_text(fresh)
    assert pages_text(one_table) == pages_text(pdf(tournament, round_number=1, table_number=2))
    # Each signed page still carries its own verification code, address and page number.
    texts = pages_text(again)
    for number, sheet in enumerate(
        ScoreSheet.objects.filter(table__round__tournament=tournament).order_by("table__number"),
        1,
    ):
        assert f"Page {number}" in texts[number - 1]
        if sheet.status == ScoreSheet.Status.SIGNED:
            assert sheet.fingerprint[:32] in texts[number - 1]
            assert "/verifier/" in texts[number - 1].replace("\n", "")


def test_a_sheet_amended_after_signing_gets_a_fresh_page(tournament, drawn, referee):
    pdf(tournament)
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    old_fingerprint = sheet.fingerprint
    deal_record(
        sheet=sheet,
        number=2,
        kind="played",
        deal=legal(points=60),
        actor=staff(referee),
        version=1,
        reason="Erreur de comptage de Sud",
    )
    drawn.clear()
    amended = pdf(tournament, round_number=1)
    assert drawn == [(1, 1), (1, 3)]  # the amended sheet is drawn again, table 2 is copied
    assert "Modifiée après signature" in pages_text(amended)[0]

    sheet = sign(sheet)  # signed again: a new fingerprint, a new page, kept in its turn
    drawn.clear()
    signed_again = pdf(tournament, round_number=1)
    assert drawn == [(1, 1), (1, 3)]
    text = pages_text(signed_again)[0]
    assert sheet.fingerprint[:32] in text and old_fingerprint[:32] not in text
    drawn.clear()
    assert pages_text(pdf(tournament, round_number=1)) == pages_text(signed_again)
    assert drawn == [(1, 3)]


def test_the_kept_pages_stay_within_their_size(tournament, pages_dir, settings):
    pdf(tournament)
    one_page = max(p.stat().st_size for p in pages_dir.rglob("*") if p.is_file())
    settings.SHEET_PAGES_MB = one_page * 1.5 / 2**20  # room for one page, not two
    for path in pages_dir.rglob("*"):
        if path.is_file():
            path.unlink()
    pdf(tournament)
    kept = [p for p in pages_dir.rglob("*") if p.is_file()]
    assert len(kept) == 1

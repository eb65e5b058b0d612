"""Issue 28: a signed sheet's page is kept once drawn and copied into later bundles; the copy
is the very page a fresh drawing makes (its PDF operators byte for byte), in both languages,
for every kind of sheet (tables of 3, 4 and 5, amendments, penalties, paper totals, every
contract and bonus), in a small bundle (best QR mask) and a big one (fixed mask)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from pypdf import PdfReader

from scoring.documents.data import SheetData
from scoring.documents.fingerprint import fingerprint, verification_code
from scoring.documents.language import printed_in
from scoring.documents.pdf import score_sheet, score_sheet_pdf
from scoring.documents.pdf.pages import FolderPageStore, keepable, page_key

from .every_deal import every_deal_sheets


def signed(sheet: SheetData) -> SheetData:
    sheet = replace(sheet, status="signed", fingerprint="", verification_code="")
    fp = fingerprint(sheet)
    return replace(sheet, fingerprint=fp, verification_code=verification_code(fp))


def contents(pdf: bytes) -> list[bytes]:
    return [page.get_contents().get_data() for page in PdfReader(io.BytesIO(pdf)).pages]


def kept_files(store: FolderPageStore) -> int:
    return sum(1 for path in store.folder.rglob("*") if path.is_file())


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("copies", [1, 4])  # 4 copies: more than 20 sheets, the fixed QR mask
def test_a_kept_page_is_the_page_drawn_afresh(all_sheets, tmp_path, monkeypatch, language, copies):
    sheets = [signed(s) for s in all_sheets if not s.blank] + every_deal_sheets()
    sheets = [replace(s, table_number=n) for n, s in enumerate(sheets * copies, 1)]
    store = FolderPageStore(tmp_path / "pages", 10**8)
    with printed_in(language):
        fresh = score_sheet_pdf(sheets)
        first = score_sheet_pdf(sheets, pages=store)
        assert kept_files(store) == sum(keepable(s) for s in sheets) > 5
        drawn = []
        real = score_sheet.draw_sheet
        monkeypatch.setattr(
            score_sheet, "draw_sheet", lambda canv, s, *a: (drawn.append(s), real(canv, s, *a))
        )
        copied = score_sheet_pdf(sheets, pages=store)
    assert len(drawn) == sum(not keepable(s) for s in sheets)  # the kept ones were copied
    assert contents(copied) == contents(first) == contents(fresh)


def test_only_signed_sheets_are_kept_and_the_key_follows_what_is_printed(four, blank, tmp_path):
    sheet = signed(four)
    assert not keepable(four)  # amended after signing
    assert not keepable(blank)
    assert page_key(four, fixed_mask=False) is None
    key = page_key(sheet, fixed_mask=False)
    assert key and key != page_key(sheet, fixed_mask=True)
    with printed_in("en"):
        assert page_key(sheet, fixed_mask=False) != key
    renamed = replace(sheet, players=(replace(sheet.players[0], club="Autre"), *sheet.players[1:]))
    assert page_key(renamed, fixed_mask=False) != key

    store = FolderPageStore(tmp_path / "pages", 10**8)
    score_sheet_pdf([four, blank, sheet], pages=store)
    assert kept_files(store) == 1


def test_a_page_missing_from_the_store_is_drawn_again(tmp_path):
    sheets = every_deal_sheets()[:3]
    store = FolderPageStore(tmp_path / "pages", 10**8)
    first = score_sheet_pdf(sheets, pages=store)
    for path in store.folder.rglob("*"):
        if path.is_file():
            path.unlink()
    assert contents(score_sheet_pdf(sheets, pages=store)) == contents(first)

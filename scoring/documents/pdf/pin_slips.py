"""PIN slips: one small slip per player with their name, the tournament and their personal
signing PIN, 24 to an A4 page with cut lines, to hand to each player at check-in. A PIN is
printed nowhere else. Plain Python: no Django import.
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from ..data import PinSlip, PinSlips
from ..language import tr
from .base import (
    BOLD,
    FONT,
    GREY,
    INK,
    MONO_BOLD,
    RULE,
    binary_streams,
    draw_fitted,
    drawn_document,
    fit,
    fit_line,
    long_date,
)

COLUMNS, ROWS = 3, 8  # 70 × 37 mm slips, the size of common label sheets


def pin_slips_pdf(slips: PinSlips) -> bytes:
    """Every slip of ``slips``, in the given order, 24 per page, with dashed cut lines."""
    buffer = io.BytesIO()
    page_w, page_h = A4
    canv = drawn_document(buffer, A4, tr("Codes PIN — {tournament}", tournament=slips.tournament))
    slip_w, slip_h = page_w / COLUMNS, page_h / ROWS
    per_page = COLUMNS * ROWS
    if not slips.slips:
        canv.setFont(FONT, 14)
        canv.drawString(20 * mm, page_h - 30 * mm, tr("Aucun joueur."))
    for index, slip in enumerate(slips.slips):
        if index and index % per_page == 0:
            canv.showPage()
        if index % per_page == 0:
            _cut_lines(canv, page_w, page_h, slip_w, slip_h)
        row, column = divmod(index % per_page, COLUMNS)
        _draw_slip(canv, slips, slip, column * slip_w, page_h - (row + 1) * slip_h, slip_w, slip_h)
    canv.showPage()
    with binary_streams():
        canv.save()
    return buffer.getvalue()


def _cut_lines(canv, page_w: float, page_h: float, slip_w: float, slip_h: float) -> None:
    canv.saveState()
    canv.setDash(3, 3)
    canv.setStrokeColor(RULE)
    canv.setLineWidth(0.5)
    for column in range(1, COLUMNS):
        canv.line(column * slip_w, 0, column * slip_w, page_h)
    for row in range(1, ROWS):
        canv.line(0, row * slip_h, page_w, row * slip_h)
    canv.restoreState()


def _draw_slip(
    canv, slips: PinSlips, slip: PinSlip, x: float, y: float, w: float, h: float
) -> None:
    pad = 5 * mm
    left, right, top = x + pad, x + w - pad, y + h - pad
    width = right - left
    canv.saveState()
    canv.setFillColor(GREY)
    # Nothing is cut: a long tournament, name or club is printed smaller, or wraps.
    for text, line_y in ((slips.tournament, 2 * mm), (long_date(slips.tournament_date), 5 * mm)):
        text, size = fit_line(text, width, FONT, 7)
        canv.setFont(FONT, size)
        canv.drawString(left, top - line_y, text)
    canv.setFillColor(INK)
    draw_fitted(canv, slip.name, left, width, top - 6.3 * mm, 7.5 * mm, BOLD, 11)
    detail = " · ".join(part for part in (slip.club, slip.team) if part)
    if detail:
        canv.setFillColor(GREY)
        draw_fitted(canv, detail, left, width, top - 13.9 * mm, 4 * mm, FONT, 7)
    canv.setFillColor(GREY)
    canv.setFont(BOLD, 6.5)
    canv.drawString(left, y + pad + 4.5 * mm, tr("CODE PIN PERSONNEL"))
    canv.setFont(FONT, 6)
    canv.drawString(left, y + pad, tr("pour signer vos feuilles — à ne montrer à personne"))
    canv.setFillColor(INK)
    canv.setFont(MONO_BOLD, 20)
    canv.drawRightString(right, y + pad + 2.5 * mm, fit(slip.pin, width / 2, MONO_BOLD, 20))
    canv.restoreState()

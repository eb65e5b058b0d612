"""Table cards: one card per table (two A5 cards per A4 page) with the table number, the round,
the players by seat, and the QR code of the table's private entry link. No PIN: the card lies on
the table for everyone to read; each player has their own PIN slip (:mod:`.pin_slips`).
Plain Python: no Django import.
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from ..data import SeatingPlan, SeatingTable
from ..language import tr
from .base import (
    BOLD,
    FONT,
    GREY,
    INK,
    ITALIC,
    MONO,
    RULE,
    binary_streams,
    clean,
    draw_fitted,
    draw_qr,
    drawn_document,
    fit_cell,
    long_date,
    seat_name,
    split_chars,
)
from .seating_plan import plan_title


def table_cards_pdf(plan: SeatingPlan) -> bytes:
    """One card per table, two A5 cards per portrait A4 page (cut along the dashed line).

    Each card: the table number (huge), the round, the players by seat, and a QR code of the
    table's private entry link with the link printed below it.
    """
    buffer = io.BytesIO()
    page_w, page_h = A4
    canv = drawn_document(buffer, A4, tr("Cartes de table — {title}", title=plan_title(plan)))
    card_h = page_h / 2
    if not plan.tables:
        canv.setFont(FONT, 14)
        canv.drawString(20 * mm, page_h - 30 * mm, tr("Aucune table."))
    for index, table in enumerate(plan.tables):
        slot = index % 2
        if index and slot == 0:
            canv.showPage()
        bottom = page_h - (slot + 1) * card_h
        _draw_card(canv, plan, table, 0, bottom, page_w, card_h)
        if slot == 0:
            canv.saveState()
            canv.setDash(3, 3)
            canv.setStrokeColor(RULE)
            canv.setLineWidth(0.5)
            canv.line(0, bottom, page_w, bottom)
            canv.setFillColor(GREY)
            canv.setFont(FONT, 6)
            canv.drawString(4 * mm, bottom + 1.2 * mm, tr("découper ici"))
            canv.restoreState()
    canv.showPage()
    with binary_streams():
        canv.save()
    return buffer.getvalue()


def _draw_card(
    canv, plan: SeatingPlan, table: SeatingTable, x: float, y: float, w: float, h: float
) -> None:
    margin = 12 * mm
    left, right = x + margin, x + w - margin
    top = y + h - margin
    qr_size = 50 * mm
    text_right = right - qr_size - 9 * mm if table.sheet_url else right

    canv.saveState()
    # Header: tournament and date.
    canv.setFillColor(INK)
    title, size = fit_cell(plan.tournament, text_right - left, BOLD, 12, 12, 8)
    canv.setFont(BOLD, size)
    canv.drawString(left, top - 4 * mm, title)
    canv.setFont(FONT, 9.5)
    canv.setFillColor(GREY)
    canv.drawString(left, top - 9.5 * mm, long_date(plan.tournament_date))

    # Table number, huge, and the round beside it.
    canv.setFillColor(INK)
    canv.setFont(BOLD, 13)
    canv.drawString(left, top - 18 * mm, tr("TABLE"))
    number = str(table.number)
    size = 104
    while size > 40 and stringWidth(number, BOLD, size) > text_right - left - 45 * mm:
        size -= 4
    baseline = top - 20 * mm - size * 0.76
    canv.setFont(BOLD, size)
    canv.drawString(left - 2, baseline, number)
    round_x = left + stringWidth(number, BOLD, size) + 9 * mm
    canv.setFont(BOLD, 13)
    canv.drawString(round_x, top - 18 * mm, tr("POSITION"))
    canv.setFont(BOLD, 44)
    canv.drawString(round_x, baseline, str(plan.round_number))

    # Players by seat.
    count = max(len(table.players), 1)
    y_row = baseline - 9 * mm
    row_h = min(12.5 * mm, (y_row - (y + 7 * mm)) / count)
    canv.setFont(BOLD, 7.5)
    canv.setFillColor(GREY)
    canv.drawString(left, y_row + 1.8 * mm, tr("PLACE"))
    canv.drawString(left + 25 * mm, y_row + 1.8 * mm, tr("JOUEUR"))
    canv.setStrokeColor(INK)
    canv.setLineWidth(0.8)
    canv.line(left, y_row, text_right, y_row)
    canv.setStrokeColor(RULE)
    canv.setLineWidth(0.4)
    name_width = text_right - left - 25 * mm
    for player in table.players:
        base = y_row - row_h / 2 - 2.2 * mm
        canv.setFillColor(GREY)
        canv.setFont(FONT, 11)
        canv.drawString(left, base, seat_name(player.seat))
        canv.setFillColor(INK)
        # A long name wraps, or is printed smaller: never cut.
        draw_fitted(canv, player.name, left + 25 * mm, name_width, y_row - 1, row_h - 2, BOLD, 15)
        y_row -= row_h
        canv.line(left, y_row, text_right, y_row)
    canv.setFillColor(GREY)
    canv.setFont(ITALIC, 8)
    note = tr("Pour signer la feuille, chacun tape le code PIN de sa propre fiche.")
    canv.drawString(left, y_row - 4.5 * mm, note)

    # QR code of the table's private entry link, with the link below it.
    if table.sheet_url:
        centre = right - qr_size / 2
        qr_top = top + 1 * mm
        canv.setFillColor(INK)
        canv.setFont(BOLD, 10)
        canv.drawCentredString(centre, qr_top - qr_size - 3.5 * mm, tr("Saisie des donnes"))
        canv.setFont(FONT, 7.5)
        canv.drawCentredString(centre, qr_top - qr_size - 7.5 * mm, tr("Scannez avec un téléphone"))
        draw_qr(canv, table.sheet_url, right - qr_size, qr_top - qr_size, qr_size)
        canv.setFont(MONO, 6.5)
        canv.setFillColor(GREY)
        line_y = qr_top - qr_size - 12 * mm
        for line in split_chars(clean(table.sheet_url), qr_size + 8 * mm, MONO, 6.5)[:4]:
            canv.drawCentredString(centre, line_y, line)
            line_y -= 3 * mm
        canv.setFillColor(INK)
        canv.setFont(ITALIC, 7)
        canv.drawCentredString(
            centre, line_y - 1.5 * mm, tr("Lien privé de la table : ne pas diffuser")
        )
    canv.restoreState()

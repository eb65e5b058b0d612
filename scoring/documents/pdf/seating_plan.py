"""The seating plan of a round, to pin on a wall: the tables with their players by seat, then
every player in alphabetical order with table and seat. Plain Python: no Django import.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from tournaments.names import alphabetical_key

from ..data import SeatingPlan, SeatingTable, SheetPlayer
from ..language import tr
from .base import (
    BOLD,
    CUMUL_BG,
    FONT,
    GREY,
    HEAD_BG,
    INK,
    RULE,
    FastCanvas,
    PageFooter,
    binary_streams,
    clean,
    document,
    escape,
    footer_drawer,
    long_date,
    paragraph_style,
    seat_name,
    wrap_cell,
)


def sort_key(player: SheetPlayer) -> tuple[bool, str, str, str]:
    """By last name, then first name, the order of every list of players (``tournaments.names``)."""
    return (
        *alphabetical_key(player.last_name or player.name, player.first_name),
        player.listed_name,
    )


def plan_title(plan: SeatingPlan) -> str:
    """The title of the round's documents (seating plan, table cards)."""
    return tr(
        "{tournament} — {date} — position {n}",
        tournament=plan.tournament,
        date=long_date(plan.tournament_date),
        n=plan.round_number,
    )


def seating_plan_pdf(plan: SeatingPlan) -> bytes:
    """The seating plan of one round, to pin on a wall (landscape A4).

    First by table (large table numbers, players by seat), then every player in alphabetical
    order with table and seat.
    """
    page = landscape(A4)
    buffer = io.BytesIO()
    doc, frame = document(
        buffer, page, tr("Placement — {title}", title=plan_title(plan)), footer=footer_drawer(page)
    )
    footer = PageFooter(
        tr(
            "{tournament} · placement de la position {n}",
            tournament=clean(plan.tournament),
            n=plan.round_number,
        )
    )
    s_title = paragraph_style("plantitle", fontName=BOLD, fontSize=22, leading=26)
    s_sub = paragraph_style("plansub", fontSize=12, leading=15)
    story: list[Flowable] = [
        footer,
        Paragraph(tr("Placement — position {n}", n=plan.round_number), s_title),
        Paragraph(f"{escape(plan.tournament)} — {escape(long_date(plan.tournament_date))}", s_sub),
        Spacer(1, 4 * mm),
    ]
    per_row = 3
    gap = 5 * mm
    block_width = (frame._width - gap * (per_row - 1)) / per_row
    blocks = [_table_block(t, block_width) for t in plan.tables]
    grid_rows = []
    for start in range(0, len(blocks), per_row):
        chunk = blocks[start : start + per_row]
        row = []
        for index in range(per_row):
            row.append(chunk[index] if index < len(chunk) else "")
            if index < per_row - 1:
                row.append("")
        grid_rows.append(row)
    if grid_rows:
        widths = []
        for index in range(per_row):
            widths.append(block_width)
            if index < per_row - 1:
                widths.append(gap)
        grid = Table(grid_rows, colWidths=widths)
        grid.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), gap),
                ]
            )
        )
        story.append(grid)
    else:
        story.append(Paragraph(tr("Aucune table."), s_sub))

    # Alphabetical list.
    entries = sorted(((p, t) for t in plan.tables for p in t.players), key=lambda e: sort_key(e[0]))
    story.append(PageBreak())
    story.append(footer)
    story.append(Paragraph(tr("Liste alphabétique — position {n}", n=plan.round_number), s_title))
    story.append(Spacer(1, 3 * mm))
    if entries:
        story.append(_alphabetical_table(entries, frame._width))
    with binary_streams():
        doc.build(story, canvasmaker=FastCanvas)
    return buffer.getvalue()


def _table_block(table: SeatingTable, width: float) -> Table:
    rows = [[tr("Table {n}", n=table.number), ""]]
    sizes = []  # a long name wraps (smaller only for a word wider than the cell), never cut
    for r, player in enumerate(table.players, start=1):
        name, size = wrap_cell(player.name, width - 24 * mm - 12, BOLD, 13)
        rows.append([seat_name(player.seat), name])
        if size != 13 or "\n" in name:
            sizes.append(("FONT", (1, r), (1, r), BOLD, size, size * 1.15))
    block = Table(rows, colWidths=[24 * mm, width - 24 * mm])
    block.setStyle(
        TableStyle(
            [
                ("SPAN", (0, 0), (-1, 0)),
                ("FONT", (0, 0), (-1, 0), BOLD, 24),
                ("LEADING", (0, 0), (-1, 0), 28),
                ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                ("FONT", (0, 1), (0, -1), FONT, 11),
                ("TEXTCOLOR", (0, 1), (0, -1), GREY),
                ("FONT", (1, 1), (1, -1), BOLD, 13),
                ("BOX", (0, 0), (-1, -1), 1, INK),
                ("LINEBELOW", (0, 0), (-1, 0), 1, INK),
                ("LINEBELOW", (0, 1), (-1, -2), 0.3, RULE),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
                ("LEFTPADDING", (0, 0), (-1, -1), 5),
                *sizes,
            ]
        )
    )
    return block


def _alphabetical_table(entries: Sequence[tuple[SheetPlayer, SeatingTable]], width: float) -> Table:
    # Two side-by-side lists per page would shuffle the reading order across pages: one list,
    # big enough to read from a metre away.
    widths = [width * 0.42, width * 0.30, width * 0.12, width * 0.16]
    rows = [[tr("Joueur"), tr("Club"), tr("Table"), tr("Place")]]
    fonts = []  # long names and clubs wrap (smaller only for a word wider than the cell)
    for r, (player, table) in enumerate(entries, start=1):
        name, name_size = wrap_cell(player.listed_name, widths[0] - 8, BOLD, 13)
        club, club_size = wrap_cell(player.club, widths[1] - 8, FONT, 11)
        rows.append([name, club, str(table.number), seat_name(player.seat)])
        if name_size != 13 or "\n" in name:
            fonts.append(("FONT", (0, r), (0, r), BOLD, name_size, name_size * 1.15))
        if club_size != 11 or "\n" in club:
            fonts.append(("FONT", (1, r), (1, r), FONT, club_size, club_size * 1.15))
    result = Table(rows, colWidths=widths, repeatRows=1)
    style = [
        ("FONT", (0, 0), (-1, 0), BOLD, 11),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("FONT", (0, 1), (0, -1), BOLD, 13),
        ("FONT", (1, 1), (1, -1), FONT, 11),
        ("FONT", (2, 1), (2, -1), BOLD, 15),
        ("FONT", (3, 1), (3, -1), FONT, 12),
        ("ALIGN", (2, 0), (2, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 0.8, INK),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        *fonts,
    ]
    for r in range(2, len(rows), 2):
        style.append(("BACKGROUND", (0, r), (-1, r), CUMUL_BG))
    result.setStyle(TableStyle(style))
    return result

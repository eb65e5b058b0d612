"""The standings as a PDF to pin on the wall: a ranking table whose header row repeats on every
page. Plain Python: no Django import.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from ..data import StandingsSection
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
    format_number,
    paragraph_style,
    when,
    wrap_cell,
)


def standings_pdf(
    title: str,
    subtitle: str,
    headers: list[str],
    rows: list[list],
    *,
    more: Iterable[StandingsSection] = (),
) -> bytes:
    """A ranking table to pin on the wall; the header row repeats on every page. Each further
    section (the team standings of a team event) follows on a new page, under its title.

    Numbers are right-aligned; an empty value (None) is an empty cell. Six columns or more
    switch to landscape A4.
    """
    more = list(more)
    n_cols = max([len(headers)] + [len(r) for r in rows]) if (headers or rows) else 1
    page = landscape(A4) if n_cols >= 6 else A4
    buffer = io.BytesIO()
    doc, frame = document(buffer, page, title, footer=footer_drawer(page))
    s_title = paragraph_style("standtitle", fontName=BOLD, fontSize=20, leading=24)
    s_sub = paragraph_style("standsub", fontSize=11, leading=14, textColor=GREY)
    story: list[Flowable] = [
        PageFooter(clean(f"{title} — {subtitle}" if subtitle else title)),
        Paragraph(escape(title), s_title),
    ]
    if subtitle:
        story.append(Paragraph(escape(subtitle), s_sub))
    story.append(Spacer(1, 4 * mm))
    story.append(_ranking(headers, rows, frame._width))
    for section in more:
        story += [
            PageBreak(),
            Paragraph(escape(section.title), s_title),
            Spacer(1, 4 * mm),
            _ranking(section.headers, section.rows, frame._width),
        ]
    with binary_streams():
        doc.build(story, canvasmaker=FastCanvas)
    return buffer.getvalue()


def _shown(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, Decimal | float):
        return format_number(Decimal(str(value)))
    if isinstance(value, datetime):
        return when(value)
    if isinstance(value, date):
        return f"{value:%d/%m/%Y}"
    return clean(value)


def _is_number(value: object) -> bool:
    """A number, nothing, or a shared rank ("3=")."""
    if value is None or value == "":
        return True
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return True
    return (
        isinstance(value, str)
        and value.endswith("=")
        and value[:-1].isascii()
        and (value[:-1].isdigit())
    )


def _ranking(headers: list[str], rows: list[list], available: float) -> Table:
    n_cols = max([len(headers)] + [len(r) for r in rows]) if (headers or rows) else 1
    font_size = 11 if n_cols <= 6 else 9.5
    body = [[_shown(v) for v in row] + [""] * (n_cols - len(row)) for row in rows]
    head = [clean(h) for h in headers] + [""] * (n_cols - len(headers))
    numeric = [
        bool(rows) and all(_is_number(r[c]) for r in rows if c < len(r)) for c in range(n_cols)
    ]
    natural = []
    for c in range(n_cols):
        cells = [head[c]] + [r[c] for r in body]
        natural.append(max(stringWidth(t, BOLD, font_size) for t in cells) + 10)
    total = sum(natural)
    if total > available:
        # Shrink the widest (text) columns first; long cells wrap in their column.
        widths = [min(w, available * 0.45) for w in natural]
        scale = available / sum(widths) if sum(widths) > available else 1
        widths = [w * scale for w in widths]
    else:
        extra = (available - total) / n_cols
        widths = [w + extra for w in natural]
    fonts = []  # a long name or club wraps (smaller only for a word wider than its column)
    for r, row in enumerate([head, *body]):
        font = BOLD if r == 0 else FONT
        for c, text in enumerate(row):
            if stringWidth(text, font, font_size) <= widths[c] - 8:
                continue
            row[c], size = wrap_cell(text, widths[c] - 8, font, font_size)
            fonts.append(("FONT", (c, r), (c, r), font, size, size * 1.15))
    table = Table([head, *body], colWidths=widths, repeatRows=1)
    style = [
        ("FONT", (0, 0), (-1, 0), BOLD, font_size),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("FONT", (0, 1), (-1, -1), FONT, font_size),
        ("LINEBELOW", (0, 0), (-1, 0), 1, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 0.8, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    style += fonts
    for c, is_number in enumerate(numeric):
        if is_number:
            style.append(("ALIGN", (c, 0), (c, -1), "RIGHT"))
    for r in range(2, len(body) + 1, 2):
        style.append(("BACKGROUND", (0, r), (-1, r), CUMUL_BG))
    table.setStyle(TableStyle(style))
    return table

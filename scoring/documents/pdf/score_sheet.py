"""The score sheet (feuille de marque): one landscape A4 page per table and round, with its head
(tournament, players, verification box), deal table, amendments and signature boxes.

A bundle of score sheets is one document with one page per sheet (a sheet too long for one page
is shrunk to fit, never split). Speed matters (a whole tournament is 500 pages): the sheet uses
no Paragraph; the head is one flowable drawn straight on the canvas. Plain Python: no Django import.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from ..data import SheetData, SheetSignature
from ..fingerprint import verification_code
from ..labels import (
    METHODS,
    STATUSES,
    TIME_UP_NO_DEAL,
    UNSIGNED_AT_CLOSE,
    amendment_title,
    played_deals_label,
    seat_short,
)
from ..language import tr
from .base import (
    AMEND_ORANGE,
    BOLD,
    EMPTY,
    FONT,
    GREY,
    HEAD_BG,
    INK,
    MONO,
    MONO_BOLD,
    RULE,
    binary_streams,
    clean,
    document,
    draw_fitted,
    draw_qr,
    fit,
    fit_cell,
    fit_line,
    footer_drawer,
    long_date,
    paragraph_style,
    seat_label,
    split_chars,
    when,
    wrap_lines,
)
from .deal_table import deal_table
from .pages import PageStore, SheetCanvas, pack, page_key, unpack

SHEET_PAGE = landscape(A4)
SHEET_MARGINS = (10 * mm, 10 * mm, 8 * mm, 11 * mm)
SHEET_WIDTH = SHEET_PAGE[0] - SHEET_MARGINS[0] - SHEET_MARGINS[1]
SHEET_HEIGHT = SHEET_PAGE[1] - SHEET_MARGINS[2] - SHEET_MARGINS[3]
GAP = 3 * mm

S_SUB = paragraph_style("sub", fontSize=9.5, leading=12)


def score_sheet_pdf(
    sheets: Iterable[SheetData],
    progress: Callable[[int], None] | None = None,
    pages: PageStore | None = None,
) -> bytes:
    """Score sheets (feuilles de marque), one landscape A4 page each, in one PDF.

    ``sheets`` may be any iterable (a generator works). A sheet too long for its page is shrunk
    to fit, so the page count always equals the number of sheets. An empty iterable gives a
    one-page PDF saying there is no sheet.

    Each page is one flowable that builds its tables only when it is drawn, so memory stays
    flat however many sheets the bundle holds. ``progress`` is called with the number of sheets
    drawn so far after each one (a background job's progress bar).

    With ``pages`` (:mod:`.pages`), a signed sheet's page drawn before is copied from there
    instead of being laid out again, and the signed sheets drawn now are kept there.
    """
    sheets = list(sheets)
    fixed_mask = len(sheets) > 20
    keys = [page_key(s, fixed_mask=fixed_mask) if pages else None for s in sheets]
    kept = pages.get_many({k for k in keys if k}) if pages else {}
    buffer = io.BytesIO()
    title = tr("Feuilles de marque") if len(sheets) != 1 else _sheet_title(sheets[0])
    doc, _frame = document(buffer, SHEET_PAGE, title, SHEET_MARGINS, footer_drawer(SHEET_PAGE))
    story: list[Flowable] = []
    drawn: list[_SheetPage] = []  # the story is consumed by the build
    for index, sheet in enumerate(sheets):
        if index:
            story.append(PageBreak())
        key = keys[index]
        page = _SheetPage(sheet, fixed_mask, index + 1, progress)
        page.key, page.kept = key, kept.get(key) if key else None
        story.append(page)
        drawn.append(page)
    if not story:
        story.append(Paragraph(tr("Aucune feuille de marque."), S_SUB))
    with binary_streams():
        doc.build(story, canvasmaker=SheetCanvas)
    if pages is not None:
        pages.set_many({p.key: p.drawn for p in drawn if p.key and p.drawn})
    return buffer.getvalue()


class _SheetPage(Flowable):
    """A whole score sheet: fills the frame, lays its parts out top-down when drawn."""

    def __init__(
        self,
        sheet: SheetData,
        fixed_mask: bool,
        number: int = 1,
        progress: Callable[[int], None] | None = None,
    ):
        super().__init__()
        self.sheet, self.fixed_mask = sheet, fixed_mask
        self.number, self.progress = number, progress
        self.width, self.height = SHEET_WIDTH, SHEET_HEIGHT - 1
        # Its key and kept page (.pages), and its operators once drawn, to keep.
        self.key: str | None = None
        self.kept: bytes | None = None
        self.drawn: bytes | None = None

    def wrap(self, available_width, available_height):
        self.height = min(SHEET_HEIGHT, available_height) - 1
        return self.width, self.height

    def draw(self):
        canv = self.canv
        canv._tarot_footer = _sheet_footer(self.sheet)
        if self.kept is not None:  # the same operators as when it was drawn
            canv._code.append(unpack(self.kept))
        else:
            start, fonts = len(canv._code), canv.font_state()
            draw_sheet(canv, self.sheet, self.fixed_mask, self.height)
            # Kept only when it needed no font or symbol beyond those of every bundle.
            if self.key and canv.font_state() == fonts:
                self.drawn = pack(canv._code[start:])
        if self.progress is not None:
            self.progress(self.number)


def draw_sheet(canv, sheet: SheetData, fixed_mask: bool, height: float) -> None:
    """Lay one sheet out on the page (the frame's top left corner is the origin's ``height``
    above)."""
    parts, total = _sheet_story(sheet, fixed_mask)
    canv.saveState()
    canv.translate(0, height)
    if total > height:  # too long for one page: shrink it, never split it
        scale = height / total
        canv.translate(SHEET_WIDTH * (1 - scale) / 2, 0)
        canv.scale(scale, scale)
    y = 0.0
    for part in parts:
        _width, part_height = part.wrap(SHEET_WIDTH, 10_000)
        y -= part_height
        part.drawOn(canv, 0, y)
    canv.restoreState()


def _sheet_title(sheet: SheetData) -> str:
    return tr(
        "Feuille de marque — {tournament} — position {n}, table {t}",
        tournament=sheet.tournament,
        n=sheet.round_number,
        t=sheet.table_number,
    )


def _sheet_footer(sheet: SheetData) -> str:
    code = sheet.verification_code or verification_code(sheet.fingerprint)
    parts = [
        clean(sheet.tournament),
        f"{sheet.tournament_date:%d/%m/%Y}",
        tr(
            "Feuille de marque : position {n}, table {t}",
            n=sheet.round_number,
            t=sheet.table_number,
        ),
    ]
    if code:
        parts.append(tr("code de vérification {code}", code=code))
    return " · ".join(parts)


def _sheet_story(sheet: SheetData, fixed_mask: bool) -> tuple[list[Flowable], float]:
    """The flowables of one sheet and their total height."""
    head = _SheetHead(sheet, fixed_mask)
    signatures, signatures_height = _signatures(sheet)
    amendments, amendments_height = (None, 0.0)
    if sheet.amendments or sheet.status == "amended":
        amendments, amendments_height = _amendments(sheet)
    fixed = head.height + GAP + GAP + signatures_height
    if amendments is not None:
        fixed += amendments_height + GAP
    deals, deals_height = deal_table(sheet, SHEET_WIDTH, SHEET_HEIGHT - fixed)
    parts: list[Flowable] = [head, Spacer(1, GAP), deals]
    if amendments is not None:
        parts += [Spacer(1, GAP), amendments]
    parts += [Spacer(1, GAP), signatures]
    return parts, fixed + deals_height


class _SheetHead(Flowable):
    """Title, tournament, round and table; the players by seat; the verification box."""

    TITLE_H = 17.5 * mm
    ROW_H = 5.6 * mm
    HEAD_ROW_H = 4.4 * mm
    BOX_W = 108 * mm
    BOX_MIN_H = 31 * mm

    def __init__(self, sheet: SheetData, fixed_mask: bool):
        super().__init__()
        self.sheet, self.fixed_mask = sheet, fixed_mask
        self.players_h = self.HEAD_ROW_H + self.ROW_H * len(sheet.players)
        key_line = 3.4 * mm if sheet.key_fingerprint else 0  # the seal's key, once signed
        self.block_h = max(self.players_h, self.BOX_MIN_H + key_line)
        self.width = SHEET_WIDTH
        self.height = self.TITLE_H + GAP + self.block_h

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        c, sheet, w, h = self.canv, self.sheet, self.width, self.height
        c.saveState()
        # Title block.
        c.setFillColor(INK)
        c.setFont(BOLD, 15)
        c.drawString(0, h - 5.2 * mm, tr("FEUILLE DE MARQUE"))
        c.setFont(BOLD, 17)
        c.drawRightString(w, h - 6 * mm, tr("Position {n}", n=sheet.round_number))
        c.drawRightString(w, h - 13 * mm, tr("Table {n}", n=sheet.table_number))
        right_limit = w - 62 * mm
        y = h - 10.2 * mm
        tournament = clean(sheet.tournament)
        rest = f" — {long_date(sheet.tournament_date)}" + (
            f" — {clean(sheet.place)}" if sheet.place else ""
        )
        # The whole line, smaller when long: never cut.
        size = fit_line(tournament + rest, right_limit, BOLD, 9.5)[1]
        c.setFont(BOLD, size)
        c.drawString(0, y, tournament)
        c.setFont(FONT, size)
        c.drawString(stringWidth(tournament, BOLD, size), y, rest)
        if sheet.blank:
            status = tr("Feuille vierge — à remplir à la main")
        else:
            status = tr(STATUSES.get(sheet.status, clean(sheet.status)))
            if sheet.unsigned_at_close:
                status = tr(UNSIGNED_AT_CLOSE)
            if sheet.paper_totals:
                status += tr(" · tenue sur papier (bilans reportés)")
            if sheet.time_up and not sheet.deals_played_at_table():
                status = tr(TIME_UP_NO_DEAL)
            elif sheet.time_up:
                status += tr(
                    " · temps écoulé ({played})",
                    played=played_deals_label(sheet.deals_played_at_table()),
                )
        y = h - 14.6 * mm
        x = 0.0
        for text, font in (
            (tr("Règlement : "), FONT),
            (tr(clean(sheet.rule_set)), BOLD),
            (tr(" · Arbitre : {name}", name=clean(sheet.referee)) if sheet.referee else "", FONT),
            (tr(" · État : "), FONT),
            (status, BOLD),
        ):
            if not text:
                continue
            c.setFont(font, 7.5)
            c.drawString(x, y, text)
            x += stringWidth(text, font, 7.5)
        c.setStrokeColor(INK)
        c.setLineWidth(1.2)
        c.line(0, h - self.TITLE_H + 0.8 * mm, w, h - self.TITLE_H + 0.8 * mm)

        top = h - self.TITLE_H - GAP
        self._players(c, top, w - self.BOX_W - 5 * mm)
        self._verification(c, w - self.BOX_W, top, self.BOX_W, self.block_h)
        c.restoreState()

    def _players(self, c, top: float, width: float) -> None:
        cols = [0, 26 * mm, width - 82 * mm, width - 24 * mm, width]
        rows = len(self.sheet.players)
        bottom = top - self.players_h
        c.setFillColor(HEAD_BG)
        c.rect(0, top - self.HEAD_ROW_H, width, self.HEAD_ROW_H, stroke=0, fill=1)
        c.setFillColor(GREY)
        c.setFont(BOLD, 7)
        for x, label in zip(cols, map(tr, ("Place", "Joueur", "Club", "Licence")), strict=False):
            c.drawString(x + 1.5 * mm, top - self.HEAD_ROW_H + 1.4 * mm, label)
        c.setFillColor(INK)
        for i, player in enumerate(self.sheet.players):
            row_top = top - self.HEAD_ROW_H - i * self.ROW_H
            # The legend of the deal table, which may shorten names: every name, club and
            # licence whole, wrapped or smaller (down to 4 points), never cut.
            for col, text, font, size in (
                (0, seat_label(player.seat), BOLD, 8),
                (1, player.name, BOLD, 9.5),
                (2, player.club, FONT, 8),
                (3, player.licence, FONT, 8),
            ):
                width = cols[col + 1] - cols[col] - 3 * mm
                draw_fitted(c, text, cols[col] + 1.5 * mm, width, row_top, self.ROW_H, font, size)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        for i in range(rows + 2):
            y = top - (self.HEAD_ROW_H + (i - 1) * self.ROW_H if i else 0)
            c.line(0, y, width, y)
        for x in cols:
            c.line(x, top, x, bottom)

    def _verification(self, c, x: float, top: float, width: float, height: float) -> None:
        sheet = self.sheet
        c.setStrokeColor(RULE)
        c.setLineWidth(0.6)
        c.rect(x, top - height, width, height, stroke=1, fill=0)
        qr = 27 * mm
        tx = x + 2 * mm
        if sheet.verification_url:
            draw_qr(
                c, sheet.verification_url, x + 1.5 * mm, top - 1.5 * mm - qr, qr, self.fixed_mask
            )
            tx = x + qr + 4 * mm
        text_w = x + width - tx - 2 * mm
        y = top - 4.5 * mm
        c.setFillColor(INK)
        c.setFont(BOLD, 7.5)
        c.drawString(tx, y, tr("Vérification de la feuille"))
        code = sheet.verification_code or verification_code(sheet.fingerprint)
        if code:
            y -= 6.2 * mm
            c.setFont(MONO_BOLD, 15)
            c.drawString(tx, y, fit(tr("Code : {code}", code=code), text_w, MONO_BOLD, 15))
        if sheet.key_fingerprint:
            y -= 3.4 * mm
            c.setFont(BOLD, 6.8)
            line = tr("Clé du sceau : {key}", key=sheet.key_fingerprint)
            c.drawString(tx, y, fit(line, text_w, BOLD, 6.8))
        c.setFillColor(GREY)
        if sheet.fingerprint:
            y -= 4.2 * mm
            c.setFont(FONT, 6.5)
            c.drawString(tx, y, tr("Empreinte SHA-256 du contenu signé :"))
            c.setFillColor(INK)
            c.setFont(MONO, 6.8)
            fp = clean(sheet.fingerprint)
            for part in (fp[:32], fp[32:64]):
                y -= 2.9 * mm
                c.drawString(tx, y, part)
            c.setFillColor(GREY)
        else:
            c.setFont(FONT, 6.5)
            for line in simpleSplit(
                tr(
                    "Pas encore d'empreinte : elle est imprimée avec le code de vérification une "
                    "fois la feuille signée."
                ),
                FONT,
                6.5,
                text_w,
            ):
                y -= 3 * mm
                c.drawString(tx, y, line)
        if sheet.verification_url:
            c.setFont(FONT, 6.3)
            for line in split_chars(clean(sheet.verification_url), text_w, FONT, 6.3)[:2]:
                y -= 3 * mm
                c.drawString(tx, y, line)


def _amendments(sheet: SheetData) -> tuple[Table, float]:
    lines: list[str] = []
    for amendment in sheet.amendments:
        text = clean(amendment.summary) or (
            tr(
                "le {when} par {who} — motif : {reason}",
                when=when(amendment.at),
                who=clean(amendment.by),
                reason=clean(amendment.reason),
            )
        )
        lines += wrap_lines(text, FONT, 7.5, SHEET_WIDTH - 8)
    if not lines:  # every line whole: a long box shrinks the page (see _SheetPage), never cut
        lines = [tr("(détail des modifications non fourni)")]
    heights = [5 * mm, len(lines) * 9.2 + 3]
    table = Table(
        [[tr(amendment_title(sheet))], ["\n".join(lines)]],
        colWidths=[SHEET_WIDTH],
        rowHeights=heights,
    )
    table.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 1.2, AMEND_ORANGE),
                ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#fff7ed")),
                ("FONT", (0, 0), (0, 0), BOLD, 8),
                ("FONT", (0, 1), (0, 1), FONT, 7.5, 9.2),
                ("TEXTCOLOR", (0, 0), (-1, -1), AMEND_ORANGE),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table, sum(heights)


def _signatures(sheet: SheetData) -> tuple[Table, float]:
    by_player: dict[str, SheetSignature] = {}
    for signature in sheet.signatures:
        by_player.setdefault(signature.player, signature)
    boxes: list[tuple[str, SheetSignature | None, bool]] = [
        (f"{clean(seat_short(p.seat))} — {clean(p.name)}", by_player.get(p.name), False)
        for p in sheet.players
    ]
    referee_sig = by_player.get(sheet.referee) if sheet.referee else None
    if referee_sig is None:
        names = {p.name for p in sheet.players}
        referee_sig = next(
            (s for s in sheet.signatures if s.method == "referee" and s.player not in names), None
        )
    referee_label = tr("Arbitre") + (f" — {clean(sheet.referee)}" if sheet.referee else "")
    boxes.append((referee_label, referee_sig, True))
    width = SHEET_WIDTH / len(boxes)
    head, body, head_fonts = [], [], []
    for label, signature, is_referee in boxes:
        # The cell's default padding is 6 points a side: a long name is printed smaller.
        text, size = fit_cell(label, width - 12, BOLD, 7.5, 5 * mm - 3)
        if size != 7.5:
            head_fonts.append(("FONT", (len(head), 1), (len(head), 1), BOLD, size, size * 1.1))
        head.append(text)
        if signature is None:
            body.append(EMPTY)
            continue
        lines = [
            tr("Signé le {when}", when=when(signature.signed_at)),
            tr(METHODS.get(signature.method, clean(signature.method))),
        ]
        if is_referee and signature.player != sheet.referee:
            lines += wrap_lines(tr("par {name}", name=signature.player), FONT, 7.5, width - 12)
        body.append("\n".join(lines))
    caption = tr("Signatures — chacun vérifie son bilan et que la somme des bilans est nulle")
    heights = [5 * mm, 5 * mm, 16 * mm]
    table = Table(
        [[caption] + [EMPTY] * (len(boxes) - 1), head, body],
        colWidths=[width] * len(boxes),
        rowHeights=heights,
    )
    table.setStyle(
        TableStyle(
            [
                ("SPAN", (0, 0), (-1, 0)),
                ("FONT", (0, 0), (-1, 1), BOLD, 7.5),
                ("FONT", (0, 2), (-1, 2), FONT, 7.5, 9.5),
                ("BOX", (0, 1), (-1, -1), 0.8, INK),
                ("INNERGRID", (0, 1), (-1, -1), 0.5, RULE),
                ("BACKGROUND", (0, 1), (-1, 1), HEAD_BG),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("VALIGN", (0, 2), (-1, 2), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, 0), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                *head_fonts,
            ]
        )
    )
    return table, sum(heights)

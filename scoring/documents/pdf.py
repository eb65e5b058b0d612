"""PDF documents (reportlab): score sheets, seating plans, table cards and standings.

Every function takes the plain data of :mod:`scoring.documents.data` and returns the PDF bytes.

- Fonts: the built-in Helvetica (WinAnsi: every French letter, œ Œ € « » …) and, for the "∑" and
  "≠" of the zero-sum check, Bitstream Vera, which ships inside reportlab (no system font needed).
- User text is escaped before it goes into a ``Paragraph`` (a name like ``<Dupont & Cie>`` prints
  as typed); plain strings in ``Table`` cells are drawn literally.
- A bundle of score sheets is one document with one landscape A4 page per sheet (a sheet too long
  for one page is shrunk to fit, never split).

Plain Python: no Django import.
"""

from __future__ import annotations

import io
import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from xml.sax.saxutils import escape as _xml_escape

import segno
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from .data import SeatingPlan, SeatingTable, SheetData, SheetDeal, SheetPlayer, SheetSignature
from .fingerprint import verification_code as _code_of

__all__ = [
    "escape",
    "score_sheet_pdf",
    "seating_plan_pdf",
    "standings_pdf",
    "table_cards_pdf",
]

# --- fonts, colours, styles --------------------------------------------------------------------

FONT = "Helvetica"
BOLD = "Helvetica-Bold"
ITALIC = "Helvetica-Oblique"
MONO = "Courier"
MONO_BOLD = "Courier-Bold"
# Bitstream Vera ships inside reportlab: it has ∑ and ≠, which WinAnsi (Helvetica) lacks.
SYMBOLS = "TarotVera"
SYMBOLS_BOLD = "TarotVera-Bold"
if SYMBOLS not in pdfmetrics.getRegisteredFontNames():
    pdfmetrics.registerFont(TTFont(SYMBOLS, "Vera.ttf"))
    pdfmetrics.registerFont(TTFont(SYMBOLS_BOLD, "VeraBd.ttf"))

INK = colors.HexColor("#1a1a1a")
GREY = colors.HexColor("#6b6b6b")
RULE = colors.HexColor("#9a9a9a")
HEAD_BG = colors.HexColor("#e4e8ee")
CUMUL_BG = colors.HexColor("#f3f4f6")
TOTAL_BG = colors.HexColor("#dde3ea")
REFEREE_BG = colors.HexColor("#fff4d6")
PASSED_BG = colors.HexColor("#f0f0f0")
PENALTY_BG = colors.HexColor("#fde8e8")
OK_GREEN = colors.HexColor("#1e7b34")
ERROR_RED = colors.HexColor("#b3261e")
AMEND_ORANGE = colors.HexColor("#b45309")


def _style(name: str, **kw) -> ParagraphStyle:
    base = {"fontName": FONT, "fontSize": 8, "leading": 9.6, "textColor": INK}
    base.update(kw)
    return ParagraphStyle(name, **base)


S_SUB = _style("sub", fontSize=9.5, leading=12)

from .labels import CAMPS, CONTRACTS, DAYS, HANDFULS, METHODS, MONTHS, SEAT_NAMES, STATUSES  # noqa: E402

try:  # printed times are French local times
    from zoneinfo import ZoneInfo

    DISPLAY_TZ = ZoneInfo("Europe/Paris")
except Exception:  # pragma: no cover - no tz database on the host
    DISPLAY_TZ = None

# --- text helpers ------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


_LATIN_FALLBACK = str.maketrans(
    {"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ŀ": "L", "ŀ": "l"}
)


def _printable(char: str) -> str:
    """A letter Helvetica (WinAnsi) lacks, by its nearest printable form ("ś" → "s")."""
    try:
        char.encode("cp1252")
        return char
    except UnicodeEncodeError:
        pass
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
    ).translate(_LATIN_FALLBACK)
    try:
        plain.encode("cp1252")
        return plain
    except UnicodeEncodeError:
        # Symbols such as → are drawn by reportlab from the standard Symbol font; anything
        # else prints as a box rather than failing.
        return char


def _clean(value: object) -> str:
    """User text as one printable line (no control characters, newlines become spaces)."""
    if value is None:
        return ""
    text = unicodedata.normalize("NFC", str(value))
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    text = _CONTROL.sub("", text)
    if not text.isascii():
        try:
            text.encode("cp1252")
        except UnicodeEncodeError:
            text = "".join(_printable(c) for c in text)
    return text


def escape(value: object) -> str:
    """User text made safe for a reportlab ``Paragraph`` (mini-markup): ``& < > " '`` escaped."""
    return _xml_escape(_clean(value), {'"': "&quot;", "'": "&#39;"})


def _fit(text: str, width: float, font: str = FONT, size: float = 7) -> str:
    """Truncate a plain string with "…" so it fits ``width`` points."""
    text = _clean(text)
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _signed(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


def _number(value: Decimal | int | None) -> str:
    if value is None:
        return ""
    text = format(value.normalize(), "f") if isinstance(value, Decimal) else str(value)
    return text.replace(".", ",")


def _long_date(value: date) -> str:
    if isinstance(value, datetime):
        value = value.date()
    return f"{DAYS[value.weekday()]} {value.day} {MONTHS[value.month - 1]} {value.year}"


def _local(value: datetime) -> datetime:
    if value.tzinfo is not None and DISPLAY_TZ is not None:
        return value.astimezone(DISPLAY_TZ)
    return value


def _when(value: datetime) -> str:
    value = _local(value)
    return f"{value:%d/%m/%Y} à {value:%H:%M}"


def _seat_name(seat: str) -> str:
    return SEAT_NAMES.get(seat.strip().upper(), seat)


# --- QR code -----------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _qr_path(url: str, fixed_mask: bool) -> tuple[int, str]:
    """The QR code of ``url``: its size in modules and a PDF path of its dark modules.

    The path is in module units (x to the right, y downwards from the top-left module), one
    rectangle per horizontal run of dark modules, written as raw PDF operators: drawing it costs
    one string per code instead of hundreds of canvas calls. ``fixed_mask`` skips segno's mask
    evaluation (8x faster; every mask gives a valid code): used for big bundles.
    """
    kw = {"mask": 0} if fixed_mask else {}
    matrix = segno.make_qr(url, error="m", **kw).matrix
    ops = []
    for y, row in enumerate(matrix):
        x, n = 0, len(row)
        while x < n:
            if row[x] & 1:
                start = x
                while x < n and row[x] & 1:
                    x += 1
                ops.append(f"{start} {y} {x - start} 1 re")
            else:
                x += 1
    ops.append("f")
    return len(matrix), "\n".join(ops)


def _draw_qr(canv, url: str, x: float, y: float, size: float, fixed_mask: bool = False) -> None:
    """Draw a vector QR code, ``size`` points square, quiet zone of 2 modules included."""
    modules, path = _qr_path(url, fixed_mask)
    unit = size / (modules + 4)
    canv.saveState()
    canv.setFillColor(colors.black)
    canv.transform(unit, 0, 0, -unit, x + 2 * unit, y + size - 2 * unit)
    canv.addLiteral(path)
    canv.restoreState()


class _PageFooter(Flowable):
    """Zero-size marker: the footer text of the page it lands on."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text
        self.width = self.height = 0

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        self.canv._tarot_footer = self.text


_PDF_ESCAPES = [
    f"\\{c:03o}" if c < 32 or c >= 127 else ("\\" + chr(c) if chr(c) in "\\()" else chr(c))
    for c in range(256)
]
_STANDARD_FONTS = frozenset(
    {FONT, BOLD, ITALIC, "Helvetica-BoldOblique", MONO, MONO_BOLD, "Courier-Oblique"}
)


@lru_cache(maxsize=16)
def _widths(font_name: str) -> tuple[int, ...]:
    return tuple(pdfmetrics.getFont(font_name).widths)


class _FastCanvas(rl_canvas.Canvas):
    """A canvas whose plain-string drawing skips reportlab's general text machinery.

    For a built-in font (WinAnsi) and text that encodes to cp1252 (WinAnsi), ``drawString`` and
    friends write the one ``BT … Tj ET`` operator reportlab would write, without building a text
    object per string: a score-sheet bundle draws ~150 strings a page. Anything else (a TTF font,
    a character needing a substitute font, text modes, spacing) goes through reportlab as usual.
    ``setFont`` and ``line`` (the table grids) format their numbers with f-strings: reportlab's
    pure-Python number formatting is the single biggest cost when its optional C accelerator
    (the ``rl-accel`` package) is not installed.
    """

    def _fast(self, x: float, y: float, text: str, align: float) -> bool:
        if not self.bottomup or self._fontname not in _STANDARD_FONTS:
            return False
        try:
            raw = text.encode("cp1252")
        except UnicodeEncodeError:
            return False
        if align:
            widths = _widths(self._fontname)
            x -= align * sum(map(widths.__getitem__, raw)) * self._fontsize / 1000
        body = "".join(map(_PDF_ESCAPES.__getitem__, raw))
        self._code.append(f"BT 1 0 0 1 {x:.3f} {y:.3f} Tm ({body}) Tj T* ET")
        return True

    def setFont(self, psfontname, size, leading=None):
        if psfontname not in _STANDARD_FONTS:
            super().setFont(psfontname, size, leading)
            return
        if leading is None:
            leading = size * 1.2
        self._fontname, self._fontsize, self._leading = psfontname, size, leading
        name = self._doc.getInternalFontName(psfontname)
        self._code.append(f"BT {name} {size:.2f} Tf {leading:.2f} TL ET")

    def line(self, x1, y1, x2, y2):
        self._code.append(f"n {x1:.2f} {y1:.2f} m {x2:.2f} {y2:.2f} l S")

    def drawString(self, x, y, text, mode=None, charSpace=0, direction=None, **kw):
        if (
            mode is None
            and not charSpace
            and direction is None
            and not kw
            and self._fast(x, y, text, 0)
        ):
            return
        super().drawString(x, y, text, mode, charSpace, direction, **kw)

    def drawRightString(self, x, y, text, mode=None, charSpace=0, direction=None, **kw):
        if (
            mode is None
            and not charSpace
            and direction is None
            and not kw
            and self._fast(x, y, text, 1)
        ):
            return
        super().drawRightString(x, y, text, mode, charSpace, direction, **kw)

    def drawCentredString(self, x, y, text, mode=None, charSpace=0, direction=None, **kw):
        if (
            mode is None
            and not charSpace
            and direction is None
            and not kw
            and self._fast(x, y, text, 0.5)
        ):
            return
        super().drawCentredString(x, y, text, mode, charSpace, direction, **kw)


_streams_lock = threading.Lock()
_streams_users = 0
_streams_saved = 1


@contextmanager
def _binary_streams():
    """Build with binary (zlib only) page streams instead of zlib + ASCII85.

    Both are valid PDF; ASCII85 makes files 25 % bigger and, without reportlab's optional C
    accelerator, costs a third of the build time. reportlab reads the choice from a global, so
    it is switched for the duration of our builds only (counted, so overlapping builds in
    threads restore it once).
    """
    global _streams_users, _streams_saved
    with _streams_lock:
        if _streams_users == 0:
            _streams_saved = rl_config.useA85
            rl_config.useA85 = 0
        _streams_users += 1
    try:
        yield
    finally:
        with _streams_lock:
            _streams_users -= 1
            if _streams_users == 0:
                rl_config.useA85 = _streams_saved


def _document(
    buffer, pagesize, title: str, margins=(10 * mm, 10 * mm, 9 * mm, 12 * mm), footer=None
):
    left, right, top, bottom = margins
    doc = BaseDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=left,
        rightMargin=right,
        topMargin=top,
        bottomMargin=bottom,
        title=_clean(title),
        author="Tarot — gestion de tournois",
        creator="Tarot — gestion de tournois",
        lang="fr-FR",
    )
    frame = Frame(
        left,
        bottom,
        pagesize[0] - left - right,
        pagesize[1] - top - bottom,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPageEnd=footer)])
    return doc, frame


def _footer_drawer(pagesize):
    def draw(canv, doc):
        text = getattr(canv, "_tarot_footer", "")
        canv.saveState()
        canv.setFont(FONT, 6.5)
        canv.setFillColor(GREY)
        canv.drawString(10 * mm, 6 * mm, _fit(text, pagesize[0] - 60 * mm, FONT, 6.5))
        canv.drawRightString(pagesize[0] - 10 * mm, 6 * mm, f"Page {canv.getPageNumber()}")
        canv.restoreState()

    return draw


# --- the score sheet ---------------------------------------------------------------------------
#
# Speed matters (a whole tournament is 500 pages): the sheet uses no Paragraph. The head is one
# flowable drawn straight on the canvas; the deal table and the signature boxes are Tables of
# plain strings with fixed column widths and row heights, so reportlab measures nothing twice.
# Plain strings are drawn literally: no markup, nothing to escape.

SHEET_PAGE = landscape(A4)
SHEET_MARGINS = (10 * mm, 10 * mm, 8 * mm, 11 * mm)
SHEET_WIDTH = SHEET_PAGE[0] - SHEET_MARGINS[0] - SHEET_MARGINS[1]
SHEET_HEIGHT = SHEET_PAGE[1] - SHEET_MARGINS[2] - SHEET_MARGINS[3]
GAP = 3 * mm
_E = ()  # an empty table cell: reportlab draws nothing for it (an "" is drawn as empty text)


def score_sheet_pdf(sheets: Iterable[SheetData]) -> bytes:
    """Score sheets (feuilles de marque), one landscape A4 page each, in one PDF.

    ``sheets`` may be any iterable (a generator works). A sheet too long for its page is shrunk
    to fit, so the page count always equals the number of sheets. An empty iterable gives a
    one-page PDF saying there is no sheet.

    Each page is one flowable that builds its tables only when it is drawn, so memory stays
    flat however many sheets the bundle holds.
    """
    sheets = list(sheets)
    fixed_mask = len(sheets) > 20
    buffer = io.BytesIO()
    title = "Feuilles de marque" if len(sheets) != 1 else _sheet_title(sheets[0])
    doc, _frame = _document(buffer, SHEET_PAGE, title, SHEET_MARGINS, _footer_drawer(SHEET_PAGE))
    story: list[Flowable] = []
    for index, sheet in enumerate(sheets):
        if index:
            story.append(PageBreak())
        story.append(_SheetPage(sheet, fixed_mask))
    if not story:
        story.append(Paragraph("Aucune feuille de marque.", S_SUB))
    with _binary_streams():
        doc.build(story, canvasmaker=_FastCanvas)
    return buffer.getvalue()


class _SheetPage(Flowable):
    """A whole score sheet: fills the frame, lays its parts out top-down when drawn."""

    def __init__(self, sheet: SheetData, fixed_mask: bool):
        super().__init__()
        self.sheet, self.fixed_mask = sheet, fixed_mask
        self.width, self.height = SHEET_WIDTH, SHEET_HEIGHT - 1

    def wrap(self, available_width, available_height):
        self.height = min(SHEET_HEIGHT, available_height) - 1
        return self.width, self.height

    def draw(self):
        canv = self.canv
        canv._tarot_footer = _sheet_footer(self.sheet)
        parts, total = _sheet_story(self.sheet, self.fixed_mask)
        canv.saveState()
        canv.translate(0, self.height)
        if total > self.height:  # too long for one page: shrink it, never split it
            scale = self.height / total
            canv.translate(SHEET_WIDTH * (1 - scale) / 2, 0)
            canv.scale(scale, scale)
        y = 0.0
        for part in parts:
            _width, height = part.wrap(SHEET_WIDTH, 10_000)
            y -= height
            part.drawOn(canv, 0, y)
        canv.restoreState()


def _sheet_title(sheet: SheetData) -> str:
    return (
        f"Feuille de marque — {sheet.tournament} — position {sheet.round_number}, "
        f"table {sheet.table_number}"
    )


def _sheet_footer(sheet: SheetData) -> str:
    code = sheet.verification_code or _code_of(sheet.fingerprint)
    parts = [
        _clean(sheet.tournament),
        f"{sheet.tournament_date:%d/%m/%Y}",
        f"Feuille de marque : position {sheet.round_number}, table {sheet.table_number}",
    ]
    if code:
        parts.append(f"code de vérification {code}")
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
    deals, deals_height = _deal_table(sheet, SHEET_HEIGHT - fixed)
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
        self.block_h = max(self.players_h, self.BOX_MIN_H)
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
        c.drawString(0, h - 5.2 * mm, "FEUILLE DE MARQUE")
        c.setFont(BOLD, 17)
        c.drawRightString(w, h - 6 * mm, f"Position {sheet.round_number}")
        c.drawRightString(w, h - 13 * mm, f"Table {sheet.table_number}")
        right_limit = w - 62 * mm
        y = h - 10.2 * mm
        tournament = _fit(sheet.tournament, right_limit * 0.6, BOLD, 9.5)
        c.setFont(BOLD, 9.5)
        c.drawString(0, y, tournament)
        x = stringWidth(tournament, BOLD, 9.5)
        rest = f" — {_long_date(sheet.tournament_date)}" + (
            f" — {_clean(sheet.place)}" if sheet.place else ""
        )
        c.setFont(FONT, 9.5)
        c.drawString(x, y, _fit(rest, right_limit - x, FONT, 9.5))
        if sheet.blank:
            status = "Feuille vierge — à remplir à la main"
        else:
            status = STATUSES.get(sheet.status, _clean(sheet.status))
            if sheet.paper_totals:
                status += " · tenue sur papier (bilans reportés)"
        y = h - 14.6 * mm
        x = 0.0
        for text, font in (
            ("Règlement : ", FONT),
            (_fit(sheet.rule_set, 70 * mm, BOLD, 7.5), BOLD),
            (
                f" · Arbitre : {_fit(sheet.referee, 50 * mm, FONT, 7.5)}" if sheet.referee else "",
                FONT,
            ),
            (" · État : ", FONT),
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
        cols = [0, 21 * mm, width - 82 * mm, width - 24 * mm, width]
        rows = len(self.sheet.players)
        bottom = top - self.players_h
        c.setFillColor(HEAD_BG)
        c.rect(0, top - self.HEAD_ROW_H, width, self.HEAD_ROW_H, stroke=0, fill=1)
        c.setFillColor(GREY)
        c.setFont(BOLD, 7)
        for x, label in zip(cols, ("Place", "Joueur", "Club", "Licence"), strict=False):
            c.drawString(x + 1.5 * mm, top - self.HEAD_ROW_H + 1.4 * mm, label)
        c.setFillColor(INK)
        for i, player in enumerate(self.sheet.players):
            base = top - self.HEAD_ROW_H - (i + 1) * self.ROW_H + 1.8 * mm
            seat = (
                f"{_clean(player.seat)} — {_seat_name(player.seat)}"
                if player.seat != "5"
                else "5e place"
            )
            c.setFont(BOLD, 8)
            c.drawString(cols[0] + 1.5 * mm, base, _fit(seat, cols[1] - cols[0] - 2 * mm, BOLD, 8))
            c.setFont(BOLD, 9.5)
            c.drawString(
                cols[1] + 1.5 * mm, base, _fit(player.name, cols[2] - cols[1] - 3 * mm, BOLD, 9.5)
            )
            c.setFont(FONT, 8)
            c.drawString(
                cols[2] + 1.5 * mm, base, _fit(player.club, cols[3] - cols[2] - 3 * mm, FONT, 8)
            )
            c.drawString(
                cols[3] + 1.5 * mm, base, _fit(player.licence, cols[4] - cols[3] - 3 * mm, FONT, 8)
            )
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
            _draw_qr(
                c, sheet.verification_url, x + 1.5 * mm, top - 1.5 * mm - qr, qr, self.fixed_mask
            )
            tx = x + qr + 4 * mm
        text_w = x + width - tx - 2 * mm
        y = top - 4.5 * mm
        c.setFillColor(INK)
        c.setFont(BOLD, 7.5)
        c.drawString(tx, y, "Vérification de la feuille")
        code = sheet.verification_code or _code_of(sheet.fingerprint)
        if code:
            y -= 6.2 * mm
            c.setFont(MONO_BOLD, 15)
            c.drawString(tx, y, _fit(f"Code : {code}", text_w, MONO_BOLD, 15))
        c.setFillColor(GREY)
        if sheet.fingerprint:
            y -= 4.2 * mm
            c.setFont(FONT, 6.5)
            c.drawString(tx, y, "Empreinte SHA-256 du contenu signé :")
            c.setFillColor(INK)
            c.setFont(MONO, 6.8)
            fp = _clean(sheet.fingerprint)
            for part in (fp[:32], fp[32:64]):
                y -= 2.9 * mm
                c.drawString(tx, y, part)
            c.setFillColor(GREY)
        else:
            c.setFont(FONT, 6.5)
            for line in simpleSplit(
                "Pas encore d'empreinte : elle est imprimée avec le code de vérification une "
                "fois la feuille signée.",
                FONT,
                6.5,
                text_w,
            ):
                y -= 3 * mm
                c.drawString(tx, y, line)
        if sheet.verification_url:
            c.setFont(FONT, 6.3)
            for line in _split_chars(_clean(sheet.verification_url), text_w, FONT, 6.3)[:2]:
                y -= 3 * mm
                c.drawString(tx, y, line)


# Deal table input columns: (key, header, width in mm or None to share what the scores leave).
_INPUT_COLUMNS = [
    ("no", "N°", 8),
    ("dealer", "Donneur", None),
    ("dead", "Mort", None),
    ("taker", "Preneur", None),
    ("partner", "Partenaire", None),
    ("contract", "Contrat", 19),
    ("oudlers", "Bouts", 10),
    ("points", "Points", 12),
    ("handfuls", "Poignées", None),
    ("petit", "Petit au\nbout", 14.5),
    ("slam", "Chelem", 15.5),
]
_FLEX_WEIGHTS = {"dealer": 1.0, "dead": 1.0, "taker": 1.05, "partner": 1.05, "handfuls": 1.3}


def _columns(
    n_players: int, show_dead: bool, show_partner: bool
) -> tuple[list[tuple[str, str]], list[float], float]:
    hidden = set()
    if not show_dead:
        hidden.add("dead")
    if not show_partner:
        hidden.add("partner")
    keys = [c for c in _INPUT_COLUMNS if c[0] not in hidden]
    score_width = {1: 17, 2: 17, 3: 17, 4: 13.5}.get(n_players, 12) * mm
    fixed = sum(w * mm for _, _, w in keys if w is not None)
    free = SHEET_WIDTH - fixed - 2 * n_players * score_width
    total = sum(_FLEX_WEIGHTS[k] for k, _, w in keys if w is None)
    widths = [w * mm if w is not None else free * _FLEX_WEIGHTS[k] / total for k, _, w in keys]
    return [(k, h) for k, h, _ in keys], widths, score_width


def _short_name(name: str, width: float, font: str, size: float) -> str:
    """A name for a narrow cell: in full if it fits, else "Prénom N.", else truncated."""
    name = _clean(name)
    if stringWidth(name, font, size) <= width:
        return name
    parts = name.split()
    if len(parts) > 1:
        short = f"{parts[0]} {parts[-1][0]}."
        if stringWidth(short, font, size) <= width:
            return short
    return _fit(name, width, font, size)


def _lines(text: str, font: str, size: float, width: float, max_lines: int = 0) -> list[str]:
    """Word-wrap plain text; with ``max_lines``, the last kept line ends with "…"."""
    lines = simpleSplit(_clean(text), font, size, width) or [""]
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _fit(lines[-1] + "…", width, font, size)
    return lines


def _two_lines(text: str, font: str, size: float, width: float) -> str:
    return "\n".join(_lines(text, font, size, width, 2))


def _handful_text(deal: SheetDeal) -> str:
    return " ; ".join(f"{HANDFULS.get(h.size, h.size)} : {_clean(h.player)}" for h in deal.handfuls)


def _slam_text(deal: SheetDeal) -> str:
    if deal.slam == "attack":
        return "Attaque, annoncé" if deal.slam_announced else "Attaque"
    if deal.slam == "defence":
        return "Défense"
    if deal.slam_announced:
        return "Annoncé, chuté"
    return ""


class _Mark(Flowable):
    """A vector tick (✓) or cross (✗): no font needed, prints the same everywhere."""

    def __init__(self, ok: bool, size: float = 3.6 * mm):
        super().__init__()
        self.ok, self.size = ok, size
        self.width = self.height = size

    def wrap(self, available_width, available_height):
        return self.size, self.size

    def draw(self):
        c, s = self.canv, self.size
        c.saveState()
        c.setLineWidth(s * 0.16)
        c.setLineCap(1)
        c.setLineJoin(1)
        if self.ok:
            c.setStrokeColor(OK_GREEN)
            path = c.beginPath()
            path.moveTo(s * 0.08, s * 0.5)
            path.lineTo(s * 0.38, s * 0.16)
            path.lineTo(s * 0.94, s * 0.88)
            c.drawPath(path, stroke=1, fill=0)
        else:
            c.setStrokeColor(ERROR_RED)
            c.line(s * 0.12, s * 0.12, s * 0.88, s * 0.88)
            c.line(s * 0.12, s * 0.88, s * 0.88, s * 0.12)
        c.restoreState()


def _row_sizing(sheet: SheetData, available: float) -> tuple[float, float]:
    """Height and font size of a deal line, so the sheet fills its page without overflowing."""
    if sheet.blank:
        rows, top = sheet.deals_expected, 10 * mm
    elif sheet.paper_totals:
        rows, top = 1, 8.5 * mm
    else:
        rows, top = len(sheet.deals), 8.5 * mm
    # Everything but the deal lines: header rows, notes, bilan, check, penalties (estimated).
    notes = sum(1 for d in sheet.deals if d.kind == "referee") if not sheet.blank else 0
    others = 12 * mm + notes * 5 * mm + 16 * mm
    if sheet.penalties:
        others += (len(sheet.penalties) + 1) * 6.5 * mm
    height = (available - others) / max(rows, 1)
    height = max(4.4 * mm, min(top, height))
    font = 9 if height >= 7 * mm else 8.5 if height >= 6 * mm else 7.6 if height >= 5 * mm else 7
    return height, font


def _deal_table(sheet: SheetData, available: float) -> tuple[Table, float]:
    players = sheet.players
    n = len(players)
    five = n >= 5
    show_dead = five and (sheet.blank or any(d.sitting_out for d in sheet.deals))
    show_partner = five and (sheet.blank or any(d.partner for d in sheet.deals))
    columns, in_widths, score_width = _columns(n, show_dead, show_partner)
    keys = [k for k, _ in columns]
    n_in = len(columns)
    n_cols = n_in + 2 * n
    row_h, font = _row_sizing(sheet, available)
    name_font = font - 0.6
    small = min(font - 1.2, 7.2)
    score_cols = [n_in + 2 * i for i in range(n)]
    cumul_cols = [c + 1 for c in score_cols]
    width_of = dict(zip(keys, in_widths, strict=True))
    seat_of = {p.name: _clean(p.seat) for p in players}

    def who(name: str, key: str) -> str:
        if not name:
            return ""
        seat = seat_of.get(name)
        prefix = f"{seat} " if seat else ""
        width = width_of[key] - 4 - stringWidth(prefix, FONT, name_font)
        return prefix + _short_name(name, width, FONT, name_font)

    player_heads: list[str] = []
    for player in players:
        label = f"{_clean(player.seat)} — {_clean(player.name)}"
        player_heads += [_two_lines(label, BOLD, 7, 2 * score_width - 4), _E]
    rows: list[list] = [
        [h for _, h in columns] + player_heads,
        [_E] * n_in + ["Donne", "Cumul"] * n,
    ]
    heights: list[float] = [8 * mm, 4.2 * mm]
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, 1), BOLD, 7, 8),
        ("FONT", (0, 1), (-1, 1), BOLD, 6.5),
        ("TEXTCOLOR", (0, 1), (-1, 1), GREY),
        ("BACKGROUND", (0, 0), (-1, 1), HEAD_BG),
        ("ALIGN", (0, 0), (-1, 1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("FONT", (0, 2), (-1, -1), FONT, font),
        ("GRID", (0, 0), (-1, -1), 0.35, RULE),
        ("LINEAFTER", (n_in - 1, 0), (n_in - 1, -1), 1.1, INK),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
        ("ALIGN", (n_in, 2), (-1, -1), "RIGHT"),
    ]
    style += [("SPAN", (c, 0), (c, 1)) for c in range(n_in)]
    for i, c in enumerate(score_cols):
        style.append(("SPAN", (c, 0), (c + 1, 0)))
        if i:
            style.append(("LINEBEFORE", (c, 0), (c, -1), 0.9, INK))
    for key in ("no", "oudlers", "points"):
        c = keys.index(key)
        style.append(("ALIGN", (c, 2), (c, -1), "CENTER"))
    for key in ("dealer", "dead", "taker", "partner"):
        if key in keys:
            c = keys.index(key)
            style.append(("FONT", (c, 2), (c, -1), FONT, name_font))
    base_len = len(style)

    def full_row(text: str, font_name: str, size: float, lines: int) -> int:
        rows.append([text] + [_E] * (n_cols - 1))
        heights.append(lines * (size + 1.6) + 3.5)
        r = len(rows) - 1
        style.extend(
            [
                ("SPAN", (0, r), (-1, r)),
                ("FONT", (0, r), (-1, r), font_name, size, size + 1.6),
                ("ALIGN", (0, r), (-1, r), "LEFT"),
            ]
        )
        return r

    first_deal_row = len(rows)
    if sheet.paper_totals and not sheet.blank:
        full_row(
            "Feuille tenue sur papier : les donnes ne sont pas reportées ici, seuls les bilans "
            "saisis par l'arbitre le sont.",
            ITALIC,
            font - 0.5,
            1,
        )
    elif sheet.blank:
        for number in range(1, sheet.deals_expected + 1):
            rows.append([str(number)] + [_E] * (n_cols - 1))
            heights.append(row_h)
    else:
        taker_col = keys.index("taker")
        handful_lines = 2 if row_h >= small * 2 + 4 else 1
        for deal, cumul in zip(sheet.deals, sheet.running_totals(), strict=True):
            r = len(rows)
            values = {
                "no": f"{deal.number}*" if deal.kind == "referee" else str(deal.number),
                "dealer": who(deal.dealer, "dealer"),
                "dead": who(deal.sitting_out, "dead") if show_dead else "",
                "taker": who(deal.taker, "taker"),
                "partner": (
                    (who(deal.partner, "partner") or ("seul" if not deal.sitting_out else ""))
                    if show_partner
                    else ""
                ),
                "contract": CONTRACTS.get(deal.contract, _clean(deal.contract)),
                "oudlers": "" if deal.oudlers is None else str(deal.oudlers),
                "points": _number(deal.points),
                "handfuls": _handful_text(deal),
                "petit": CAMPS.get(deal.petit_au_bout, _clean(deal.petit_au_bout)),
                "slam": _slam_text(deal),
            }
            handfuls = values["handfuls"]
            if handfuls and stringWidth(handfuls, FONT, font) > width_of["handfuls"] - 4.5:
                c = keys.index("handfuls")
                values["handfuls"] = "\n".join(
                    _lines(handfuls, FONT, small, width_of["handfuls"] - 4.5, handful_lines)
                )
                style.append(("FONT", (c, r), (c, r), FONT, small, small + 1))
            row = [values[k] or _E for k in keys] + [_E] * (2 * n)
            if deal.kind == "passed":
                row[taker_col] = "Donne passée : redistribuée, sans score"
                for c in range(taker_col + 1, n_in):
                    row[c] = _E
                style += [
                    ("SPAN", (taker_col, r), (n_in - 1, r)),
                    ("FONT", (taker_col, r), (taker_col, r), ITALIC, font),
                    ("BACKGROUND", (0, r), (n_in - 1, r), PASSED_BG),
                    ("TEXTCOLOR", (0, r), (n_in - 1, r), GREY),
                ]
                for i in range(n):
                    row[score_cols[i]] = "—"
                    row[cumul_cols[i]] = str(cumul[i])
            else:
                scores = deal.scores or (0,) * n
                for i, player in enumerate(players):
                    c = score_cols[i]
                    if deal.sitting_out and player.name == deal.sitting_out:
                        row[c] = "mort"
                        style += [
                            ("TEXTCOLOR", (c, r), (c, r), GREY),
                            ("FONT", (c, r), (c, r), ITALIC, font - 0.5),
                        ]
                    else:
                        row[c] = _signed(scores[i])
                    row[cumul_cols[i]] = str(cumul[i])
                if deal.kind == "referee":
                    style.append(("BACKGROUND", (0, r), (n_in - 1, r), REFEREE_BG))
            rows.append(row)
            heights.append(row_h)
            if deal.kind == "referee":
                size = font - 1
                note = _clean(deal.note) or "(motif non précisé)"
                lines = _lines(
                    f"* Donne {deal.number} décidée par l'arbitre — motif : {note}",
                    ITALIC,
                    size,
                    SHEET_WIDTH - 6,
                    3,
                )
                rr = full_row("\n".join(lines), ITALIC, size, len(lines))
                style.append(("BACKGROUND", (0, rr), (-1, rr), REFEREE_BG))

    last_deal_row = len(rows) - 1
    if last_deal_row >= first_deal_row and not (sheet.paper_totals and not sheet.blank):
        # Inserted before the row styles, so that passed and referee rows paint over them.
        commands: list[tuple] = []
        for c in score_cols:
            commands.append(("FONT", (c, first_deal_row), (c, last_deal_row), BOLD, font + 0.2))
        for c in cumul_cols:
            commands += [
                ("BACKGROUND", (c, first_deal_row), (c, last_deal_row), CUMUL_BG),
                ("TEXTCOLOR", (c, first_deal_row), (c, last_deal_row), GREY),
            ]
        style[base_len:base_len] = commands

    def totals_row(label: str, values: Sequence[str], size: float, height: float) -> int:
        row = [label] + [_E] * (n_cols - 1)
        for c, value in zip(score_cols, values, strict=True):
            row[c] = value or _E
        rows.append(row)
        heights.append(height)
        r = len(rows) - 1
        style.extend(
            [
                ("SPAN", (0, r), (n_in - 1, r)),
                ("BACKGROUND", (0, r), (-1, r), TOTAL_BG),
                ("FONT", (0, r), (-1, r), BOLD, size),
                ("TEXTCOLOR", (0, r), (-1, r), INK),
                ("ALIGN", (0, r), (n_in - 1, r), "RIGHT"),
                ("ALIGN", (n_in, r), (-1, r), "CENTER"),
            ]
        )
        style.extend(("SPAN", (c, r), (c + 1, r)) for c in score_cols)
        return r

    totals = sheet.round_totals()
    shown = [_E] * n if sheet.blank else [_signed(t) for t in totals]
    r = totals_row(
        "Bilan de la position (total des donnes)", shown, 10.5, 9 * mm if sheet.blank else 7 * mm
    )
    style.append(("LINEABOVE", (0, r), (-1, r), 1.3, INK))

    # The zero-sum check: a vector mark, then the text in Vera (for ∑ and ≠).
    rows.append([_E] * n_cols)
    heights.append(6.5 * mm)
    r = len(rows) - 1
    style += [
        ("SPAN", (1, r), (-1, r)),
        ("ALIGN", (0, r), (-1, r), "LEFT"),
        ("LINEAFTER", (0, r), (0, r), 0, colors.white),
    ]
    if sheet.blank:
        rows[r][1] = "Contrôle : ∑ des bilans = ____________ (doit être égale à 0)"
        style.append(("FONT", (1, r), (1, r), SYMBOLS_BOLD, 9))
    else:
        total = sum(totals)
        rows[r][0] = _Mark(total == 0)
        if total == 0:
            rows[r][1] = (
                "Contrôle : ∑ = 0 — correct, la somme des bilans est nulle "
                "(pénalités non comprises)."
            )
        else:
            rows[r][1] = (
                f"ERREUR : ∑ = {_signed(total)} ≠ 0 — la somme des bilans doit être nulle. "
                "Vérifiez la feuille avant de la signer."
            )
        colour = OK_GREEN if total == 0 else ERROR_RED
        style += [
            ("FONT", (1, r), (1, r), SYMBOLS_BOLD, 9),
            ("TEXTCOLOR", (1, r), (1, r), colour),
            ("ALIGN", (0, r), (0, r), "CENTER"),
        ]

    if sheet.penalties:
        names = [p.name for p in players]
        label_width = sum(in_widths) - 5
        for penalty in sheet.penalties:
            text = (
                f"Pénalité (hors contrôle de la somme nulle) — {_clean(penalty.player)} : "
                f"{_clean(penalty.reason)}"
            )
            if penalty.referee:
                text += f" — arbitre : {_clean(penalty.referee)}"
            lines = _lines(text, FONT, font - 1, label_width, 2)
            row = ["\n".join(lines)] + [_E] * (n_cols - 1)
            if penalty.player in names:
                row[score_cols[names.index(penalty.player)]] = _signed(penalty.amount)
            rows.append(row)
            heights.append(max(6 * mm, len(lines) * (font + 0.6) + 4))
            r = len(rows) - 1
            style += [
                ("SPAN", (0, r), (n_in - 1, r)),
                ("ALIGN", (0, r), (0, r), "LEFT"),
                ("FONT", (0, r), (0, r), FONT, font - 1, font + 0.6),
                ("BACKGROUND", (0, r), (-1, r), PENALTY_BG),
                ("FONT", (n_in, r), (-1, r), BOLD, 9.5),
                ("TEXTCOLOR", (n_in, r), (-1, r), ERROR_RED),
                ("ALIGN", (n_in, r), (-1, r), "CENTER"),
            ]
            style.extend(("SPAN", (c, r), (c + 1, r)) for c in score_cols)
        with_penalties = [
            _signed(t + p) for t, p in zip(totals, sheet.penalty_totals(), strict=True)
        ]
        totals_row("Total après pénalités", with_penalties, 9.5, 6.5 * mm)

    table = Table(rows, colWidths=in_widths + [score_width] * (2 * n), rowHeights=heights)
    table.setStyle(TableStyle(style))
    return table, sum(heights)


def _amendments(sheet: SheetData) -> tuple[Table, float]:
    lines: list[str] = []
    for amendment in sheet.amendments:
        text = (
            f"le {_when(amendment.at)} par {_clean(amendment.by)} — motif : "
            f"{_clean(amendment.reason)}"
        )
        if amendment.summary:
            text += f" — {_clean(amendment.summary)}"
        lines += _lines(text, FONT, 7.5, SHEET_WIDTH - 8, 3)
    if not lines:
        lines = ["(détail des modifications non fourni)"]
    lines = lines[:12]
    heights = [5 * mm, len(lines) * 9.2 + 3]
    table = Table(
        [["MODIFIÉE APRÈS SIGNATURE"], ["\n".join(lines)]],
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
        (f"{_clean(p.seat)} — {_clean(p.name)}", by_player.get(p.name), False)
        for p in sheet.players
    ]
    referee_sig = by_player.get(sheet.referee) if sheet.referee else None
    if referee_sig is None:
        names = {p.name for p in sheet.players}
        referee_sig = next(
            (s for s in sheet.signatures if s.method == "referee" and s.player not in names), None
        )
    referee_label = "Arbitre" + (f" — {_clean(sheet.referee)}" if sheet.referee else "")
    boxes.append((referee_label, referee_sig, True))
    width = SHEET_WIDTH / len(boxes)
    head, body = [], []
    for label, signature, is_referee in boxes:
        head.append(_fit(label, width - 5, BOLD, 7.5))
        if signature is None:
            body.append(_E)
            continue
        lines = [
            f"Signé le {_when(signature.signed_at)}",
            METHODS.get(signature.method, _clean(signature.method)),
        ]
        if is_referee and signature.player != sheet.referee:
            lines.append(_fit(f"par {signature.player}", width - 5, FONT, 7.5))
        body.append("\n".join(lines))
    caption = "Signatures — chacun vérifie son bilan et que la somme des bilans est nulle"
    heights = [5 * mm, 5 * mm, 16 * mm]
    table = Table(
        [[caption] + [_E] * (len(boxes) - 1), head, body],
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
            ]
        )
    )
    return table, sum(heights)


# --- seating plan ------------------------------------------------------------------------------


def _sort_key(name: str) -> tuple[bool, str, str]:
    """French alphabetical order: accents and punctuation ignored ("Élodie" files under E);
    names without a letter last."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if ch.isalnum() or ch == " ").casefold().strip()
    return not plain[:1].isalpha(), plain, name


def _plan_title(plan: SeatingPlan) -> str:
    return f"{plan.tournament} — {_long_date(plan.tournament_date)} — position {plan.round_number}"


def seating_plan_pdf(plan: SeatingPlan) -> bytes:
    """The seating plan of one round, to pin on a wall (landscape A4).

    First by table (large table numbers, players by seat), then every player in alphabetical
    order with table and seat.
    """
    page = landscape(A4)
    buffer = io.BytesIO()
    doc, frame = _document(
        buffer, page, f"Placement — {_plan_title(plan)}", footer=_footer_drawer(page)
    )
    footer = _PageFooter(
        f"{_clean(plan.tournament)} · placement de la position {plan.round_number}"
    )
    s_title = _style("plantitle", fontName=BOLD, fontSize=22, leading=26)
    s_sub = _style("plansub", fontSize=12, leading=15)
    story: list[Flowable] = [
        footer,
        Paragraph(f"Placement — position {plan.round_number}", s_title),
        Paragraph(f"{escape(plan.tournament)} — {escape(_long_date(plan.tournament_date))}", s_sub),
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
        story.append(Paragraph("Aucune table.", s_sub))

    # Alphabetical list.
    entries = sorted(
        ((p, t) for t in plan.tables for p in t.players), key=lambda e: _sort_key(e[0].name)
    )
    story.append(PageBreak())
    story.append(footer)
    story.append(Paragraph(f"Liste alphabétique — position {plan.round_number}", s_title))
    story.append(Spacer(1, 3 * mm))
    if entries:
        story.append(_alphabetical_table(entries, frame._width))
    with _binary_streams():
        doc.build(story, canvasmaker=_FastCanvas)
    return buffer.getvalue()


def _table_block(table: SeatingTable, width: float) -> Table:
    rows = [[f"Table {table.number}", ""]]
    for player in table.players:
        rows.append([_seat_name(player.seat), _fit(player.name, width - 28 * mm - 6, BOLD, 13)])
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
            ]
        )
    )
    return block


def _alphabetical_table(entries: Sequence[tuple[SheetPlayer, SeatingTable]], width: float) -> Table:
    # Two side-by-side lists per page would shuffle the reading order across pages: one list,
    # big enough to read from a metre away.
    widths = [width * 0.42, width * 0.30, width * 0.12, width * 0.16]
    rows = [["Joueur", "Club", "Table", "Place"]]
    for player, table in entries:
        rows.append(
            [
                _fit(player.name, widths[0] - 8, BOLD, 13),
                _fit(player.club, widths[1] - 8, FONT, 11),
                str(table.number),
                _seat_name(player.seat),
            ]
        )
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
    ]
    for r in range(2, len(rows), 2):
        style.append(("BACKGROUND", (0, r), (-1, r), CUMUL_BG))
    result.setStyle(TableStyle(style))
    return result


# --- table cards -------------------------------------------------------------------------------


def table_cards_pdf(plan: SeatingPlan) -> bytes:
    """One card per table, two A5 cards per portrait A4 page (cut along the dashed line).

    Each card: the table number (huge), the round, the players by seat with their personal PIN,
    and a QR code of the table's private entry link with the link printed below it.
    """
    buffer = io.BytesIO()
    page_w, page_h = A4
    canv = _FastCanvas(buffer, pagesize=A4)
    canv.setTitle(_clean(f"Cartes de table — {_plan_title(plan)}"))
    canv.setAuthor("Tarot — gestion de tournois")
    canv.setCreator("Tarot — gestion de tournois")
    card_h = page_h / 2
    if not plan.tables:
        canv.setFont(FONT, 14)
        canv.drawString(20 * mm, page_h - 30 * mm, "Aucune table.")
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
            canv.drawString(4 * mm, bottom + 1.2 * mm, "découper ici")
            canv.restoreState()
    canv.showPage()
    with _binary_streams():
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
    canv.setFont(BOLD, 12)
    canv.drawString(left, top - 4 * mm, _fit(plan.tournament, text_right - left, BOLD, 12))
    canv.setFont(FONT, 9.5)
    canv.setFillColor(GREY)
    canv.drawString(left, top - 9.5 * mm, _long_date(plan.tournament_date))

    # Table number, huge, and the round beside it.
    canv.setFillColor(INK)
    canv.setFont(BOLD, 13)
    canv.drawString(left, top - 18 * mm, "TABLE")
    number = str(table.number)
    size = 104
    while size > 40 and stringWidth(number, BOLD, size) > text_right - left - 45 * mm:
        size -= 4
    baseline = top - 20 * mm - size * 0.76
    canv.setFont(BOLD, size)
    canv.drawString(left - 2, baseline, number)
    round_x = left + stringWidth(number, BOLD, size) + 9 * mm
    canv.setFont(BOLD, 13)
    canv.drawString(round_x, top - 18 * mm, "POSITION")
    canv.setFont(BOLD, 44)
    canv.drawString(round_x, baseline, str(plan.round_number))

    # Players by seat with their personal PIN.
    count = max(len(table.players), 1)
    y_row = baseline - 9 * mm
    row_h = min(12.5 * mm, (y_row - (y + 7 * mm)) / count)
    canv.setFont(BOLD, 7.5)
    canv.setFillColor(GREY)
    canv.drawString(left, y_row + 1.8 * mm, "PLACE")
    canv.drawString(left + 25 * mm, y_row + 1.8 * mm, "JOUEUR")
    canv.drawRightString(text_right, y_row + 1.8 * mm, "CODE PIN PERSONNEL")
    canv.setStrokeColor(INK)
    canv.setLineWidth(0.8)
    canv.line(left, y_row, text_right, y_row)
    canv.setStrokeColor(RULE)
    canv.setLineWidth(0.4)
    pin_width = stringWidth("00000000", MONO_BOLD, 18)
    name_width = text_right - left - 25 * mm - pin_width - 4 * mm
    for player in table.players:
        base = y_row - row_h / 2 - 2.2 * mm
        canv.setFillColor(GREY)
        canv.setFont(FONT, 11)
        canv.drawString(left, base, _seat_name(player.seat))
        canv.setFillColor(INK)
        canv.setFont(BOLD, 15)
        canv.drawString(left + 25 * mm, base, _fit(player.name, name_width, BOLD, 15))
        canv.setFont(MONO_BOLD, 18)
        canv.drawRightString(
            text_right, base - 0.5, _fit(player.pin, pin_width, MONO_BOLD, 18) or "—"
        )
        y_row -= row_h
        canv.line(left, y_row, text_right, y_row)

    # QR code of the table's private entry link, with the link below it.
    if table.sheet_url:
        centre = right - qr_size / 2
        qr_top = top + 1 * mm
        canv.setFillColor(INK)
        canv.setFont(BOLD, 10)
        canv.drawCentredString(centre, qr_top - qr_size - 3.5 * mm, "Saisie des donnes")
        canv.setFont(FONT, 7.5)
        canv.drawCentredString(centre, qr_top - qr_size - 7.5 * mm, "Scannez avec un téléphone")
        _draw_qr(canv, table.sheet_url, right - qr_size, qr_top - qr_size, qr_size)
        canv.setFont(MONO, 6.5)
        canv.setFillColor(GREY)
        line_y = qr_top - qr_size - 12 * mm
        for line in _split_chars(_clean(table.sheet_url), qr_size + 8 * mm, MONO, 6.5)[:4]:
            canv.drawCentredString(centre, line_y, line)
            line_y -= 3 * mm
        canv.setFillColor(INK)
        canv.setFont(ITALIC, 7)
        canv.drawCentredString(
            centre, line_y - 1.5 * mm, "Lien privé de la table : ne pas diffuser"
        )
    canv.restoreState()


def _split_chars(text: str, width: float, font: str, size: float) -> list[str]:
    """Cut a string with no spaces (a URL) into lines that fit ``width``."""
    per_line = max(8, int(width / stringWidth("M", font, size)))
    return [text[i : i + per_line] for i in range(0, len(text), per_line)] or [""]


# --- standings ---------------------------------------------------------------------------------


def standings_pdf(title: str, subtitle: str, headers: list[str], rows: list[list]) -> bytes:
    """A ranking table to pin on the wall; the header row repeats on every page.

    Numbers are right-aligned. Six columns or more switch to landscape A4.
    """
    n_cols = max([len(headers)] + [len(r) for r in rows]) if (headers or rows) else 1
    page = landscape(A4) if n_cols >= 6 else A4
    buffer = io.BytesIO()
    doc, frame = _document(buffer, page, title, footer=_footer_drawer(page))
    s_title = _style("standtitle", fontName=BOLD, fontSize=20, leading=24)
    s_sub = _style("standsub", fontSize=11, leading=14, textColor=GREY)
    story: list[Flowable] = [
        _PageFooter(_clean(f"{title} — {subtitle}" if subtitle else title)),
        Paragraph(escape(title), s_title),
    ]
    if subtitle:
        story.append(Paragraph(escape(subtitle), s_sub))
    story.append(Spacer(1, 4 * mm))

    def shown(value: object) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "oui" if value else "non"
        if isinstance(value, Decimal | float):
            return _number(Decimal(str(value)))
        if isinstance(value, datetime):
            return _when(value)
        if isinstance(value, date):
            return f"{value:%d/%m/%Y}"
        return _clean(value)

    font_size = 11 if n_cols <= 6 else 9.5
    body = [[shown(v) for v in row] + [""] * (n_cols - len(row)) for row in rows]
    head = [_clean(h) for h in headers] + [""] * (n_cols - len(headers))
    numeric = [
        bool(rows)
        and all(
            isinstance(r[c], int | float | Decimal) or r[c] in (None, "")
            for r in rows
            if c < len(r)
        )
        for c in range(n_cols)
    ]
    natural = []
    for c in range(n_cols):
        cells = [head[c]] + [r[c] for r in body]
        natural.append(max(stringWidth(t, BOLD, font_size) for t in cells) + 10)
    available = frame._width
    total = sum(natural)
    if total > available:
        # Shrink the widest (text) columns first; cells are truncated to their column.
        widths = [min(w, available * 0.45) for w in natural]
        scale = available / sum(widths) if sum(widths) > available else 1
        widths = [w * scale for w in widths]
    else:
        extra = (available - total) / n_cols
        widths = [w + extra for w in natural]
    body = [[_fit(t, widths[c] - 8, FONT, font_size) for c, t in enumerate(r)] for r in body]
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
    for c, is_number in enumerate(numeric):
        if is_number:
            style.append(("ALIGN", (c, 0), (c, -1), "RIGHT"))
    for r in range(2, len(body) + 1, 2):
        style.append(("BACKGROUND", (0, r), (-1, r), CUMUL_BG))
    table.setStyle(TableStyle(style))
    story.append(table)
    with _binary_streams():
        doc.build(story, canvasmaker=_FastCanvas)
    return buffer.getvalue()

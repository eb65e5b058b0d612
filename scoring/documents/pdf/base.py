"""The shared base of the PDF documents (reportlab): fonts, colours, text and number formatting,
the QR code, the fast canvas and the page furniture (document template, footer).

- Fonts: the built-in Helvetica (WinAnsi: every French letter, œ Œ € « » …) and, for the "∑" and
  "≠" of the zero-sum check, Bitstream Vera, which ships inside reportlab (no system font needed).
- User text is escaped before it goes into a ``Paragraph`` (a name like ``<Dupont & Cie>`` prints
  as typed); plain strings in ``Table`` cells are drawn literally.

Plain Python: no Django import.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from xml.sax.saxutils import escape as _xml_escape

import segno
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from ..labels import DAYS, MONTHS, SEAT_NAMES, seat_short
from ..language import tr

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


def paragraph_style(name: str, **kw) -> ParagraphStyle:
    base = {"fontName": FONT, "fontSize": 8, "leading": 9.6, "textColor": INK}
    base.update(kw)
    return ParagraphStyle(name, **base)


EMPTY = ()  # an empty table cell: reportlab draws nothing for it (an "" is drawn as empty text)

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


def clean(value: object) -> str:
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
    return _xml_escape(clean(value), {'"': "&quot;", "'": "&#39;"})


def fit(text: str, width: float, font: str = FONT, size: float = 7) -> str:
    """Truncate a plain string with "…" so it fits ``width`` points: only for codes and
    addresses the documents print in full elsewhere, never for a name (see :func:`fit_cell`)."""
    text = clean(text)
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def signed_number(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


def format_number(value: Decimal | int | None) -> str:
    if value is None:
        return ""
    text = format(value.normalize(), "f") if isinstance(value, Decimal) else str(value)
    return text.replace(".", ",")


def long_date(value: date) -> str:
    if isinstance(value, datetime):
        value = value.date()
    return tr(
        "{weekday} {day} {month} {year}",
        weekday=tr(DAYS[value.weekday()]),
        day=value.day,
        month=tr(MONTHS[value.month - 1]),
        year=value.year,
    )


def _local(value: datetime) -> datetime:
    if value.tzinfo is not None and DISPLAY_TZ is not None:
        return value.astimezone(DISPLAY_TZ)
    return value


def when(value: datetime) -> str:
    value = _local(value)
    return tr("{date} à {time}", date=f"{value:%d/%m/%Y}", time=f"{value:%H:%M}")


def seat_name(seat: str) -> str:
    name = SEAT_NAMES.get(seat.strip().upper())
    return tr(name) if name else seat


def seat_label(seat: str) -> str:
    """« N — Nord », « 5e — Cinquième »."""
    return f"{clean(seat_short(seat))} — {seat_name(seat)}"


_AFTER_HYPHEN = re.compile(r"(?<=[^-]-)(?=[^-])")


def _greedy(text: str, font: str, size: float, width: float, hyphens: bool = True) -> list[str]:
    """Greedy line breaking at spaces and, with ``hyphens``, after inner hyphens
    (« Delacroix- / Vandenberghe »).

    Nothing is ever cut: a piece still wider than the line stays whole on a line of its own
    (callers that must stay inside a cell make the type smaller, :func:`fit_cell`)."""
    pieces = [
        (part, " " if i == 0 else "")
        for word in text.split()
        for i, part in enumerate(_AFTER_HYPHEN.split(word) if hyphens else [word])
    ]
    lines: list[str] = []
    for part, glue in pieces:
        candidate = f"{lines[-1]}{glue}{part}" if lines else part
        if lines and stringWidth(candidate, font, size) <= width:
            lines[-1] = candidate
        else:
            lines.append(part)
    return lines or [""]


def _sizes(size: float, smallest: float):
    """The sizes tried for a long text, largest first: half points down to ``smallest``."""
    current = size
    while current > smallest:
        yield current
        current -= 0.5
    yield smallest


def wrap_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """Word-wrap plain text on as many lines as it needs; nothing is cut.

    A compound name breaks after its hyphen; a line is wider than ``width`` only when one
    word alone is (see :func:`wrap_cell` to make the type smaller then)."""
    text = clean(text)
    lines = simpleSplit(text, font, size, width) or [""]
    if any(stringWidth(line, font, size) > width for line in lines):
        lines = _greedy(text, font, size, width)
    return lines


LEADING = 1.1  # line height of a wrapped cell, in font sizes
SMALLEST = 4.0  # the smallest type a long name or club is printed in


def _widest(lines: list[str], font: str, size: float) -> float:
    return max(stringWidth(line, font, size) for line in lines)


def fit_cell(
    text: str, width: float, font: str, size: float, height: float, smallest: float = SMALLEST
) -> tuple[str, float]:
    """A cell's text and font size so that it stays whole inside ``width`` × ``height``
    points: on one line at ``size`` if it fits, else wrapped on as many lines as the height
    holds, the size lowered step by step down to ``smallest``: first breaking at spaces only
    (every word whole), then also after hyphens. Nothing is ever cut: a text that fits nowhere
    at ``smallest`` gets smaller type still."""
    text = clean(text)
    if stringWidth(text, font, size) <= width:
        return text, size
    for hyphens in (False, True):
        for current in _sizes(size, smallest):
            lines = _greedy(text, font, current, width, hyphens)
            rows = max(1, int(height // (current * LEADING)))
            if len(lines) <= rows and _widest(lines, font, current) <= width:
                return "\n".join(lines), current
    current = smallest
    while current > 1:  # pragma: no cover - a cell narrower than any name at 4 points
        current -= 0.25
        lines = _greedy(text, font, current, width)
        if len(lines) * current * LEADING <= height and _widest(lines, font, current) <= width:
            break
    return "\n".join(lines), current


def wrap_cell(
    text: str, width: float, font: str, size: float, smallest: float = SMALLEST
) -> tuple[str, float]:
    """A cell of a table whose rows grow with their text: wrapped at spaces on as many lines
    as it needs at ``size``, made smaller only when one word alone is wider than the cell
    (down to ``smallest``, then broken after a hyphen too). Nothing is cut."""
    text = clean(text)
    for hyphens in (False, True):
        for current in _sizes(size, smallest):
            lines = _greedy(text, font, current, width, hyphens)
            if _widest(lines, font, current) <= width:
                return "\n".join(lines), current
    return fit_cell(text, width, font, smallest, 10_000, 1)


def draw_fitted(
    canv, text: str, x: float, width: float, top: float, height: float, font: str, size: float
) -> None:
    """Draw ``text`` whole inside the box ``width`` × ``height`` whose top-left corner is
    (``x``, ``top``): one line, or wrapped and smaller (:func:`fit_cell`), centred vertically."""
    text, size = fit_cell(text, width, font, size, height)
    lines = text.split("\n")
    leading = size * LEADING
    canv.setFont(font, size)
    base = top - (height - len(lines) * leading) / 2 - size * 0.8
    for line in lines:
        canv.drawString(x, base, line)
        base -= leading


def fit_line(text: str, width: float, font: str, size: float) -> tuple[str, float]:
    """One line of text, whole, in the size that fits ``width`` (never cut)."""
    text = clean(text)
    width_at = stringWidth(text, font, size)
    if width_at <= width or not text:
        return text, size
    return text, max(1.0, int(size * width / width_at * 4) / 4)


def split_chars(text: str, width: float, font: str, size: float) -> list[str]:
    """Cut a string with no spaces (a URL) into lines that fit ``width``."""
    per_line = max(8, int(width / stringWidth("M", font, size)))
    return [text[i : i + per_line] for i in range(0, len(text), per_line)] or [""]


# --- QR code -----------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def qr_path(url: str, fixed_mask: bool) -> tuple[int, str]:
    """The QR code of ``url``: its size in modules and a PDF path of its dark modules.

    The path is in module units (x to the right, y downwards from the top-left module), one
    rectangle per horizontal run of dark modules, written as raw PDF operators: drawing it costs
    one string per code instead of hundreds of canvas calls. ``fixed_mask`` skips segno's mask
    evaluation (much faster, ``bench/figures.md``; every mask gives a valid code): used for
    big bundles.
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


def draw_qr(canv, url: str, x: float, y: float, size: float, fixed_mask: bool = False) -> None:
    """Draw a vector QR code, ``size`` points square, quiet zone of 2 modules included."""
    modules, path = qr_path(url, fixed_mask)
    unit = size / (modules + 4)
    canv.saveState()
    canv.setFillColor(colors.black)
    canv.transform(unit, 0, 0, -unit, x + 2 * unit, y + size - 2 * unit)
    canv.addLiteral(path)
    canv.restoreState()


class PageFooter(Flowable):
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


class FastCanvas(rl_canvas.Canvas):
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
def binary_streams():
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


AUTHOR = "Tarot — gestion de tournois"


def drawn_document(buffer, pagesize, title: str) -> FastCanvas:
    """A canvas for a document drawn by hand (table cards, PIN slips), with its metadata."""
    canv = FastCanvas(buffer, pagesize=pagesize)
    canv.setTitle(clean(title))
    canv.setAuthor(AUTHOR)
    canv.setCreator(AUTHOR)
    return canv


def document(
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
        title=clean(title),
        author=AUTHOR,
        creator=AUTHOR,
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


def footer_drawer(pagesize):
    def draw(canv, doc):
        text = getattr(canv, "_tarot_footer", "")
        canv.saveState()
        text, size = fit_line(text, pagesize[0] - 60 * mm, FONT, 6.5)  # smaller, never cut
        canv.setFont(FONT, size)
        canv.setFillColor(GREY)
        canv.drawString(10 * mm, 6 * mm, text)
        canv.drawRightString(pagesize[0] - 10 * mm, 6 * mm, tr("Page {n}", n=canv.getPageNumber()))
        canv.restoreState()

    return draw

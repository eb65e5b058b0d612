"""Excel workbooks: the score sheets, laid out like the paper sheet, and a ranking.

- Scores, points and oudlers are numbers; running totals, round totals (bilans), the total with
  penalties and the zero-sum check are real Excel formulas, so the workbook recomputes itself.
  No cached value is stored with a formula: :func:`scoring.documents.formulas.evaluate_cell`
  recomputes the formula forms written here (cell references, ranges, ``SUM``, ``+``/``-``,
  ``IF(…=…)``) on a workbook read back with openpyxl, so tests, and anyone who doubts a file,
  can check them against the app's numbers.
- Every user string (names, clubs, reasons, the tournament…) is written as an inline string
  (``t="inlineStr"``, read back with ``data_type == "s"``): a player called ``=1+1`` or
  ``@SUM(A1)`` stays text. :func:`safe_cell_text` is the CSV counterpart (prefix with ``'``).
- Streaming: each worksheet goes into the archive as soon as its score sheet is laid out, through
  the writer of :mod:`scoring.documents.spreadsheet`.

Plain Python: no Django import.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter

from .cells import clean_cell as _clean
from .cells import header_text as _header_text
from .cells import local_naive as _local
from .cells import safe_cell_text
from .cells import unique_title as _unique_title
from .data import SheetData, SheetDeal
from .fingerprint import verification_code as _code_of
from .labels import (
    CAMPS,
    CONTRACTS,
    KINDS,
    METHODS,
    MISDEAL_LINE,
    SEAT_NAMES,
    STATUSES,
    TIME_UP_NO_DEAL,
    UNSIGNED_AT_CLOSE,
    amendment_title,
    given_by,
    played_deals_label,
    seat_short,
)
from .language import tr
from .spreadsheet import Package as _Package
from .spreadsheet import Sheet as _Sheet
from .spreadsheet import Styles as _Styles

__all__ = [
    "CONTENT_TYPE",
    "safe_cell_text",
    "score_sheets_workbook",
    "sheet_title",
]

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# --- styles (created once and shared: a cell refers to a registered combination) ---------------

_THIN = Side(style="thin", color="9A9A9A")
_THICK = Side(style="medium", color="1A1A1A")
BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
TOTAL_BORDER = Border(left=_THIN, right=_THIN, top=_THICK, bottom=_THIN)
TITLE = Font(bold=True, size=14)
BOLD = Font(bold=True)
BIG_BOLD = Font(bold=True, size=12)
GREY_TEXT = Font(color="6B6B6B")
ITALIC_GREY = Font(italic=True, color="6B6B6B")
RED_BOLD = Font(bold=True, color="B3261E")
GREEN_BOLD = Font(bold=True, color="1E7B34")
ORANGE_BOLD = Font(bold=True, color="B45309")
MONO = Font(name="Consolas", size=9)
HEAD_FILL = PatternFill("solid", fgColor="E4E8EE")
TOTAL_FILL = PatternFill("solid", fgColor="DDE3EA")
CUMUL_FILL = PatternFill("solid", fgColor="F3F4F6")
REFEREE_FILL = PatternFill("solid", fgColor="FFF4D6")
PASSED_FILL = PatternFill("solid", fgColor="F0F0F0")
PENALTY_FILL = PatternFill("solid", fgColor="FDE8E8")
AMEND_FILL = PatternFill("solid", fgColor="FFF7ED")
CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
WRAP = Alignment(vertical="center", wrap_text=True)
RIGHT = Alignment(horizontal="right", vertical="center")
LEFT = Alignment(horizontal="left", vertical="center")
SCORE_FORMAT = "+0;-0;0"
DATE_FORMAT = "DD/MM/YYYY"
DATETIME_FORMAT = "DD/MM/YYYY HH:MM"


SUM_ERROR = "ERREUR : la somme des bilans n'est pas nulle"  # in a formula: no double quote
# Deal table: fixed input columns A..M, then one score column per player, then one running-total
# column per player.
INPUT_HEADERS = [
    ("N°", 6),
    ("Type", 9),
    ("Donneur", 20),
    ("Mort", 16),
    ("Preneur", 20),
    ("Partenaire", 18),
    ("Contrat", 13),
    ("Bouts", 7),
    ("Points", 8),
    ("Poignées", 24),
    ("Petit au bout", 12),
    ("Chelem", 14),
    ("Décision de l'arbitre", 30),
]
FIRST_SCORE_COL = len(INPUT_HEADERS) + 1  # N


# --- helpers -----------------------------------------------------------------------------------


def _text(
    ws: _Sheet, row: int, col: int, value: Any, font=None, fill=None, align=None, border=None
) -> None:
    """Write user (or any) text: always stored as a string, never as a formula."""
    ws.text(row, col, _clean(value), font, fill, align, border)


def _num(
    ws: _Sheet,
    row: int,
    col: int,
    value,
    font=None,
    fill=None,
    fmt=None,
    border=None,
    align=RIGHT,
) -> None:
    ws.number(row, col, value, font, fill, align, border, fmt)


def _formula(
    ws: _Sheet,
    row: int,
    col: int,
    formula: str,
    font=None,
    fill=None,
    fmt=None,
    border=None,
    align=RIGHT,
) -> None:
    ws.formula(row, col, formula, font, fill, align, border, fmt)  # our own formula text


def _blank(ws: _Sheet, row: int, col: int, fill=None, border=None) -> None:
    ws.blank(row, col, None, fill, None, border)


def sheet_title(data: SheetData) -> str:
    """The worksheet name of a score sheet: "R2 T7" (round 2, table 7)."""
    return f"R{data.round_number} T{data.table_number}"


def _handfuls(deal: SheetDeal) -> str:
    return " ; ".join(
        tr("{size} : {player}", size=tr(h.size), player=h.player) for h in deal.handfuls
    )


def _slam(deal: SheetDeal) -> str:
    if deal.slam == "attack":
        return tr("Attaque, annoncé") if deal.slam_announced else tr("Attaque")
    if deal.slam == "defence":
        return tr("Défense")
    return tr("Annoncé, chuté") if deal.slam_announced else ""


# --- the workbook ------------------------------------------------------------------------------


def score_sheets_workbook(
    sheets: Iterable[SheetData],
    ranking: tuple[list[str], list[list]] | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    final: bool = False,
) -> bytes:
    """One worksheet per score sheet ("R1 T3"), plus an optional ranking worksheet first, named
    « Classement final » when the tournament is ``final`` (finished), else « provisoire ».

    ``ranking`` is ``(headers, rows)``; numbers stay numbers and strings stay text. ``sheets`` may
    be a generator: each worksheet goes into the archive as soon as it is laid out, so memory
    holds one sheet's cells at a time, plus the compressed file. ``progress(n)`` after each sheet.
    """
    styles = _Styles()
    buffer = io.BytesIO()
    with ZipFile(buffer, "w", ZIP_DEFLATED, allowZip64=True) as archive:
        package = _Package(archive, styles)
        taken: set[str] = set()
        if ranking is not None:
            headers, rows = ranking
            title = tr("Classement final") if final else tr("Classement provisoire")
            ws = _Sheet(_unique_title(title, taken), styles)
            _ranking_sheet(ws, headers, rows)
            package.add(ws)
        for number, data in enumerate(sheets, 1):
            ws = _Sheet(_unique_title(sheet_title(data), taken), styles)
            _score_sheet(ws, data)
            package.add(ws)
            if progress is not None:
                progress(number)
        if not package.sheets:
            ws = _Sheet(tr("Feuilles"), styles)
            _text(ws, 1, 1, tr("Aucune feuille de marque."))
            package.add(ws)
        package.finish()
    return buffer.getvalue()


def _ranking_sheet(ws: _Sheet, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    widths: dict[int, int] = {}
    for col, header in enumerate(headers, 1):
        _text(ws, 1, col, header, font=BOLD, fill=HEAD_FILL, border=BORDER)
        widths[col] = max(8, len(_clean(header)) + 2)
    for r, row in enumerate(rows, 2):
        for col, value in enumerate(row, 1):
            if isinstance(value, bool) or value is None:
                shown = "" if value is None else ("oui" if value else "non")
                _text(ws, r, col, shown, border=BORDER)
            elif isinstance(value, int | float | Decimal):
                _num(ws, r, col, value, border=BORDER)
            elif isinstance(value, datetime):
                _num(ws, r, col, _local(value), fmt=DATETIME_FORMAT, border=BORDER)
            elif isinstance(value, date):
                _num(ws, r, col, value, fmt=DATE_FORMAT, border=BORDER)
            else:
                _text(ws, r, col, value, border=BORDER)
            widths[col] = min(45, max(widths.get(col, 8), len(_clean(value)) + 2))
    ws.col_widths.update(widths)
    ws.freeze_rows = 1
    ws.print_title_row = 1
    ws.landscape = len(headers) >= 6  # A4, fit to the page width, narrow margins, centred


class SheetLayout:
    """Where a score sheet's numbers are on its worksheet (1-based rows and columns)."""

    def __init__(self, data: SheetData):
        n = len(data.players)
        self.n = n
        self.players_header = 13
        self.deal_header = self.players_header + n + 2
        self.first_deal = self.deal_header + 1
        if data.paper_totals and not data.blank:
            deal_rows = 0
        elif data.blank:
            deal_rows = data.deals_expected
        else:
            deal_rows = len(data.deals)
        self.last_deal = self.first_deal + deal_rows - 1  # < first_deal when there is none
        self.bilan = self.first_deal + deal_rows
        self.check = self.bilan + 1
        self.first_penalty = self.check + 1
        self.last_penalty = self.first_penalty + len(data.penalties) - 1
        self.with_penalties = self.last_penalty + 1 if data.penalties else None
        # The deals each player played (none on a blank or paper-totals sheet).
        self.played = (self.with_penalties or self.check) + 1 if data.deals_played() else None
        self.score_cols = [FIRST_SCORE_COL + i for i in range(n)]
        self.cumul_cols = [FIRST_SCORE_COL + n + i for i in range(n)]
        self.last_col = FIRST_SCORE_COL + 2 * n - 1


def _score_sheet(ws: _Sheet, data: SheetData) -> None:
    lay = SheetLayout(data)
    last = get_column_letter(lay.last_col)
    code = data.verification_code or _code_of(data.fingerprint)
    names = [p.name for p in data.players]

    # Header block: labels in A, values in C (text spills over the empty cells to the right).
    _text(ws, 1, 1, tr("FEUILLE DE MARQUE"), font=TITLE)
    title = tr("Position {n} — Table {t}", n=data.round_number, t=data.table_number)
    _text(ws, 1, FIRST_SCORE_COL, title, font=TITLE)
    status = tr("Feuille vierge") if data.blank else tr(STATUSES.get(data.status, data.status))
    if data.unsigned_at_close:
        status = tr(UNSIGNED_AT_CLOSE)
    if data.paper_totals and not data.blank:
        status += tr(" — tenue sur papier (bilans reportés)")
    if data.time_up and not data.deals_played_at_table():
        status = tr(TIME_UP_NO_DEAL)
    elif data.time_up:
        status += tr(
            " — temps écoulé ({played})", played=played_deals_label(data.deals_played_at_table())
        )
    if data.unsigned_at_close and data.close_reason:
        status += tr(" — motif de l'arbitre : {reason}", reason=data.close_reason)
    labels: list[tuple[str, Any]] = [
        (tr("Tournoi"), data.tournament),
        (tr("Date"), data.tournament_date),
        (tr("Lieu"), data.place),
        (tr("Position"), data.round_number),
        (tr("Table"), data.table_number),
        (tr("Règlement"), tr(data.rule_set)),
        (tr("Arbitre"), data.referee),
        (tr("État"), status),
        (tr("Empreinte SHA-256"), data.fingerprint or tr("(pas encore signée)")),
        (tr("Code de vérification"), code),
        (tr("Vérification en ligne"), data.verification_url),
    ]
    for offset, (label, value) in enumerate(labels):
        row = 2 + offset
        _text(ws, row, 1, label, font=BOLD)
        if isinstance(value, int) and not isinstance(value, bool):
            _num(ws, row, 3, value, align=LEFT)
        elif isinstance(value, date):
            _num(ws, row, 3, value, fmt=DATE_FORMAT, align=LEFT)
        else:
            mono = label in {tr("Empreinte SHA-256"), tr("Code de vérification")}
            _text(ws, row, 3, value, font=MONO if mono else None)
        if label == tr("Code de vérification") and data.key_fingerprint:
            # Beside the code: the key that sealed the sheet, to compare with the club's.
            _text(ws, row, 6, tr("Clé du sceau"), font=BOLD)
            _text(ws, row, 8, data.key_fingerprint, font=MONO)

    # Players by seat.
    r = lay.players_header
    heads = {1: tr("Place"), 3: tr("Joueur"), 6: tr("Club"), 10: tr("Licence")}
    for col in range(1, 11):
        _text(ws, r, col, heads.get(col, ""), font=BOLD, fill=HEAD_FILL)
    for i, player in enumerate(data.players):
        row = r + 1 + i
        seat = f"{seat_short(player.seat)} — {tr(SEAT_NAMES.get(player.seat, player.seat))}"
        _text(ws, row, 1, seat, font=BOLD)
        _text(ws, row, 3, player.name, font=BOLD)
        _text(ws, row, 6, player.club)
        _text(ws, row, 10, player.licence)

    # Deal table header.
    h = lay.deal_header
    for col, (label, _width) in enumerate(INPUT_HEADERS, 1):
        _text(ws, h, col, tr(label), font=BOLD, fill=HEAD_FILL, align=CENTER, border=BORDER)
    for i, player in enumerate(data.players):
        head = f"{seat_short(player.seat)} — {player.name}"
        _text(
            ws, h, lay.score_cols[i], head, font=BOLD, fill=HEAD_FILL, align=CENTER, border=BORDER
        )
        _text(
            ws,
            h,
            lay.cumul_cols[i],
            tr("Cumul {head}", head=head),
            font=BOLD,
            fill=HEAD_FILL,
            align=CENTER,
            border=BORDER,
        )
    ws.row_heights[h] = 32

    # Deals.
    first, lastd = lay.first_deal, lay.last_deal
    if data.blank:
        for k in range(data.deals_expected):
            row = first + k
            _num(ws, row, 1, k + 1, border=BORDER, align=CENTER)
            for col in range(2, lay.last_col + 1):
                _blank(ws, row, col, border=BORDER)
            ws.row_heights[row] = 24
    elif not data.paper_totals:
        for k, deal in enumerate(data.deals):
            _deal_row(ws, first + k, deal, lay)

    # Round totals (bilan), zero-sum check, penalties.
    b = lay.bilan
    _text(ws, b, 1, tr("Bilan de la position"), font=BIG_BOLD, fill=TOTAL_FILL, border=TOTAL_BORDER)
    for col in range(2, FIRST_SCORE_COL):
        _blank(ws, b, col, fill=TOTAL_FILL, border=TOTAL_BORDER)
    total_style = {
        "font": BIG_BOLD,
        "fill": TOTAL_FILL,
        "fmt": SCORE_FORMAT,
        "border": TOTAL_BORDER,
    }
    for i, col in enumerate(lay.score_cols):
        letter = get_column_letter(col)
        if data.blank:
            _blank(ws, b, col, fill=TOTAL_FILL, border=TOTAL_BORDER)
        elif data.paper_totals:
            _num(ws, b, col, data.paper_totals[i], **total_style)
        elif lastd >= first:
            _formula(ws, b, col, f"=SUM({letter}{first}:{letter}{lastd})", **total_style)
        else:
            _num(ws, b, col, 0, **total_style)
    for col in lay.cumul_cols:
        _blank(ws, b, col, fill=TOTAL_FILL, border=TOTAL_BORDER)

    c = lay.check
    first_score = get_column_letter(lay.score_cols[0])
    last_score = get_column_letter(lay.score_cols[-1])
    _text(ws, c, 1, tr("Contrôle : ∑ des bilans = 0 (pénalités non comprises)"), font=BOLD)
    if data.blank:
        _text(ws, c, lay.score_cols[0], tr("∑ = ________ (doit être 0)"), font=BOLD)
    else:
        _formula(ws, c, lay.score_cols[0], f"=SUM({first_score}{b}:{last_score}{b})", font=BOLD)
        ok = sum(data.round_totals()) == 0
        _formula(
            ws,
            c,
            lay.score_cols[0] + 1,
            f'=IF({first_score}{c}=0,"∑ = 0 ✓","{tr(SUM_ERROR)}")',
            font=GREEN_BOLD if ok else RED_BOLD,
            align=LEFT,
        )

    if data.penalties:
        for k, penalty in enumerate(data.penalties):
            row = lay.first_penalty + k
            _text(ws, row, 1, tr("Pénalité"), font=RED_BOLD, fill=PENALTY_FILL)
            _text(ws, row, 2, "", fill=PENALTY_FILL)
            _text(ws, row, 3, penalty.player, font=BOLD, fill=PENALTY_FILL)
            _text(ws, row, 4, "", fill=PENALTY_FILL)
            _text(ws, row, 5, penalty.reason, fill=PENALTY_FILL)
            _text(ws, row, 10, given_by(penalty.given_by), fill=PENALTY_FILL)
            _text(ws, row, 13, tr("hors contrôle ∑ = 0"), font=ITALIC_GREY, fill=PENALTY_FILL)
            if penalty.player in names:
                col = lay.score_cols[names.index(penalty.player)]
                _num(
                    ws, row, col, penalty.amount, font=RED_BOLD, fill=PENALTY_FILL, fmt=SCORE_FORMAT
                )
        w = lay.with_penalties
        _text(ws, w, 1, tr("Total après pénalités"), font=BOLD, fill=TOTAL_FILL)
        for col in lay.score_cols:
            letter = get_column_letter(col)
            _formula(
                ws,
                w,
                col,
                f"={letter}{b}+SUM({letter}{lay.first_penalty}:{letter}{lay.last_penalty})",
                font=BOLD,
                fill=TOTAL_FILL,
                fmt=SCORE_FORMAT,
                border=BORDER,
            )
    if lay.played:
        _text(ws, lay.played, 1, tr("Donnes jouées"), font=BOLD)
        for col, n in zip(lay.score_cols, data.deals_played(), strict=True):
            _num(ws, lay.played, col, n, font=BOLD, border=BORDER)
    row = (lay.played or lay.with_penalties or lay.check) + 2

    # Amendments.
    if data.amendments or data.status == "amended":
        _text(ws, row, 1, tr(amendment_title(data)), font=ORANGE_BOLD, fill=AMEND_FILL)
        row += 1
        for amendment in data.amendments:
            _num(ws, row, 1, _local(amendment.at), fmt=DATETIME_FORMAT, align=LEFT)
            _text(ws, row, 3, amendment.summary)
            row += 1
        row += 1

    # Signatures.
    _text(ws, row, 1, "Signatures", font=BOLD)
    row += 1
    by_player: dict[str, Any] = {}
    for signature in data.signatures:
        by_player.setdefault(signature.player, signature)
    entries = [(f"{seat_short(p.seat)} — {p.name}", by_player.get(p.name)) for p in data.players]
    referee_label = tr("Arbitre") + (f" — {data.referee}" if data.referee else "")
    entries.append((referee_label, by_player.get(data.referee) if data.referee else None))
    for label, signature in entries:
        _text(ws, row, 1, label, font=BOLD)
        if signature is None:
            _text(ws, row, 6, tr("Signature : ______________________"))
        else:
            _text(ws, row, 6, tr("Signé {how}, le", how=tr(METHODS.get(signature.method, ""))))
            _num(ws, row, 9, _local(signature.signed_at), fmt=DATETIME_FORMAT, align=LEFT)
        row += 1
    last_row = row - 1

    # Widths, header/footer, printing.
    longest: dict[int, int] = {}
    for deal in () if data.blank or data.paper_totals else data.deals:
        for col, value in _deal_texts(deal).items():
            longest[col] = max(longest.get(col, 0), len(value) + 2)
    for col, (_label, width) in enumerate(INPUT_HEADERS, 1):
        ws.col_widths[col] = max(width, min(WIDEST_TEXT, longest.get(col, 0)))
    for col in lay.score_cols + lay.cumul_cols:
        ws.col_widths[col] = 13
    ws.header = [
        ("L", _header_text(f"{data.tournament[:80]} — {data.tournament_date:%d/%m/%Y}")),
        ("R", _header_text(title)),
    ]
    key = tr(" · clé du sceau {key}", key=data.key_fingerprint) if data.key_fingerprint else ""
    fp = data.fingerprint or tr("(non signée)")
    ws.footer = [
        ("L", _header_text(tr("Empreinte SHA-256 : {fp}", fp=fp))),
        ("C", _header_text(tr("Code de vérification : {code}", code=code or "—") + key)),
        ("R", "Page &P / &N"),
    ]
    ws.print_title_row = h
    ws.print_area = f"A1:{last}{last_row}"
    ws.landscape = True  # A4, fit to the page width, narrow margins, centred


WIDEST_TEXT = 40  # a deal's text column grows to its longest value up to this; longer wraps


def _deal_texts(deal: SheetDeal) -> dict[int, str]:
    """The text cells of a deal's row, by column."""
    texts = {
        3: deal.dealer,
        4: deal.sitting_out,
        5: deal.taker,
        6: deal.partner,
        7: CONTRACTS.get(deal.contract, deal.contract),
        10: _handfuls(deal),
        11: tr(CAMPS.get(deal.petit_au_bout, deal.petit_au_bout)),
        12: _slam(deal),
        13: deal.note,
    }
    if deal.kind == "passed":
        texts[5] = tr("Donne passée, redistribuée")
    elif deal.kind == "misdeal":
        texts[5] = tr(MISDEAL_LINE)
    elif deal.kind == "ruling":
        texts[5] = tr("Décision de l'arbitre : scores fixés par l'arbitre")
    texts[2] = tr(KINDS.get(deal.kind, deal.kind))
    return {col: _clean(value) for col, value in texts.items()}


def _deal_row(ws: _Sheet, row: int, deal: SheetDeal, lay: SheetLayout) -> None:
    fill = {"referee": REFEREE_FILL, "ruling": REFEREE_FILL}.get(deal.kind)
    fill = PASSED_FILL if deal.kind in ("passed", "misdeal") else fill
    _num(ws, row, 1, deal.number, fill=fill, border=BORDER, align=CENTER)
    for col, value in _deal_texts(deal).items():
        font = ITALIC_GREY if deal.kind in ("passed", "misdeal") and col == 5 else None
        align = WRAP if len(value) > WIDEST_TEXT else None
        _text(ws, row, col, value, fill=fill, border=BORDER, font=font, align=align)
    if deal.oudlers is not None:
        _num(ws, row, 8, deal.oudlers, fill=fill, border=BORDER, align=CENTER)
    else:
        _blank(ws, row, 8, fill=fill, border=BORDER)
    if deal.points is not None:
        points = deal.points
        value = int(points) if points == points.to_integral_value() else points
        _num(ws, row, 9, value, fill=fill, border=BORDER, align=CENTER)
    else:
        _blank(ws, row, 9, fill=fill, border=BORDER)
    for i, col in enumerate(lay.score_cols):
        if deal.kind not in ("passed", "misdeal") and deal.scores:
            _num(ws, row, col, deal.scores[i], font=BOLD, fmt=SCORE_FORMAT, border=BORDER)
        else:
            _blank(ws, row, col, border=BORDER)
        letter = get_column_letter(col)
        _formula(
            ws,
            row,
            lay.cumul_cols[i],
            f"=SUM({letter}${lay.first_deal}:{letter}{row})",
            font=GREY_TEXT,
            fill=CUMUL_FILL,
            fmt="0",
            border=BORDER,
        )

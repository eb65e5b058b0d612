"""The deal table of a score sheet: one line per deal with its running totals, the round totals
(bilans), the zero-sum check, the penalties and the total after penalties.

Speed matters (a whole tournament is 500 pages): a Table of plain strings with fixed column
widths and row heights, so reportlab measures nothing twice. Plain Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Table, TableStyle

from ..data import SheetData, SheetDeal
from ..labels import CAMPS, CONTRACTS, HANDFULS, MISDEAL_LINE, given_by, seat_short
from ..language import english, tr
from .base import (
    BOLD,
    CUMUL_BG,
    EMPTY,
    ERROR_RED,
    FONT,
    GREY,
    HEAD_BG,
    INK,
    ITALIC,
    LEADING,
    OK_GREEN,
    PASSED_BG,
    PENALTY_BG,
    REFEREE_BG,
    RULE,
    SYMBOLS_BOLD,
    TOTAL_BG,
    clean,
    fit_cell,
    format_number,
    signed_number,
    wrap_lines,
)

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
# Deals printed with the referee's reason on a line of their own: a deal the referee decided
# (its inputs), and a ruling (its scores typed by the referee).
NOTED = ("referee", "ruling")

PADDING = 4.5  # a cell's left and right padding together (the table style below)
# Columns whose value may not fit its width at the sheet's font: wrapped, then made smaller
# (never cut).
_NAMES = ("dealer", "dead", "taker", "partner")
_FITTED = (*_NAMES, "contract", "handfuls", "petit", "slam")

_FLEX_WEIGHTS = {"dealer": 1.0, "dead": 1.0, "taker": 1.05, "partner": 1.05, "handfuls": 1.3}


def _columns(
    width: float, n_players: int, show_dead: bool, show_partner: bool
) -> tuple[list[tuple[str, str]], list[float], float]:
    hidden = set()
    if not show_dead:
        hidden.add("dead")
    if not show_partner:
        hidden.add("partner")
    keys = [(k, tr(h), w) for k, h, w in _INPUT_COLUMNS if k not in hidden]
    score_width = {1: 17, 2: 17, 3: 17, 4: 13.5}.get(n_players, 12) * mm
    fixed = sum(w * mm for _, _, w in keys if w is not None)
    free = width - fixed - 2 * n_players * score_width
    total = sum(_FLEX_WEIGHTS[k] for k, _, w in keys if w is None)
    widths = [w * mm if w is not None else free * _FLEX_WEIGHTS[k] / total for k, _, w in keys]
    return [(k, h) for k, h, _ in keys], widths, score_width


_PARTICLES = frozenset({"de", "d'", "d’", "du", "des", "la", "le", "les", "van", "von", "der"})


def short_name(name: str, first_name: str = "", last_name: str = "") -> str:
    """« Léa M. »: the first name and the last name's initial, particles skipped
    (« Jean-Christophe-Édouard de La Tour-Montaigne » → « Jean-Christophe-Édouard T. »)."""
    parts = clean(name).split()
    first = clean(first_name) or (parts[0] if parts else "")
    last = clean(last_name).split() if last_name else parts[1:]
    if not first or not last:
        return clean(name)
    kept = [w for w in last if w.casefold() not in _PARTICLES] or last
    return f"{first} {kept[0][0]}."


def _handful_text(deal: SheetDeal, who) -> str:
    separator = " : " if not english() else ": "
    return " ; ".join(
        f"{tr(HANDFULS.get(h.size, h.size))}{separator}{who(h.player)}" for h in deal.handfuls
    )


def _slam_text(deal: SheetDeal) -> str:
    if deal.slam == "attack":
        return tr("Attaque, annoncé") if deal.slam_announced else tr("Attaque")
    if deal.slam == "defence":
        return tr("Défense")
    if deal.slam_announced:
        return tr("Annoncé, chuté")
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
    notes = sum(1 for d in sheet.deals if d.kind in NOTED) if not sheet.blank else 0
    others = 12 * mm + notes * 5 * mm + 16 * mm
    if sheet.penalties:
        others += (len(sheet.penalties) + 1) * 6.5 * mm
    height = (available - others) / max(rows, 1)
    height = max(4.4 * mm, min(top, height))
    font = 9 if height >= 7 * mm else 8.5 if height >= 6 * mm else 7.6 if height >= 5 * mm else 7
    return height, font


def deal_table(sheet: SheetData, width: float, available: float) -> tuple[Table, float]:
    """The deal table of ``sheet``, ``width`` points wide, its lines sized to fill ``available``
    points of height; returns the table and its height."""
    players = sheet.players
    n = len(players)
    five = n >= 5
    show_dead = five and (sheet.blank or any(d.sitting_out for d in sheet.deals))
    show_partner = five and (sheet.blank or any(d.partner for d in sheet.deals))
    columns, in_widths, score_width = _columns(width, n, show_dead, show_partner)
    keys = [k for k, _ in columns]
    n_in = len(columns)
    n_cols = n_in + 2 * n
    row_h, font = _row_sizing(sheet, available)
    name_font = font - 0.6
    score_cols = [n_in + 2 * i for i in range(n)]
    cumul_cols = [c + 1 for c in score_cols]
    width_of = dict(zip(keys, in_widths, strict=True))
    seat_of = {p.name: clean(seat_short(p.seat)) for p in players}
    short_of = {p.name: short_name(p.name, p.first_name, p.last_name) for p in players}

    def who(name: str, key: str | None = None) -> str:
        """A player in a deal's cell: their seat and name in full when it fits the column,
        else their seat and a short name (« N Léa M. »); the players' block above the deal
        table, its legend, gives every name in full."""
        if not name:
            return ""
        seat = seat_of.get(name)
        full = f"{seat} {clean(name)}" if seat else clean(name)
        if key is not None and stringWidth(full, FONT, name_font) <= width_of[key] - PADDING:
            return full
        return f"{seat} {short_of[name]}" if seat else full

    def handfuls_of(deal: SheetDeal) -> str:
        """Who showed a handful: by their full name when the line fits, else short."""
        whole = _handful_text(deal, clean)
        fitted = fit_cell(whole, width_of["handfuls"] - PADDING, FONT, font, row_h - 1)[1]
        return whole if fitted >= font - 2 else _handful_text(deal, who)

    player_heads: list[str] = []
    head_fonts: list[tuple] = []
    for i, player in enumerate(players):
        label = f"{clean(seat_short(player.seat))} — {clean(player.name)}"
        text, size = fit_cell(label, 2 * score_width - PADDING, BOLD, 7, 8 * mm - 2)
        player_heads += [text, EMPTY]
        if size != 7:
            c = n_in + 2 * i
            head_fonts.append(("FONT", (c, 0), (c, 0), BOLD, size, size * LEADING))
    rows: list[list] = [
        [h for _, h in columns] + player_heads,
        [EMPTY] * n_in + [tr("Donne"), tr("Cumul")] * n,
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
    style += head_fonts
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
        rows.append([text] + [EMPTY] * (n_cols - 1))
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
            tr(
                "Feuille tenue sur papier : les donnes ne sont pas reportées ici, seuls les bilans "
                "saisis par l'arbitre le sont."
            ),
            ITALIC,
            font - 0.5,
            1,
        )
    elif sheet.blank:
        for number in range(1, sheet.deals_expected + 1):
            rows.append([str(number)] + [EMPTY] * (n_cols - 1))
            heights.append(row_h)
    else:
        taker_col = keys.index("taker")
        for deal, cumul in zip(sheet.deals, sheet.running_totals(), strict=True):
            r = len(rows)
            values = {
                "no": f"{deal.number}*" if deal.kind in NOTED else str(deal.number),
                "dealer": who(deal.dealer, "dealer"),
                "dead": who(deal.sitting_out, "dead") if show_dead else "",
                "taker": who(deal.taker, "taker"),
                "partner": (
                    (who(deal.partner, "partner") or (tr("seul") if not deal.sitting_out else ""))
                    if show_partner
                    else ""
                ),
                "contract": tr(CONTRACTS.get(deal.contract, clean(deal.contract))),
                "oudlers": "" if deal.oudlers is None else str(deal.oudlers),
                "points": format_number(deal.points),
                "handfuls": handfuls_of(deal),
                "petit": tr(CAMPS.get(deal.petit_au_bout, clean(deal.petit_au_bout))),
                "slam": _slam_text(deal),
            }
            for key in _FITTED:
                if key not in keys or not values[key]:
                    continue
                size = name_font if key in _NAMES else font
                text, fitted = fit_cell(values[key], width_of[key] - PADDING, FONT, size, row_h - 1)
                if fitted != size or "\n" in text:
                    values[key] = text
                    c = keys.index(key)
                    style.append(("FONT", (c, r), (c, r), FONT, fitted, fitted * LEADING))
            row = [values[k] or EMPTY for k in keys] + [EMPTY] * (2 * n)
            if deal.kind in ("passed", "misdeal"):
                row[taker_col] = tr(
                    MISDEAL_LINE
                    if deal.kind == "misdeal"
                    else "Donne passée : redistribuée, sans score"
                )
                for c in range(taker_col + 1, n_in):
                    row[c] = EMPTY
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
                if deal.kind == "ruling":
                    # No contract: the referee ruled the scores directly.
                    row[taker_col] = tr("Décision de l'arbitre : scores fixés par l'arbitre")
                    for c in range(taker_col + 1, n_in):
                        row[c] = EMPTY
                    style += [
                        ("SPAN", (taker_col, r), (n_in - 1, r)),
                        ("FONT", (taker_col, r), (taker_col, r), ITALIC, font),
                    ]
                scores = deal.scores or (0,) * n
                for i, player in enumerate(players):
                    c = score_cols[i]
                    if deal.sitting_out and player.name == deal.sitting_out:
                        row[c] = tr("mort")
                        style += [
                            ("TEXTCOLOR", (c, r), (c, r), GREY),
                            ("FONT", (c, r), (c, r), ITALIC, font - 0.5),
                        ]
                    else:
                        row[c] = signed_number(scores[i])
                    row[cumul_cols[i]] = str(cumul[i])
                if deal.kind in NOTED:
                    style.append(("BACKGROUND", (0, r), (n_in - 1, r), REFEREE_BG))
            rows.append(row)
            heights.append(row_h)
            if deal.kind in NOTED:
                size = font - 1
                note = clean(deal.note) or tr("(motif non précisé)")
                what = tr(
                    "décidée par l'arbitre" if deal.kind == "referee" else "décision de l'arbitre"
                )
                lines = wrap_lines(
                    tr("* Donne {n} {what} — motif : {note}", n=deal.number, what=what, note=note),
                    ITALIC,
                    size,
                    width - 6,
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
        row = [label] + [EMPTY] * (n_cols - 1)
        for c, value in zip(score_cols, values, strict=True):
            row[c] = value or EMPTY
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
    shown = [EMPTY] * n if sheet.blank else [signed_number(t) for t in totals]
    r = totals_row(
        tr("Bilan de la position (total des donnes)"),
        shown,
        10.5,
        9 * mm if sheet.blank else 7 * mm,
    )
    style.append(("LINEABOVE", (0, r), (-1, r), 1.3, INK))

    # The zero-sum check: a vector mark, then the text in Vera (for ∑ and ≠).
    rows.append([EMPTY] * n_cols)
    heights.append(6.5 * mm)
    r = len(rows) - 1
    style += [
        ("SPAN", (1, r), (-1, r)),
        ("ALIGN", (0, r), (-1, r), "LEFT"),
        ("LINEAFTER", (0, r), (0, r), 0, colors.white),
    ]
    if sheet.blank:
        rows[r][1] = tr("Contrôle : ∑ des bilans = ____________ (doit être égale à 0)")
        style.append(("FONT", (1, r), (1, r), SYMBOLS_BOLD, 9))
    else:
        total = sum(totals)
        rows[r][0] = _Mark(total == 0)
        if total == 0:
            rows[r][1] = tr(
                "Contrôle : ∑ = 0 — correct, la somme des bilans est nulle "
                "(pénalités non comprises)."
            )
        else:
            rows[r][1] = tr(
                "ERREUR : ∑ = {total} ≠ 0 — la somme des bilans doit être nulle. "
                "Vérifiez la feuille avant de la signer.",
                total=signed_number(total),
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
            text = tr(
                "Pénalité (hors contrôle de la somme nulle) — {player} : {reason}",
                player=clean(penalty.player),
                reason=clean(penalty.reason),
            )
            if penalty.given_by:  # by their role, never their login
                text += f" — {given_by(penalty.given_by)}"
            lines = wrap_lines(text, FONT, font - 1, label_width)
            row = ["\n".join(lines)] + [EMPTY] * (n_cols - 1)
            if penalty.player in names:
                row[score_cols[names.index(penalty.player)]] = signed_number(penalty.amount)
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
            signed_number(t + p) for t, p in zip(totals, sheet.penalty_totals(), strict=True)
        ]
        totals_row(tr("Total après pénalités"), with_penalties, 9.5, 6.5 * mm)

    played = sheet.deals_played()
    if played:
        totals_row(tr("Donnes jouées"), [str(n) for n in played], 9, 6 * mm)

    table = Table(rows, colWidths=in_widths + [score_width] * (2 * n), rowHeights=heights)
    table.setStyle(TableStyle(style))
    return table, sum(heights)

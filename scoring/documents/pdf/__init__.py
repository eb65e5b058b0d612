"""The PDF documents, one module each, over a shared base (:mod:`.base`): score sheets, the
seating plan, table cards, PIN slips and standings. Plain Python (reportlab, segno); imports no
Django.

Every document takes the plain data of :mod:`scoring.documents.data` (or rows) and returns bytes;
the entry points are importable from here.
"""

from .base import escape
from .pin_slips import pin_slips_pdf
from .score_sheet import score_sheet_pdf
from .seating_plan import seating_plan_pdf
from .standings import standings_pdf
from .table_cards import table_cards_pdf

__all__ = [
    "escape",
    "pin_slips_pdf",
    "score_sheet_pdf",
    "seating_plan_pdf",
    "standings_pdf",
    "table_cards_pdf",
]

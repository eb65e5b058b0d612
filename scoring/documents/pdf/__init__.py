"""The PDF documents, one module each, over a shared base (:mod:`.base`): score sheets, the
seating plan, table cards and standings. Plain Python (reportlab, segno); imports no Django.

Every document takes the plain data of :mod:`scoring.documents.data` (or rows) and returns bytes;
the entry points are importable from here.
"""

from .base import escape
from .score_sheet import score_sheet_pdf
from .seating_plan import seating_plan_pdf
from .standings import standings_pdf
from .table_cards import table_cards_pdf

__all__ = [
    "escape",
    "score_sheet_pdf",
    "seating_plan_pdf",
    "standings_pdf",
    "table_cards_pdf",
]

"""The services of a score sheet, one module per subject.

Each service runs in one short transaction: lock (the sheet's round, then the sheet row on
PostgreSQL; SQLite serialises writers with BEGIN IMMEDIATE), check, write, log a
:class:`~scoring.models.SheetEvent`, update the sheet status. Scores are always derived from
the stored inputs by the engine (:func:`scoring.scores.deal_scores`).

- :mod:`~scoring.services.sheets`: what the others share (who acts, the lock, the log, the
  status, the score rows);
- :mod:`~scoring.services.deals`: entering and correcting deals, removing the last one;
- :mod:`~scoring.services.paper`: a paper sheet's round totals, penalties;
- :mod:`~scoring.services.signing`: signatures and the seal;
- :mod:`~scoring.services.rounds`: the round's close check, calling time.

The public names are named here too, so that ``services.deal_record(...)`` reads as it always
did.
"""

from scoring.services.deals import (
    DealConflict,
    DealSlot,
    InvalidDealInput,
    SheetSeen,
    deal_delete_last,
    deal_record,
    deal_slot,
    next_deal_number,
)
from scoring.services.paper import paper_totals_record, penalty_add
from scoring.services.rounds import lock_round_sheets, round_call_time, round_close_check
from scoring.services.sheets import (
    SEAT_RESULT_FIELDS,
    Actor,
    seat_results_store,
    sheet_seats,
    write_paper_score_rows,
    write_score_rows,
)
from scoring.services.signing import (
    PIN_ATTEMPTS_ALLOWED,
    PIN_LOCKOUT,
    sheet_sign_on_paper,
    sheet_sign_with_pin,
)

__all__ = [
    "PIN_ATTEMPTS_ALLOWED",
    "PIN_LOCKOUT",
    "SEAT_RESULT_FIELDS",
    "Actor",
    "DealConflict",
    "DealSlot",
    "InvalidDealInput",
    "SheetSeen",
    "deal_delete_last",
    "deal_record",
    "deal_slot",
    "lock_round_sheets",
    "next_deal_number",
    "paper_totals_record",
    "penalty_add",
    "round_call_time",
    "round_close_check",
    "seat_results_store",
    "sheet_seats",
    "sheet_sign_on_paper",
    "sheet_sign_with_pin",
    "write_paper_score_rows",
    "write_score_rows",
]

"""Whether North's phone may still enter deals on a sheet, and why not, in one word.

The table page keeps this word in its configuration and asks for it again every few seconds
(``static/js/table-queue.js``): when the referee calls time, closes the round, or the players
start signing while the page is open, the word changes and the page shows the new state by
itself (the form gone, the true sentence in its place) instead of accepting a deal the server
will refuse. A deal sent all the same (typed just before, or waiting in the queue while the
Wi-Fi was down) is refused with the service's sentence, which says the same thing.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from scoring.models import ScoreSheet
from scoring.selectors import SheetState
from tournaments.models import Round

OPEN = "open"  # deals can be entered (or corrected)
COMPLETE = "complete"  # every deal is entered; corrections only, until someone signs
TIME = "time"  # a timed round: time was called before this table played all its deals
SIGNING = "signing"  # a player has signed: North's phone changes nothing any more
SIGNED = "signed"  # every player signed (or the referee recorded the paper signatures)
CLOSED = "closed"  # the round is closed: read-only for everyone

#: The states in which North's phone still offers a form.
WITH_FORM = (OPEN, COMPLETE, TIME)


def time_up_message(played: int) -> str:
    """« Temps écoulé : cette table s'arrête après 2 donnes. » (the page says the same);
    « Temps écoulé : aucune donne jouée » before the table's first deal."""
    if not played:
        return gettext("Time called: no deal played")
    return ngettext(
        "Time was called: this table stops after %(n)s deal.",
        "Time was called: this table stops after %(n)s deals.",
        played,
    ) % {"n": played}


def entry_state(state: SheetState, *, next_number: int | None) -> str:
    """The sheet as North's phone sees it (``next_number``: the next deal to enter, if any)."""
    sheet = state.sheet
    if state.table.round.status == Round.Status.CLOSED:
        return CLOSED
    if sheet.status == ScoreSheet.Status.SIGNED:
        return SIGNED
    if sheet.status == ScoreSheet.Status.AMENDED or (
        sheet.status == ScoreSheet.Status.COMPLETE and state.current_signatures
    ):
        return SIGNING
    if state.time_up:
        return TIME
    if next_number is None:
        return COMPLETE
    return OPEN

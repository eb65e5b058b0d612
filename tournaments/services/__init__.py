"""The work of running a tournament day, in short transactions, one module per subject.

Every public function of these modules is a service: keyword-only arguments, validation before
any write, one ``transaction.atomic`` block, and a :class:`ServiceError` with a translated
message when the user asked for something impossible — in which case nothing was written.
The reads are :mod:`tournaments.selectors`; the seating's messages :mod:`tournaments.messages`;
what a player's row may hold :mod:`tournaments.rows`.

- :mod:`~tournaments.services.tournaments`: the tournament and its staff, :func:`tournament_touch`;
- :mod:`~tournaments.services.players`: register, check in, correct, remove, merge;
- :mod:`~tournaments.services.player_import`: a whole file of players, previewed then imported;
- :mod:`~tournaments.services.rounds`: seat, seat again, swap, lock, close, reopen;
- :mod:`~tournaments.services.clubs`: clubs and their seasons;
- :mod:`~tournaments.services.seat_requests`: players asking for a seat from the club's page;
- :mod:`~tournaments.services.ending`: « Terminer le tournoi » and reopening it;
- :mod:`~tournaments.services.checkin`: « tous présents » and its undo.

The services are named here too, so that ``services.round_close(...)`` reads as it always did.
"""

from tournaments.rows import PlayerRow, check_length, row_problems, text_problems
from tournaments.services.player_import import (
    ImportPreview,
    ImportRow,
    players_import,
    players_import_preview,
)
from tournaments.services.players import (
    player_register,
    registration_correct,
    registration_merge,
    registration_remove,
    registration_set_status,
    team_register,
)
from tournaments.services.rounds import (
    lock_round,
    round_close,
    round_regenerate,
    round_reopen,
    round_seat_next,
    seats_swap,
    share_round,
)
from tournaments.services.tournaments import (
    LOCKED_ONCE_SEATED,
    referee_add,
    tournament_create,
    tournament_delete,
    tournament_touch,
    tournament_update,
)

__all__ = [
    "LOCKED_ONCE_SEATED",
    "ImportPreview",
    "ImportRow",
    "PlayerRow",
    "check_length",
    "lock_round",
    "player_register",
    "players_import",
    "players_import_preview",
    "referee_add",
    "registration_correct",
    "registration_merge",
    "registration_remove",
    "registration_set_status",
    "round_close",
    "round_regenerate",
    "round_reopen",
    "round_seat_next",
    "row_problems",
    "seats_swap",
    "share_round",
    "team_register",
    "text_problems",
    "tournament_create",
    "tournament_delete",
    "tournament_touch",
    "tournament_update",
]

"""The seating's messages for the user: why a round cannot be seated, and the sentence saying
how many repeated meetings a round has and how many no seating could avoid. Translated here,
from the codes and numbers the pure seating gives.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_club.errors import ServiceError
from tournaments import seating
from tournaments.models import (
    Team,
)
from tournaments.seating import bounds

SEATING_MESSAGES = {
    "too_few_players": lambda p: (
        _("At least 3 present players are needed to seat a round; there are %(n)d.")
        % {"n": p.get("n", 0)}
    ),
    "team_too_large": lambda p: (
        _(
            "Team “%(team)s” has %(members)d players present but there are only %(tables)d "
            "tables: two team-mates would have to share a table."
        )
        % {
            "team": p.get("team_name", "?"),
            "members": p.get("members", 0),
            "tables": p.get("tables", 0),
        }
    ),
    "teams_unseatable": lambda p: (
        _(
            "With these teams and %(tables)s, team-mates cannot all be kept apart. Check in more "
            "players or withdraw one from a large team."
        )
        % {"tables": _("tables of sizes %(sizes)s") % {"sizes": p.get("sizes", "?")}}
    ),
    "bad_order": lambda p: _("The seating order must list every present player exactly once."),
}


def seating_error(error: seating.SeatingError) -> ServiceError:
    params = dict(error.params)
    if "team" in params:
        team = Team.objects.filter(pk=params["team"]).first()
        params["team_name"] = team.name if team else params["team"]
    message = SEATING_MESSAGES.get(error.code)
    return ServiceError(message(params) if message else error.reason)


def repeats_sentence(explained: bounds.RepeatExplanation, seats_changed: int = 0) -> str:
    """« 18 joueurs, 2e position : 2 rencontres répétées inévitables avec des tables de 5 »;
    after swaps by hand (``seats_changed``), that the seats are not all the seating's."""
    if not explained.repeats:
        return ""
    values = {
        "players": explained.players,
        "number": explained.round_number,
        "count": explained.repeats,
        "unavoidable": explained.unavoidable,
        "size": explained.table_size,
    }
    if seats_changed and explained.unavoidable and not explained.all_unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d, with seats changed "
                "by hand since the draw.",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d, with seats changed "
                "by hand since the draw.",
                explained.unavoidable,
            )
            % values
        )
    if seats_changed and not explained.all_unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meeting, with seats "
                "changed by hand since the draw.",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, with seats "
                "changed by hand since the draw.",
                explained.repeats,
            )
            % values
        )
    if explained.all_unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meeting, "
                "unavoidable with tables of %(size)d.",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "unavoidable with tables of %(size)d.",
                explained.repeats,
            )
            % values
        )
    if explained.unavoidable:
        return (
            ngettext(
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d; the others are "
                "not proved unavoidable (the seating also weighs the rounds still to play, and "
                "the organiser's priority).",
                "%(players)d players, round %(number)d: %(count)d repeated meetings, "
                "%(unavoidable)d of them unavoidable with tables of %(size)d; the others are "
                "not proved unavoidable (the seating also weighs the rounds still to play, and "
                "the organiser's priority).",
                explained.unavoidable,
            )
            % values
        )
    return (
        ngettext(
            "%(players)d players, round %(number)d: %(count)d repeated meeting, not proved "
            "unavoidable (the seating also weighs the rounds still to play, and the "
            "organiser's priority).",
            "%(players)d players, round %(number)d: %(count)d repeated meetings, none proved "
            "unavoidable (the seating also weighs the rounds still to play, and the "
            "organiser's priority).",
            explained.repeats,
        )
        % values
    )

"""Seating a round in the tournament's halls: reads the halls and each player's last hall, and
numbers the tables through the pure rule (:mod:`tournaments.seating.halls`). Without halls, the
round is seated as always, its tables numbered from 1. Writes nothing: the round's service
(:mod:`tournaments.services.rounds`) creates the tables."""

from __future__ import annotations

from typing import Any

from tournaments import seating
from tournaments.halls.messages import hall_error
from tournaments.halls.selectors import halls_of, keeps_players, previous_halls
from tournaments.models import Tournament
from tournaments.seating import halls as rule


def numbered_tables(
    tournament: Tournament, number: int, players: list[int], **seat_kwargs: Any
) -> list[tuple[int, tuple[int, ...]]]:
    """The round's tables as (table number, players by seat). Raises ``SeatingError`` (the
    caller says it) or ``ServiceError`` (a hall's refusal, already said)."""
    halls = [h.rule for h in halls_of(tournament)]
    if not halls:
        seated = seating.seat_round(players, **seat_kwargs)
        return list(enumerate(seated.tables, start=1))
    keep = number > 1 and keeps_players(tournament)
    previous = previous_halls(tournament, before=number, halls=halls) if keep else None
    odd = seat_kwargs.pop("odd", seating.ODD_FIVE)
    try:
        tables = rule.seat_in_halls(
            players, halls, keep=keep, previous=previous, odd=odd, **seat_kwargs
        )
    except rule.HallError as error:
        raise hall_error(error) from None
    return [(t.number, t.players) for t in tables]

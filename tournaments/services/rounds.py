"""Services for a round's life: seat the next round, seat it again, swap seats, lock, close,
reopen. The seating itself is the pure :mod:`tournaments.seating`; its messages are
:mod:`tournaments.messages`; the reads (history, quality, warnings) are
:mod:`tournaments.selectors`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments import limits, seating
from tournaments.halls.placing import numbered_tables
from tournaments.halls.selectors import hall_change_warnings
from tournaments.messages import seating_error
from tournaments.models import (
    Registration,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.rows import check_length
from tournaments.selectors import (
    next_round_check,
    present_registrations,
    seating_history,
    swap_warnings,
    teams_of,
)
from tournaments.services.tournaments import tournament_touch
from tournaments.signals import round_closing, round_seated

Progress = Callable[[int, int], None]  # (done, total) of a seating's search


def round_seat_next(
    *,
    tournament: Tournament,
    seed: int | None = None,
    order: list[int] | None = None,
    progress: Progress | None = None,
) -> Round:
    """Seat the next round with the present players (round 1: random from a seed, or in order).
    ``progress(done, total)`` is told how far the search is (``seating.seat_round``)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        next_round_check(tournament)
        number = tournament.round_set.count() + 1
        if order is not None and number > 1:
            raise ServiceError(
                _("Only round 1 can be seated in the order of the list; later rounds are drawn.")
            )
        if seed is None:
            seed = tournament.seed if number == 1 else random.SystemRandom().randrange(1, 10**6)
        return _seat(tournament, number, seed, order, progress=progress)


def _seat(
    tournament: Tournament,
    number: int,
    seed: int,
    order: list[int] | None,
    variant: int = 0,
    progress: Progress | None = None,
) -> Round:
    players = present_registrations(tournament)
    history = seating_history(tournament, before=number)
    try:
        numbered = numbered_tables(
            tournament,
            number,
            players,
            teams=teams_of(tournament),
            history=history,
            seed=seed,
            rounds_left=max(1, tournament.rounds - number + 1),
            order=order,
            # Seating again asks for a different plan, not just other seat numbers.
            variant=variant,
            odd=tournament.odd_tables,
            priority=tournament.seating_priority,
            progress=progress,
        )
    except seating.SeatingError as error:
        raise seating_error(error) from None
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
    tables = Table.objects.bulk_create([Table(round=round_, number=n) for n, _players in numbered])
    Seat.objects.bulk_create(
        [
            Seat(table=table, round=round_, registration_id=reg_id, position=position)
            for table, (_n, players_at) in zip(tables, numbered, strict=True)
            for position, reg_id in enumerate(players_at)
        ]
    )
    round_seated.send(sender=Round, round_=round_, tables=tables)
    tournament_touch(tournament_id=tournament.pk)
    return round_


def _round_started(round_: Round) -> bool:
    """A round has started once anything was recorded on one of its sheets (a deal, a penalty,
    paper totals, a signature): the scoring services then mark it playing. Its seating is then
    fixed."""
    return round_.status != Round.Status.SEATED


def round_regenerate(
    *, round_: Round, seed: int | None = None, progress: Progress | None = None
) -> Round:
    """Seat the last round again, with a new plan (from ``seed``, or a random one), while it has
    not started: nothing recorded on any of its sheets yet (a deal, a penalty, paper totals or
    a signature start it, see :func:`_round_started`)."""
    with transaction.atomic():
        round_ = lock_round(round_.pk)  # the round first, as every service of its sheets
        tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        if _round_started(round_):
            raise ServiceError(_("This round has started: it can no longer be seated again."))
        if tournament.round_set.filter(number__gt=round_.number).exists():
            raise ServiceError(_("Only the last round can be seated again."))
        number = round_.number
        round_.tables.all().delete()
        round_.delete()
        new_seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**6)
        try:
            seating.check_feasible(
                present_registrations(tournament), teams_of(tournament), tournament.odd_tables
            )
        except seating.SeatingError as error:
            raise seating_error(error) from None
        return _seat(tournament, number, new_seed, None, variant=new_seed, progress=progress)


def seats_swap(
    *, round_: Round, first: Registration, second: Registration, confirmed: bool = False
) -> list[str]:
    """Swap two players' seats in a round not yet started (or put a present player in a seat).

    Returns the repeated meetings it creates; unless ``confirmed``, such a swap is not made
    (the caller shows the warnings and asks again). Team-mates at one table are refused.
    """
    if first.pk == second.pk:
        raise ServiceError(_("Choose two different players."))
    if first.tournament_id != round_.tournament_id or second.tournament_id != round_.tournament_id:
        raise ServiceError(_("Both players must be registered in this tournament."))
    with transaction.atomic():
        round_ = lock_round(round_.pk)  # the round first, as every service of its sheets
        Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        if _round_started(round_):
            raise ServiceError(_("This round has started: seats can no longer be swapped."))
        warnings = swap_warnings(round_=round_, first=first, second=second)
        if warnings.teammates:
            raise ServiceError(" ".join(warnings.teammates))
        told = [*warnings.repeats, *hall_change_warnings(round_, first.pk, second.pk)]
        if told and not confirmed:
            return told
        seats = {
            s.registration_id: s for s in round_.seats.filter(registration__in=[first, second])
        }
        if first.pk not in seats and second.pk not in seats:
            raise ServiceError(_("Neither player is seated in this round."))
        if first.pk in seats and second.pk in seats:
            a, b = seats[first.pk], seats[second.pk]
            # Swap through a temporary removal to respect the unique (table, position) rule.
            a_table, a_pos, b_table, b_pos = a.table_id, a.position, b.table_id, b.position
            b.delete()
            a.table_id, a.position = b_table, b_pos
            a.save(update_fields=["table", "position"])
            Seat.objects.create(table_id=a_table, round=round_, registration=second, position=a_pos)
        else:
            seated, newcomer = (
                (seats[first.pk], second)
                if first.pk in seats
                else (
                    seats[second.pk],
                    first,
                )
            )
            if newcomer.status != Registration.Status.PRESENT:
                raise ServiceError(_("%(name)s is not checked in.") % {"name": newcomer.full_name})
            seated.registration = newcomer
            try:
                seated.save(update_fields=["registration"])
            except IntegrityError:
                raise ServiceError(_("This player already has a seat.")) from None
        Round.objects.filter(pk=round_.pk).update(seats_changed=F("seats_changed") + 1)
        tournament_touch(tournament_id=round_.tournament.pk)
    return told


def lock_round(round_id: int | None = None, **lookup) -> Round:
    """The round (by id, or by ``lookup`` such as ``tables__sheet=...``), locked until the end
    of the transaction. Raises ``Round.DoesNotExist``.

    The one lock of a round's life, taken first by everything that changes the round or its
    score sheets: the sheet services share it (:func:`share_round`, then the sheet; a round's
    first change takes it alone, as it starts the round), closing and reopening (then the sheets,
    by id), swapping and seating again, and any later action on a round (a referee calling
    time). Taken in that order (round, then its sheets by id, then the tournament's row), no two
    of them wait for each other in a circle, and none sees the round change under it: a deal
    saved while the round closes is either in before the close checks the sheets, or refused.
    ``FOR NO KEY UPDATE`` on PostgreSQL (rows that refer to the round are not blocked); SQLite
    serialises every writer anyway.
    """
    if round_id is not None:
        lookup["pk"] = round_id
    return Round.objects.select_for_update(no_key=True, of=("self",)).get(**lookup)


def share_round(*, round_id: int) -> Round:
    """The round, locked until the end of the transaction against whatever takes
    :func:`lock_round` (closing, reopening, calling time, seating again) but shared with the
    other sheets' services: a deal at one table never waits for a deal at another. For the
    services that change a sheet and not its round (its first change, which starts the round,
    takes :func:`lock_round`). ``FOR SHARE`` on PostgreSQL (Django's ORM only locks for update);
    SQLite serialises every writer anyway. Raises ``Round.DoesNotExist``."""
    queryset = Round.objects.filter(pk=round_id).order_by()  # no join on the tournament
    if connection.vendor != "postgresql":
        return queryset.select_for_update().get()  # no lock there: one writer at a time
    sql, params = queryset.query.sql_with_params()
    found = list(Round.objects.raw(f'{sql} FOR SHARE OF "{Round._meta.db_table}"', params))
    if not found:
        raise Round.DoesNotExist
    return found[0]


def round_close(*, round_: Round, reason: str = "") -> Round:
    """Close a round. The apps built on this one may refuse (:data:`round_closing`): scoring
    does while a sheet is unsigned and no reason is given. Once closed, nothing changes the
    round's sheets until it is reopened (scoring's services refuse)."""
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        if round_.status == Round.Status.CLOSED:
            raise ServiceError(_("This round is already closed."))
        check_length(reason, limits.REASON, "reason")
        round_closing.send(sender=Round, round_=round_, reason=reason)
        round_.status = Round.Status.CLOSED
        round_.closed_at = timezone.now()
        round_.close_reason = reason
        round_.save(update_fields=["status", "closed_at", "close_reason"])
        tournament_touch(tournament_id=round_.tournament.pk)
    return round_


def round_reopen(*, round_: Round) -> Round:
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.CLOSED:
            raise ServiceError(_("This round is not closed."))
        if round_.tournament.finished:
            raise ServiceError(_("The tournament is finished: reopen the tournament first."))
        if round_.tournament.round_set.filter(number__gt=round_.number).exists():
            raise ServiceError(_("A later round is already seated."))
        round_.status = Round.Status.PLAYING
        round_.closed_at = None
        round_.save(update_fields=["status", "closed_at"])
    return round_

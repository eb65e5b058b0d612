"""Online registration for a club's next tournament: a player asks for a seat, the organiser
confirms or refuses.

The tournament offers ``capacity`` seats. Registered players (not withdrawn) take seats; the
pending requests hold the seats left in the order they came, and the requests beyond are the
waiting list: when a request is refused, the next one moves up. Confirming registers the player
(``players.player_register``: not yet present, ready for check-in); a full tournament refuses
a confirmation until a seat is free. A connection may send ``PER_HOUR`` requests an hour (the
client's address through ``tarot_club.network``, kept on the request): enough for a family,
too few to fill a tournament with invented names. The e-mail address is never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments.models import Registration, SeatRequest, Tournament
from tournaments.names import clean_name
from tournaments.rows import PlayerRow, row_problems
from tournaments.services.players import player_register
from tournaments.services.tournaments import tournament_touch

PER_HOUR = 5


@dataclass(frozen=True)
class Queued:
    request: SeatRequest
    waiting: int  # 0: holds a seat; N: N-th on the waiting list


def open_for_requests(tournament: Tournament) -> bool:
    """A tournament takes requests while it offers seats online and has not started."""
    return (
        bool(tournament.capacity) and not tournament.finished and not tournament.round_set.exists()
    )


def seats_taken(tournament: Tournament) -> int:
    return (
        Registration.objects.filter(tournament=tournament)
        .exclude(status=Registration.Status.WITHDRAWN)
        .count()
    )


def queue(tournament: Tournament) -> list[Queued]:
    """The pending requests in the order they came, each holding a seat or waiting."""
    free = max(0, (tournament.capacity or 0) - seats_taken(tournament))
    pending = SeatRequest.objects.filter(tournament=tournament, status=SeatRequest.Status.PENDING)
    return [
        Queued(request, 0 if index < free else index - free + 1)
        for index, request in enumerate(pending.order_by("created_at", "pk"))
    ]


def seats_left(tournament: Tournament) -> int | None:
    """Seats neither registered nor held by a pending request (None: no online seats)."""
    if not tournament.capacity:
        return None
    held = sum(1 for q in queue(tournament) if not q.waiting)
    return max(0, tournament.capacity - seats_taken(tournament) - held)


def _same_person(a_last: str, a_first: str, b_last: str, b_first: str) -> bool:
    return (clean_name(a_last).casefold(), clean_name(a_first).casefold()) == (
        clean_name(b_last).casefold(),
        clean_name(b_first).casefold(),
    )


@transaction.atomic
def request_seat(
    *,
    tournament: Tournament,
    last_name: str,
    first_name: str,
    licence: str = "",
    club: str = "",
    email: str = "",
    client: str,
) -> Queued:
    """Record a request; return its place (a seat held, or its rank on the waiting list)."""
    last_name, first_name, club = clean_name(last_name), clean_name(first_name), clean_name(club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not open_for_requests(tournament):
        raise ServiceError(_("This tournament takes no online registration."))
    values = {"last_name": last_name, "first_name": first_name, "licence": licence, "club": club}
    problems = row_problems(values)
    if not first_name.strip():
        problems.insert(0, ("first_name", _("missing first name")))
    if problems:
        field, message = problems[0]
        raise ServiceError(capfirst(message) + ".", field=field)
    since = timezone.now() - timedelta(hours=1)
    if SeatRequest.objects.filter(client=client, created_at__gte=since).count() >= PER_HOUR:
        raise ServiceError(
            _("Too many requests from this connection: try again in an hour, or ask the club.")
        )
    licence = licence.strip()
    active = SeatRequest.objects.filter(tournament=tournament).exclude(
        status=SeatRequest.Status.REFUSED
    )
    registered = Registration.objects.filter(tournament=tournament).select_related("player")
    for other in active:
        if (licence and other.licence == licence) or _same_person(
            other.last_name, other.first_name, last_name, first_name
        ):
            raise ServiceError(_("This player has already asked for a seat."), field="licence")
    for registration in registered:
        player = registration.player
        if (licence and player.licence == licence) or _same_person(
            player.last_name, player.first_name, last_name, first_name
        ):
            raise ServiceError(_("This player is already registered."), field="licence")
    request = SeatRequest.objects.create(
        tournament=tournament,
        last_name=last_name.strip(),
        first_name=first_name.strip(),
        licence=licence,
        club=club.strip(),
        email=email.strip(),
        client=client,
    )
    tournament_touch(tournament_id=tournament.pk)
    return next(q for q in queue(tournament) if q.request.pk == request.pk)


def _locked(seat_request: SeatRequest) -> tuple[Tournament, SeatRequest]:
    tournament = Tournament.objects.select_for_update().get(pk=seat_request.tournament_id)
    seat_request = SeatRequest.objects.select_for_update().get(pk=seat_request.pk)
    if seat_request.status != SeatRequest.Status.PENDING:
        raise ServiceError(_("This request was already answered."))
    return tournament, seat_request


@transaction.atomic
def request_confirm(*, seat_request: SeatRequest) -> Registration:
    """Register the player (ready for check-in) when a seat is free."""
    tournament, seat_request = _locked(seat_request)
    if tournament.capacity and seats_taken(tournament) >= tournament.capacity:
        raise ServiceError(_("The tournament is full: offer more seats or refuse a request first."))
    registration = player_register(
        tournament=tournament,
        row=PlayerRow(
            last_name=seat_request.last_name,
            first_name=seat_request.first_name,
            club=seat_request.club,
            licence=seat_request.licence,
        ),
    )
    seat_request.status = SeatRequest.Status.CONFIRMED
    seat_request.registration = registration
    seat_request.decided_at = timezone.now()
    seat_request.save()
    return registration


@transaction.atomic
def request_refuse(*, seat_request: SeatRequest) -> SeatRequest:
    tournament, seat_request = _locked(seat_request)
    seat_request.status = SeatRequest.Status.REFUSED
    seat_request.decided_at = timezone.now()
    seat_request.save()
    tournament_touch(tournament_id=tournament.pk)
    return seat_request

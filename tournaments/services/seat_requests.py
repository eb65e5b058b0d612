"""Online registration for a club's next tournament: a player asks for a seat, the organiser
confirms or refuses.

The tournament offers ``capacity`` seats. Registered players (not withdrawn) take seats; the
pending requests hold the seats left in the order they came, and the requests beyond are the
waiting list: when a request is refused, the next one moves up. Confirming registers the player
(``players.player_register``: not yet present, ready for check-in); a full tournament refuses
a confirmation until a seat is free. Requests are confirmed in order: confirming a request of
the waiting list while others hold the seats would move the last of them to the waiting list,
so it is refused with their name unless the organiser says so (``bump``). The waiting list
holds at most max(``WAITING_MIN``, capacity) requests. The requester's private status
link: ``tournaments/seat_request_status.py``.

A connection may send ``PER_HOUR`` requests an hour and ``PER_DAY`` a day (the client's
address through ``tarot_club.network``, kept on the request; an IPv6 address counts as its
/64 network, which one household holds whole): enough for a family, too few to fill a
tournament with invented names. Requests from one connection are counted under a lock (a
PostgreSQL advisory lock per connection; SQLite writers queue on one lock already), so ten
sent at once cannot pass the limit. The e-mail address is shown to the tournament's organiser
only, never on a public page.
"""

from __future__ import annotations

import hashlib
import ipaddress
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_club.errors import ServiceError
from tournaments.models import Registration, SeatRequest, Tournament
from tournaments.names import clean_name
from tournaments.rows import PlayerRow, row_problems
from tournaments.seat_request_status import (
    Queued,
    bumped_by,
    open_for_requests,
    queue,
    seats_taken,
)
from tournaments.services.players import player_register
from tournaments.services.tournaments import tournament_touch

PER_HOUR = 5
PER_DAY = 10
WAITING_MIN = 10  # the waiting list holds max(WAITING_MIN, capacity) requests


def _waiting_cap(tournament: Tournament) -> int:
    return max(WAITING_MIN, tournament.capacity or 0)


def _client_group(address: str) -> str:
    """The throttle's key for an address: IPv4 as it is, IPv6 as its /64 network."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _lock_client(client: str) -> None:
    """Serialise the requests of one connection until the transaction ends (PostgreSQL)."""
    if connection.vendor == "postgresql":
        key = int.from_bytes(hashlib.sha256(client.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


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
    client = _client_group(client)
    _lock_client(client)
    now = timezone.now()
    recent = SeatRequest.objects.filter(client=client, created_at__gte=now - timedelta(hours=24))
    if (
        recent.filter(created_at__gte=now - timedelta(hours=1)).count() >= PER_HOUR
        or recent.count() >= PER_DAY
    ):
        raise ServiceError(
            _("Too many requests from this connection: try again later, or ask the club.")
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
    queued = queue(tournament)
    free = max(0, (tournament.capacity or 0) - seats_taken(tournament))
    if len(queued) - free >= _waiting_cap(tournament):
        raise ServiceError(
            ngettext(
                "The waiting list is full (%(n)d request): ask the club.",
                "The waiting list is full (%(n)d requests): ask the club.",
                _waiting_cap(tournament),
            )
            % {"n": _waiting_cap(tournament)}
        )
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
def request_confirm(*, seat_request: SeatRequest, bump: bool = False) -> Registration:
    """Register the player (ready for check-in) when a seat is free. A request of the waiting
    list confirmed while others hold the seats is refused, naming who would lose a seat,
    unless ``bump``."""
    tournament, seat_request = _locked(seat_request)
    if tournament.capacity and seats_taken(tournament) >= tournament.capacity:
        raise ServiceError(_("The tournament is full: offer more seats or refuse a request first."))
    bumped = bumped_by(seat_request)
    if bumped is not None and not bump:
        raise ServiceError(
            _(
                "%(name)s is on the waiting list: confirming it now would move %(holder)s, who "
                "holds a seat, to the waiting list. Confirm the requests in order, or confirm "
                "it ahead of them."
            )
            % {"name": seat_request.full_name, "holder": bumped.full_name}
        )
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

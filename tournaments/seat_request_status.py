"""What a seat request's people read about it: the requester's private status link (signed
with the secret key, so only the person shown it after asking can open the page), a request's
place in the queue, and whom confirming a waiting request would move to the waiting list (the
organiser's page names them on its button), and the queue itself: the seats taken, held and
left. Reads only (the services, which read the queue from here, are in
``tournaments/services/seat_requests.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from tournaments.models import Registration, SeatRequest, Tournament

STATUS_SALT = "tournaments.seat_requests.status"


def status_token(seat_request: SeatRequest) -> str:
    return signing.dumps(seat_request.pk, salt=STATUS_SALT)


def by_status_token(token: str) -> SeatRequest | None:
    try:
        pk = signing.loads(token, salt=STATUS_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    return SeatRequest.objects.select_related("tournament").filter(pk=pk).first()


def place_of(seat_request: SeatRequest) -> Queued | None:
    """A pending request's place (a seat held, or its rank on the waiting list)."""
    return next(
        (q for q in queue(seat_request.tournament) if q.request.pk == seat_request.pk), None
    )


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


def bumped_by(seat_request: SeatRequest) -> SeatRequest | None:
    """The request holding a seat that confirming ``seat_request`` (on the waiting list) would
    move to the waiting list: the last of the holders; None when it holds a seat itself."""
    queued = queue(seat_request.tournament)
    mine = next((q for q in queued if q.request.pk == seat_request.pk), None)
    if mine is None or not mine.waiting:
        return None
    holders = [q.request for q in queued if not q.waiting]
    return holders[-1] if holders else None

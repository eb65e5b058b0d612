"""What a seat request's people read about it: the requester's private status link (signed
with the secret key, so only the person shown it after asking can open the page), a request's
place in the queue, and whom confirming a waiting request would move to the waiting list (the
organiser's page names them on its button). Reads only; the services are in
``tournaments/services/seat_requests.py``."""

from __future__ import annotations

from django.core import signing

from tournaments.models import SeatRequest
from tournaments.services.seat_requests import Queued, queue

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


def bumped_by(seat_request: SeatRequest) -> SeatRequest | None:
    """The request holding a seat that confirming ``seat_request`` (on the waiting list) would
    move to the waiting list: the last of the holders; None when it holds a seat itself."""
    queued = queue(seat_request.tournament)
    mine = next((q for q in queued if q.request.pk == seat_request.pk), None)
    if mine is None or not mine.waiting:
        return None
    holders = [q.request for q in queued if not q.waiting]
    return holders[-1] if holders else None

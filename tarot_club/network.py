"""Who is asking: the client's address, behind as many trusted proxies as the settings say.

One helper for every throttle (wrong PINs, django-axes' login lock through
``AXES_CLIENT_IP_CALLABLE``, and any later one): ``client_address(request)``.

``settings.TRUSTED_PROXIES`` (environment ``DJANGO_TRUSTED_PROXIES``, default 0) is the number of
proxies in front of the app that append the address they received to ``X-Forwarded-For`` (a TLS
proxy: 1). With 0, ``REMOTE_ADDR`` is the client and ``X-Forwarded-For`` is ignored, since anyone
can send one. With N, the client is the N-th address from the right of ``X-Forwarded-For``
followed by ``REMOTE_ADDR``: the addresses a client adds itself are on the left, never read.
A leaf: it imports nothing of the apps, which may all use it.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings

UNKNOWN = "unknown"


def client_address(request) -> str:
    """The client's IP address as text (``"unknown"`` when there is no usable one)."""
    chain = [request.META.get("REMOTE_ADDR", "")]
    trusted = max(0, int(getattr(settings, "TRUSTED_PROXIES", 0)))
    if trusted:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        chain = [part.strip() for part in forwarded.split(",") if part.strip()] + chain
        # The proxies' own addresses are the last ``trusted`` ones; the one before is the client.
        # A chain shorter than that came from inside (a proxy talking to the app directly).
        chain = chain[: len(chain) - trusted] or chain[:1]
    return _valid(chain[-1])


def _valid(address: str) -> str:
    try:
        return str(ipaddress.ip_address(address.strip().strip("[]")))
    except ValueError:
        return UNKNOWN

"""Who is asking: the client's address, behind as many trusted proxies as the settings say.

One helper for every throttle (wrong PINs, django-axes' login lock through
``AXES_CLIENT_IP_CALLABLE``, and any later one): ``client_address(request)``.

``settings.TRUSTED_PROXIES`` (environment ``DJANGO_TRUSTED_PROXIES``, default 0) is the number of
proxies in front of the app that append the address they received to ``X-Forwarded-For`` (a TLS
proxy: 1). With 0, ``REMOTE_ADDR`` is the client and ``X-Forwarded-For`` is ignored, since anyone
can send one. With N, the client is the N-th address from the right of ``X-Forwarded-For``
followed by ``REMOTE_ADDR``: the addresses a client adds itself are on the left, never read.

An empty ``REMOTE_ADDR`` is a proxy on a Unix socket (the usual nginx set-up): only a process of
this machine can connect there, so that proxy is trusted even with the setting at 0 and the
client is the last address it appended to ``X-Forwarded-For``. A request whose client has no
usable address at all (a socket proxy that sends none) is answered 503 with what to set
(``ClientAddressMiddleware``): never one shared "unknown" bucket for every throttle, nor an
"unknown" written where the database expects an address (a 500 on PostgreSQL).
A leaf: it imports nothing of the apps, which may all use it.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _

UNKNOWN = "unknown"


def client_address(request) -> str:
    """The client's IP address as text (``"unknown"`` when there is no usable one)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    chain = [remote]
    trusted = max(0, int(getattr(settings, "TRUSTED_PROXIES", 0)))
    if not remote.strip():
        trusted = max(trusted, 1)  # a proxy on a Unix socket: a process of this machine
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


class ClientAddressMiddleware:
    """Refuses (503, saying what to set) a request whose client has no usable address, before
    any throttle counts it under a shared "unknown"."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if client_address(request) == UNKNOWN:
            return HttpResponse(
                _(
                    "This server cannot tell its visitors apart: the proxy in front of it "
                    "sends no client address. Its administrator must make the proxy append "
                    "the client's address to X-Forwarded-For (see DJANGO_TRUSTED_PROXIES)."
                ),
                status=503,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)

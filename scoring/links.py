"""The app's address as people's phones reach it, for table links and the QR codes of documents.

``SITE_URL`` (``make club`` sets it to the room's address, such as http://192.168.1.20:8000)
wins over the address a page was requested at: the referee opens the staff pages on the laptop
as http://127.0.0.1:8000, but the table cards printed from there must send phones to the
laptop's address in the room. Unset, pages use the address the browser used, and documents
made by commands http://127.0.0.1:8000.
"""

from __future__ import annotations

from django.conf import settings

LOCAL_URL = "http://127.0.0.1:8000"


def site_url() -> str:
    """The configured public address without a trailing slash, or this computer's."""
    return (settings.SITE_URL or LOCAL_URL).rstrip("/")


def public_url(path: str, request=None) -> str:
    """``path`` (absolute, such as /table/abc/) as a full address phones can open."""
    if settings.SITE_URL or request is None:
        return site_url() + path
    return request.build_absolute_uri(path)

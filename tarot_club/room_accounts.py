"""The club room's accounts: the room's server (``make club``) accepts no password anybody could
know.

``make club`` serves every phone on the room's Wi-Fi over plain HTTP, so anyone in the hall can
open the login page. The demo's organiser password (``tarot-demo``) is printed in the README:

- ``serve_club`` never loads the demo, and refuses to start while an active account still has
  a known password (a referee ran ``make run`` first), saying which account and how to fix it
  (``known_password_accounts``);
- on a database without any organiser, it makes the club's first organiser account with a
  password typed on the laptop, or generated and shown once in the laptop's terminal
  (``has_organiser``, ``generated_password``; the account is written by
  ``tarot_club.services.first_organiser_create``);
- while the room is served (``settings.CLUB_ROOM``, environment ``DJANGO_CLUB_ROOM`` set by
  ``tarot_club.club.server_environment``), a login with a known password is refused even if an
  account got one later (``RoomModelBackend``), and ``/admin/`` answers 404
  (``RoomAdminClosedMiddleware``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import check_password
from django.http import Http404

from scoring.management.commands.setup_demo import PASSWORD as DEMO_PASSWORD
from tournaments.permissions import ORGANISER_PERMISSION

# Passwords anybody can read (the README prints the demo's): never accepted in the room.
KNOWN_PASSWORDS = (DEMO_PASSWORD,)

# Letters and digits a referee can read aloud and copy without confusing 0/O or 1/l/I.
_READABLE = "abcdefghjkmnpqrstuvwxyz23456789"


def known_password_accounts() -> list[str]:
    """The user names of active accounts whose password is one anybody could know."""
    found = []
    for user in get_user_model().objects.filter(is_active=True).order_by("username"):
        # (hashers.check_password: reading never rewrites the stored hash)
        if user.has_usable_password() and any(
            check_password(known, user.password) for known in KNOWN_PASSWORDS
        ):
            found.append(user.username)
    return found


def has_organiser() -> bool:
    """Whether an active account may create tournaments (an organiser, or a superuser)."""
    return (
        get_user_model()
        .objects.with_perm(
            ORGANISER_PERMISSION, backend="tarot_club.room_accounts.RoomModelBackend"
        )
        .exists()
    )


def generated_password() -> str:
    """A password of 16 readable characters in groups of 4 (about 79 bits)."""
    letters = "".join(secrets.choice(_READABLE) for _ in range(16))
    return "-".join(letters[i : i + 4] for i in range(0, 16, 4))


def free_username(wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``... when an account has it already."""
    taken = get_user_model().objects.filter(username__istartswith=wanted)
    names = {name.lower() for name in taken.values_list("username", flat=True)}
    candidate, number = wanted, 1
    while candidate.lower() in names:
        number += 1
        candidate = f"{wanted}-{number}"
    return candidate


class RoomModelBackend(ModelBackend):
    """Django's backend, except that the club room's server refuses a known password."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if getattr(settings, "CLUB_ROOM", False) and password in KNOWN_PASSWORDS:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class RoomAdminClosedMiddleware:
    """``/admin/`` does not exist on the club room's server (404)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if getattr(settings, "CLUB_ROOM", False) and request.path_info.startswith("/admin/"):
            raise Http404
        return self.get_response(request)

"""The secret key: explicit in production, generated once for local use.

- ``DJANGO_SECRET_KEY`` set: that key, always.
- Not set (a referee's laptop, the README's commands): a random key is generated the first time
  and kept in a private file beside the SQLite database, ``<database>.secret-key`` (for
  ``db.sqlite3``: ``db.sqlite3.secret-key``; mode 0600, ignored by git), and read from there
  afterwards, so nothing has to be typed and sessions survive a restart. Self-hosted Django
  projects such as pretix and Mayan EDMS keep a generated key in their data folder the same way.
  The file is written whole under a temporary name, then hard-linked into place, which never
  replaces an existing file: two processes starting at once both read the key of the first.
- **Serving** HTTP with the local key is refused unless the server was started by a local serving
  command of the Makefile (``make run``), which sets ``DJANGO_LOCAL_SERVER=1``. The WSGI and ASGI
  entry points (gunicorn, ``runserver``) and ``manage.py check --deploy`` (error
  ``tarot_club.E001``) all apply :func:`serving_refusal`, so a production start without an
  explicit ``DJANGO_SECRET_KEY`` stops at once and says why.

Settings import this module before Django is set up: only :func:`serving_refusal` reads
``django.conf.settings``, and only when called.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from tarot_club.private_files import create_once

# Set by the Makefile's local serving targets only; documented in the README, never typed.
LOCAL_SERVER_VARIABLE = "DJANGO_LOCAL_SERVER"
SUFFIX = ".secret-key"


def key_file_beside(database: str | os.PathLike) -> Path:
    """The local key file of a SQLite database file."""
    database = Path(database)
    return database.with_name(database.name + SUFFIX)


def local_key(path: Path) -> str:
    """The key kept in ``path``, created (random, mode 0600) if the file does not exist yet."""
    if not path.exists():
        try:
            create_once(path, (secrets.token_urlsafe(50) + "\n").encode("ascii"))
        except OSError as error:
            raise ImproperlyConfigured(
                f"Cannot write the local secret key file {path} ({error.strerror or error}). "
                "Make its folder writable, or set DJANGO_SECRET_KEY."
            ) from None
    return _read(path)


def _read(path: Path) -> str:
    # Without hard links a file created by another process may be read before it is written:
    # wait a little for it rather than take an empty key.
    for _attempt in range(50):
        try:
            key = path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError) as error:
            raise ImproperlyConfigured(
                f"Cannot read the local secret key file {path} ({error}). "
                "Delete it to make a new one, or set DJANGO_SECRET_KEY."
            ) from None
        if key:
            return key
        time.sleep(0.02)
    raise ImproperlyConfigured(
        f"The local secret key file {path} is empty. "
        "Delete it to make a new one, or set DJANGO_SECRET_KEY."
    )


def serving_refusal() -> str | None:
    """Why this process must not serve HTTP, or None when it may."""
    from django.conf import settings

    if settings.SECRET_KEY_FROM_ENVIRONMENT or settings.LOCAL_SERVER:
        return None
    local = settings.LOCAL_SECRET_KEY_FILE
    generated = (
        f" The key generated in {local} is only for commands and for `make run` on this computer."
        if local
        else ""
    )
    return (
        "DJANGO_SECRET_KEY is not set: a server (gunicorn, `make serve`) needs an explicit secret "
        f"key.{generated} Set it, e.g. export DJANGO_SECRET_KEY=$(python3 -c "
        '"import secrets; print(secrets.token_urlsafe(50))")'
    )


def refuse_to_serve_with_local_key() -> None:
    """Called by the WSGI and ASGI entry points: a production start needs an explicit key."""
    message = serving_refusal()
    if message:
        raise ImproperlyConfigured(message)

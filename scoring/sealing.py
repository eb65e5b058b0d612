"""The installation's sealing key and what a seal proves (the edge of documents.seal).

- The private key (Ed25519) is made the first time a sheet is sealed and kept in a private file,
  never in the database nor in archives: ``settings.SEAL_KEY_FILE`` (``DJANGO_SEAL_KEY_FILE``;
  by default beside the SQLite database, ``db.sqlite3.seal-key``, mode 0600). The file is written
  whole under a temporary name, then hard-linked into place, which never replaces an existing
  key: two processes sealing at once both use the key of the first.
- ``settings.INSTALLATION_NAME`` (``DJANGO_INSTALLATION_NAME``) names who sealed, a name the
  organiser chose; unset, the name of the first club page made here, else « Tarot Club » (never
  the computer's name, which public pages would show). It is signed with each seal's content and
  public key (:func:`scoring.documents.seal.sign_seal`): relabelled, a seal no longer verifies.
- What a seal proves to a reader depends on its key being trusted here: :mod:`scoring.trust`.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from scoring.documents.seal import (
    Ed25519PrivateKey,
    key_code,
    new_private_key,
    private_key_from_pem,
    private_key_to_pem,
    public_key_text,
    sign_seal,
)
from tarot_club.private_files import create_once
from tournaments.models import Club

_loaded: dict[str, Ed25519PrivateKey] = {}


def key_path() -> Path:
    return Path(settings.SEAL_KEY_FILE)


def installation_key() -> Ed25519PrivateKey:
    """This installation's private key, created (mode 0600) on first use."""
    path = key_path()
    cached = _loaded.get(str(path))
    if cached is not None:
        return cached
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            create_once(path, private_key_to_pem(new_private_key()))
        except OSError as error:
            raise ImproperlyConfigured(
                f"Cannot write the sealing key file {path} ({error.strerror or error}). "
                "Make its folder writable, or set DJANGO_SEAL_KEY_FILE."
            ) from None
    try:
        key = private_key_from_pem(path.read_bytes())
    except (OSError, ValueError, TypeError) as error:
        raise ImproperlyConfigured(_unreadable(path, error)) from None
    _loaded[str(path)] = key
    return key


def key_problem() -> str | None:
    """What would stop the first signature from being sealed, said before anyone signs (a
    system check runs it when the app starts): an unreadable key file, or no folder where it
    can be created. Nothing is written."""
    path = key_path()
    if path.exists():
        try:
            private_key_from_pem(path.read_bytes())
        except (OSError, ValueError, TypeError) as error:
            return _unreadable(path, error)
        return None
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"Cannot create the sealing key file {path}: {folder} is not a folder this app "
            "can write in. Make it writable, or set DJANGO_SEAL_KEY_FILE."
        )
    return None


def _unreadable(path: Path, error: Exception) -> str:
    return (
        f"Cannot read the sealing key file {path} ({error}). Put back the backed-up copy "
        "(see the README, 'Backups'): sheets sealed with it cannot be sealed again."
    )


def installation_name() -> str:
    """Who seals here: the name the organiser set, else the first club page's, never the host's."""
    if settings.INSTALLATION_NAME:
        return settings.INSTALLATION_NAME
    first = Club.objects.exclude(slug=None).order_by("pk").values_list("name", flat=True).first()
    return first or "Tarot Club"


def installation_public_key() -> str:
    return public_key_text(installation_key())


def seal_origin() -> dict[str, str]:
    """Who made an archive: this installation's name, public key and the key's fingerprint."""
    public_key = installation_public_key()
    return {
        "installation": installation_name(),
        "public_key": public_key,
        "fingerprint": key_code(public_key),
    }


def seal_fields(content: dict) -> dict[str, str]:
    """The signature, public key and installation name a new seal of ``content`` stores: the
    signature covers all three (a version 2 seal)."""
    key = installation_key()
    name = " ".join(installation_name().split())[:100]
    return {
        "signature": sign_seal(key, content, name),
        "public_key": public_key_text(key),
        "installation": name,
    }

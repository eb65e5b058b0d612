"""The installation's sealing key and what a seal proves (the edge of documents.seal).

- The private key (Ed25519) is made the first time a sheet is sealed and kept in a private file,
  never in the database nor in archives: ``settings.SEAL_KEY_FILE`` (``DJANGO_SEAL_KEY_FILE``;
  by default beside the SQLite database, ``db.sqlite3.seal-key``, mode 0600). The file is written
  whole under a temporary name, then hard-linked into place, which never replaces an existing
  key: two processes sealing at once both use the key of the first.
- ``settings.INSTALLATION_NAME`` (``DJANGO_INSTALLATION_NAME``) names who sealed: it travels with
  each seal, beside the public key, and the verification page shows it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
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
    sign_content,
    verify_seal,
)
from tarot_club.private_files import create_once

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
    return settings.INSTALLATION_NAME


def installation_public_key() -> str:
    return public_key_text(installation_key())


def seal_fields(content: dict) -> dict[str, str]:
    """The signature, public key and installation name a new seal of ``content`` stores."""
    key = installation_key()
    return {
        "signature": sign_content(key, content),
        "public_key": public_key_text(key),
        "installation": installation_name()[:100],
    }


@dataclass(frozen=True)
class SealCheck:
    """What a stored seal proves, for the verification page."""

    signed: bool  # the seal carries a signature (an older archive's seals do not)
    valid: bool  # ...and it verifies against the public key it names
    here: bool  # ...made by this installation's key
    installation: str
    key_code: str


def check_seal(seal) -> SealCheck:
    """Check a :class:`~scoring.models.SheetSeal` against the public key it carries."""
    signed = bool(seal.signature and seal.public_key)
    valid = signed and verify_seal(seal.public_key, seal.content, seal.signature)
    return SealCheck(
        signed=signed,
        valid=valid,
        here=valid and seal.public_key == installation_public_key(),
        installation=seal.installation,
        key_code=key_code(seal.public_key) if signed else "",
    )

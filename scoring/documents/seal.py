"""Seals: a signed sheet's canonical content, signed with the installation's Ed25519 key.

A fingerprint (:mod:`.fingerprint`) proves that a document matches a content; anyone can compute
one. A seal proves *who* vouched for that content: the installation that recorded the signatures
signs the canonical bytes with its private key, which never leaves that installation (it is kept
in a file, out of the database and of archives). Anyone holding the public key can check a seal;
nobody without the private key can make one, so an edited archive whose fingerprints were
recomputed no longer verifies.

What is signed (version 2, :func:`sign_seal`): ``SEAL_CONTEXT_2`` followed by the canonical bytes
of ``{"content": ..., "installation": ..., "public_key": ...}``: the sheet's content, the name of
the installation that sealed it and its public key, so that a seal relabelled with another name
no longer verifies. Version 1 (``SEAL_CONTEXT`` and the content alone, :func:`sign_content`) was
made before names were signed: such a seal proves its content and its key, not the name it shows
(:func:`seal_scheme` tells which one verifies). Keys and signatures travel as standard base64 text
(32 and 64 bytes).

A signature proves who holds a key, not who that is: a reader compares the key's short
fingerprint (:func:`key_code`, printed on every sheet) with the one its club publishes, in a
public key file (:func:`public_key_file`, read back by :func:`read_public_key_file`).

Plain Python (the ``cryptography`` package): no Django import.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from .fingerprint import CODE_ALPHABET, canonical_bytes

SEAL_CONTEXT = b"tarot-club sheet seal 1\n"
SEAL_CONTEXT_2 = b"tarot-club sheet seal 2\n"

__all__ = [
    "SEAL_CONTEXT",
    "SEAL_CONTEXT_2",
    "Ed25519PrivateKey",
    "KeyFileError",
    "key_code",
    "new_private_key",
    "private_key_from_pem",
    "private_key_to_pem",
    "public_key_file",
    "public_key_text",
    "read_public_key_file",
    "seal_message",
    "seal_scheme",
    "sign_content",
    "sign_seal",
    "signed_message",
    "verify_seal",
]

# Base 32 written in the alphabet of verification codes (no I, L, O or U).
_TO_CODE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", CODE_ALPHABET)


def seal_message(content: dict[str, Any]) -> bytes:
    """The exact bytes a seal signs."""
    return SEAL_CONTEXT + canonical_bytes(content)


def signed_message(content: dict[str, Any], installation: str, public_key: str) -> bytes:
    """The exact bytes a version 2 seal signs: the content, who sealed it and with which key."""
    named = {"content": content, "installation": installation, "public_key": public_key}
    return SEAL_CONTEXT_2 + canonical_bytes(named)


def new_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def private_key_to_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def private_key_from_pem(pem: bytes) -> Ed25519PrivateKey:
    """The key of a PEM file; ValueError when it is not an Ed25519 private key."""
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("not an Ed25519 private key")
    return key


def public_key_text(key: Ed25519PrivateKey) -> str:
    """The public half of a private key, as base64 text (what archives and seals carry)."""
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")


def sign_content(key: Ed25519PrivateKey, content: dict[str, Any]) -> str:
    """The base64 signature of a canonical content."""
    return base64.b64encode(key.sign(seal_message(content))).decode("ascii")


def sign_seal(key: Ed25519PrivateKey, content: dict[str, Any], installation: str) -> str:
    """The base64 version 2 signature of a content sealed by ``installation`` with ``key``."""
    message = signed_message(content, installation, public_key_text(key))
    return base64.b64encode(key.sign(message)).decode("ascii")


def _decode(text: Any, size: int) -> bytes | None:
    if not isinstance(text, str) or len(text) > 200:
        return None
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None
    return raw if len(raw) == size else None


def verify_seal(public_key: Any, content: dict[str, Any], signature: Any) -> bool:
    """Whether ``signature`` is the seal of ``content`` by the holder of ``public_key``.

    Never raises: a malformed key or signature simply does not verify.
    """
    raw_key, raw_signature = _decode(public_key, 32), _decode(signature, 64)
    if raw_key is None or raw_signature is None:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(raw_key).verify(raw_signature, seal_message(content))
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def seal_scheme(public_key: Any, content: dict[str, Any], installation: Any, signature: Any) -> int:
    """Which seal ``signature`` is: 2 when it signs the content, the installation's name and its
    key; 1 when it signs the content alone (made before names were signed); 0 when it verifies
    neither way. Never raises."""
    raw_key, raw_signature = _decode(public_key, 32), _decode(signature, 64)
    if raw_key is None or raw_signature is None:
        return 0
    try:
        key = Ed25519PublicKey.from_public_bytes(raw_key)
    except ValueError:
        return 0
    messages = [(1, seal_message(content))]
    if isinstance(installation, str):
        messages.insert(0, (2, signed_message(content, installation, public_key)))
    for scheme, message in messages:
        try:
            key.verify(raw_signature, message)
        except (InvalidSignature, ValueError, TypeError):
            continue
        return scheme
    return 0


def key_code(public_key: str) -> str:
    """A short code of a public key, to compare by eye: "ABCD-EFGH-JKMN-PQRS" (80 bits)."""
    digest = hashlib.sha256(public_key.encode("ascii", "replace")).digest()[:10]
    code = base64.b32encode(digest).decode("ascii").translate(_TO_CODE)
    return "-".join(code[i : i + 4] for i in range(0, 16, 4))


# --- the public key file a club publishes ------------------------------------------------------

KEY_FILE_TITLE = "Tarot Club: public sealing key"


class KeyFileError(ValueError):
    """A public key file that cannot be read. ``reason``: "no-key" (no ``public-key:`` line),
    "bad-key" (not an Ed25519 public key) or "fingerprint" (its fingerprint line does not match
    its key: the file was edited)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def public_key_file(installation: str, public_key: str) -> str:
    """The text of the file a club publishes (its web site, a federation's list): its name, the
    key and the key's fingerprint, which readers compare with what sheets print."""
    name = " ".join((installation or "").split())
    return (
        f"# {KEY_FILE_TITLE}\n"
        "# Compare the fingerprint with the one printed on the club's score sheets.\n"
        f"installation: {name}\n"
        f"fingerprint: {key_code(public_key)}\n"
        f"public-key: {public_key}\n"
    )


def read_public_key_file(text: str) -> tuple[str, str]:
    """``(installation, public_key)`` from a public key file; :class:`KeyFileError` otherwise.

    A file holding only the base64 key (one line) is read too, with no name.
    """
    fields: dict[str, str] = {}
    lines = [line.strip() for line in (text or "").splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    for line in lines:
        name, colon, value = line.partition(":")
        if colon:
            fields.setdefault(name.strip().lower(), value.strip())
    public_key = fields.get("public-key", "")
    if not public_key and len(lines) == 1 and ":" not in lines[0]:
        public_key = lines[0]
    if not public_key:
        raise KeyFileError("no-key")
    raw = _decode(public_key, 32)
    if raw is None:
        raise KeyFileError("bad-key")
    try:
        Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise KeyFileError("bad-key") from None
    claimed = fields.get("fingerprint", "")
    if claimed and claimed.upper() != key_code(public_key):
        raise KeyFileError("fingerprint")
    return fields.get("installation", "")[:100], public_key

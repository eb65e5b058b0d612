"""Seals: a signed sheet's canonical content, signed with the installation's Ed25519 key.

A fingerprint (:mod:`.fingerprint`) proves that a document matches a content; anyone can compute
one. A seal proves *who* vouched for that content: the installation that recorded the signatures
signs the canonical bytes with its private key, which never leaves that installation (it is kept
in a file, out of the database and of archives). Anyone holding the public key can check a seal;
nobody without the private key can make one, so an edited archive whose fingerprints were
recomputed no longer verifies.

What is signed (version 1): ``SEAL_CONTEXT`` followed by the canonical bytes of the sheet's
content (:func:`.fingerprint.canonical_bytes`, whose SHA-256 is the fingerprint). Keys and
signatures travel as standard base64 text (32 and 64 bytes).

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

__all__ = [
    "SEAL_CONTEXT",
    "Ed25519PrivateKey",
    "key_code",
    "new_private_key",
    "private_key_from_pem",
    "private_key_to_pem",
    "public_key_text",
    "seal_message",
    "sign_content",
    "verify_seal",
]

# Base 32 written in the alphabet of verification codes (no I, L, O or U).
_TO_CODE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", CODE_ALPHABET)


def seal_message(content: dict[str, Any]) -> bytes:
    """The exact bytes a seal signs."""
    return SEAL_CONTEXT + canonical_bytes(content)


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


def key_code(public_key: str) -> str:
    """A short code of a public key, to compare by eye: "ABCD-EFGH-JKMN-PQRS" (80 bits)."""
    digest = hashlib.sha256(public_key.encode("ascii", "replace")).digest()[:10]
    code = base64.b32encode(digest).decode("ascii").translate(_TO_CODE)
    return "-".join(code[i : i + 4] for i in range(0, 16, 4))

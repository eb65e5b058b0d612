"""The sealing keys this installation trusts, and what it takes to trust one.

A seal's signature proves that whoever holds its key sealed it; only the list of trusted keys
(:class:`~scoring.models.TrustedKey`) tells who that is. The list holds this installation's own
keys (recorded when a seal is made with one, by :mod:`scoring.receivers`, so a key lost and
replaced still vouches for what it sealed) and the keys an organiser added on purpose: from a
club's or federation's public key file (``manage.py trust_key``), or while importing an archive
sealed by a key not yet known (the import page shows its fingerprint and asks;
:mod:`scoring.archive` trusts it). The organiser compares that fingerprint with the one its
holder publishes first, as SSH and Signal ask their users to. This module only reads.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.archive_values import Value, max_length
from scoring.documents.fingerprint import canonical_bytes
from scoring.documents.seal import KeyFileError, key_code, read_public_key_file, seal_scheme
from scoring.models import SheetSeal, TrustedKey
from scoring.sealing import installation_name, installation_public_key
from tarot_club.errors import ServiceError


def is_trusted(public_key: str) -> bool:
    if not public_key:
        return False
    if public_key == installation_public_key():
        return True
    return TrustedKey.objects.filter(public_key=public_key).exists()


def trusted_key(public_key: str) -> TrustedKey | None:
    return TrustedKey.objects.filter(public_key=public_key).first() if public_key else None


def key_file_read(text: str, *, fingerprint: str) -> tuple[str, str]:
    """``(name, public_key)`` of a public key file whose fingerprint is ``fingerprint``, as the
    organiser typed it after comparing it with the one its holder publishes."""
    try:
        name, public_key = read_public_key_file(text)
    except KeyFileError as error:
        raise ServiceError(
            {
                "no-key": _("This file holds no public key (a line “public-key: …”)."),
                "bad-key": _("This file's public key is not a sealing key (Ed25519, base64)."),
                "fingerprint": _(
                    "This file's fingerprint line does not match its key: the file was edited. "
                    "Ask its holder for it again."
                ),
            }[error.reason]
        ) from None
    typed = "".join(ch for ch in (fingerprint or "").upper() if ch.isalnum())
    actual = key_code(public_key)
    if typed != actual.replace("-", ""):
        raise ServiceError(
            _(
                "The fingerprint you typed (%(typed)s) is not this key's (%(actual)s): do not "
                "trust it, ask its holder where the difference comes from."
            )
            % {"typed": fingerprint or "—", "actual": actual}
        )
    return name, public_key


class UnknownKeys(ServiceError):
    """The archive's seals verify, but some are by keys this installation does not trust:
    ``keys`` lists them as ``(name the seals carry, public key, fingerprint)``."""

    def __init__(self, keys: list[tuple[str, str, str]]):
        self.keys = keys
        names = ", ".join(
            _("“%(name)s” (fingerprint %(code)s)") % {"name": name or "—", "code": code}
            for name, _key, code in keys
        )
        super().__init__(
            _(
                "This archive is sealed by a key this installation does not know: %(keys)s. "
                "Compare the fingerprint with the one that club publishes and trust the key "
                "only if they are the same. Nothing was imported."
            )
            % {"keys": names}
        )


def untrusted_seal_keys(seals, *, trust=()) -> tuple[list, list]:
    """The keys of ``seals`` (SheetSeal rows, e.g. those an import just wrote) this
    installation does not trust, as ``(name the seals carry, public key, fingerprint)``: those
    in ``trust`` (by text or fingerprint, once an organiser compared it) and the others."""
    wanted = {str(t).strip() for t in trust} | {
        str(t).strip().upper().replace("-", "") for t in trust
    }
    chosen, unknown, seen = [], [], set()
    keys = seals.exclude(public_key="").order_by("pk").values_list("public_key", "installation")
    for public_key, name in keys:
        if public_key in seen or is_trusted(public_key):
            continue
        seen.add(public_key)
        code = key_code(public_key)
        wanted_here = public_key in wanted or code.replace("-", "") in wanted
        (chosen if wanted_here else unknown).append((name, public_key, code))
    return chosen, unknown


def archived_seal_fields(seal: Value, table, version: int) -> dict[str, str]:
    """A seal of an archive (scoring.archive), checked: its content hashes to its fingerprint
    and, from format 2 on, its signature verifies against the public key it names. Returns its
    signature fields; whether that key is trusted here is :func:`seal_keys_trusted`'s matter."""
    content = seal["content"].data()
    fingerprint = seal["fingerprint"].text(64)
    signature = seal.get("signature", "").text(100)
    public_key = seal.get("public_key", "").text(60)
    installation = seal.get("installation", "").text(max_length(SheetSeal, "installation"))
    fingerprint_ok = hashlib.sha256(canonical_bytes(content)).hexdigest() == fingerprint
    # A seal of a version 3 archive signs its installation's name and key with the content; a
    # version 2 archive's, or an older seal kept since, the content alone (the page says so):
    # relabelled, a version 2 seal no longer verifies either way.
    signed_ok = version < 2 or seal_scheme(public_key, content, installation, signature) > 0
    if not (fingerprint_ok and signed_ok):
        raise ServiceError(
            _(
                "The seal of a signed sheet of table %(table)d, round %(round)d does not verify: "
                "the archive was altered. Nothing was imported."
            )
            % {"table": table.number, "round": table.round.number}
        )
    if version < 2:
        return {}
    return {"signature": signature, "public_key": public_key, "installation": installation}


@dataclass(frozen=True)
class SealCheck:
    """What a stored seal proves, for the verification page."""

    signed: bool  # the seal carries a signature (an older archive's seals do not)
    valid: bool  # ...and it verifies against the public key it carries
    trusted: bool  # ...a key this installation trusts: its own or one an organiser added
    here: bool  # ...this installation's current key
    named: bool  # ...its signature covers the installation's name (not an old seal)
    installation: str  # the name the seal carries (signed when ``named``)
    trusted_name: str  # the name under which the key is trusted here
    key_code: str


def check_seal(seal) -> SealCheck:
    """Check a :class:`~scoring.models.SheetSeal`: its signature, then whether its key is one
    this installation trusts. Only a trusted key makes a seal « Authentique »."""
    signed = bool(seal.signature and seal.public_key)
    scheme = (
        seal_scheme(seal.public_key, seal.content, seal.installation, seal.signature)
        if signed
        else 0
    )
    valid = scheme > 0
    here = valid and seal.public_key == installation_public_key()
    entry = trusted_key(seal.public_key) if valid and not here else None
    return SealCheck(
        signed=signed,
        valid=valid,
        trusted=here or entry is not None,
        here=here,
        named=scheme == 2,
        installation=seal.installation,
        trusted_name=installation_name() if here else (entry.name if entry else ""),
        key_code=key_code(seal.public_key) if signed else "",
    )

"""The fingerprint of a score sheet: a canonical JSON form, its SHA-256 and a short code.

The canonical form holds what the players signed: the header (tournament, date, round, table,
rule set), the players by seat, every deal's inputs and scores, the penalties, the paper totals and
the signatures. It leaves out what may change without changing the result: the place, the status,
the amendments, the URLs, the PINs, the blank/paper layout flags and the fingerprint itself.

Rules of the canonical form (version 1) — changing any of them changes every hash, which the
golden-hash test catches:

- UTF-8 JSON, keys sorted, separators ``,`` and ``:``, no ASCII escaping, strings NFC-normalised;
- Decimals as plain strings without useless zeros (``"40.5"``, ``"41"``), integers as numbers;
- datetimes in UTC, ISO-8601 to the second with a ``Z`` (a naive datetime is taken as UTC);
- deals sorted by number, penalties and signatures sorted, players kept in seat order (the
  scores are given in that order).

Plain Python: no Django import.
"""

from __future__ import annotations

import base64
import hashlib
import json
import unicodedata
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from tournaments.names import starts_with_vowel_sound

from .data import SheetData

CANONICAL_VERSION = 1

# Crockford's base 32: no I, L, O or U, so a code read aloud or typed by hand is not ambiguous.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_TO_CODE = str.maketrans(_STD_ALPHABET, CODE_ALPHABET)
CODE_LENGTH = 10  # 50 bits


def _text(value: str) -> str:
    return unicodedata.normalize("NFC", value or "")


def _decimal(value: Decimal | int | float | None) -> str | None:
    if value is None:
        return None
    number = value if isinstance(value, Decimal) else Decimal(str(value))
    text = format(number.normalize(), "f")
    return "0" if text in {"-0", ""} else text


def _datetime(value: datetime) -> str:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _date(value: date) -> str:
    if isinstance(value, datetime):
        value = value.date()
    return value.isoformat()


def canonical_dict(data: SheetData) -> dict[str, Any]:
    """The canonical content of a sheet as a plain dict (what :func:`canonical_sheet` encodes)."""
    players = [
        {
            "seat": _text(p.seat),
            "name": _text(p.name),
            "club": _text(p.club),
            "licence": _text(p.licence),
        }
        for p in data.players
    ]
    deals = [
        {
            "number": deal.number,
            "kind": _text(deal.kind),
            "dealer": _text(deal.dealer),
            "sitting_out": _text(deal.sitting_out),
            "taker": _text(deal.taker),
            "partner": _text(deal.partner),
            "contract": _text(deal.contract),
            "oudlers": deal.oudlers,
            "points": _decimal(deal.points),
            "handfuls": [{"player": _text(h.player), "size": _text(h.size)} for h in deal.handfuls],
            "petit_au_bout": _text(deal.petit_au_bout),
            "slam_announced": bool(deal.slam_announced),
            "slam": _text(deal.slam),
            "scores": [int(s) for s in deal.scores],
            "note": _text(deal.note),
        }
        for deal in sorted(data.deals, key=lambda d: d.number)
    ]
    penalties = sorted(
        (
            {
                "player": _text(p.player),
                "amount": int(p.amount),
                "reason": _text(p.reason),
                "referee": _text(p.referee),
            }
            for p in data.penalties
        ),
        key=lambda p: (p["player"], p["amount"], p["reason"], p["referee"]),
    )
    signatures = sorted(
        (
            {"player": _text(s.player), "method": _text(s.method), "at": _datetime(s.signed_at)}
            for s in data.signatures
        ),
        key=lambda s: (s["at"], s["player"], s["method"]),
    )
    return {
        "version": CANONICAL_VERSION,
        "tournament": _text(data.tournament),
        "date": _date(data.tournament_date),
        "round": data.round_number,
        "table": data.table_number,
        "rule_set": _text(data.rule_set),
        "players": players,
        "deals": deals,
        "penalties": penalties,
        "paper_totals": [int(t) for t in data.paper_totals],
        "signatures": signatures,
    }


def canonical_bytes(content: dict[str, Any]) -> bytes:
    """A canonical dict (e.g. a seal's stored content) as the bytes the fingerprint hashes."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def canonical_sheet(data: SheetData) -> bytes:
    """The canonical, deterministic JSON bytes of a sheet (input of the fingerprint)."""
    return canonical_bytes(canonical_dict(data))


def load_canonical(raw: bytes | str) -> dict[str, Any]:
    """Read canonical bytes back (e.g. a stored copy) into the dict :func:`diff_sheets` takes."""
    return json.loads(raw)


def fingerprint(data: SheetData) -> str:
    """Hex SHA-256 of the canonical form."""
    return hashlib.sha256(canonical_sheet(data)).hexdigest()


def verification_code(fp: str) -> str:
    """Short human code of a fingerprint: 10 Crockford base-32 characters, "ABCD-EFGH-JK"."""
    if not fp:
        return ""
    raw = bytes.fromhex(fp)[:7]  # 56 bits, 50 of them used
    code = base64.b32encode(raw).decode("ascii").translate(_TO_CODE)[:CODE_LENGTH]
    return f"{code[:4]}-{code[4:8]}-{code[8:]}"


def normalize_code(text: str) -> str:
    """A code as typed by someone (lower case, O for 0, I or L for 1, spaces) in canonical form.

    Returns "" when the text cannot be a code.
    """
    cleaned = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    cleaned = cleaned.translate(str.maketrans({"O": "0", "I": "1", "L": "1"}))
    if len(cleaned) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in cleaned):
        return ""
    return f"{cleaned[:4]}-{cleaned[4:8]}-{cleaned[8:]}"


# --- differences, for the public verification page -------------------------------------------

_DEAL_FIELDS = {
    "kind": "type",
    "dealer": "donneur",
    "sitting_out": "mort",
    "taker": "preneur",
    "partner": "partenaire",
    "contract": "contrat",
    "oudlers": "bouts",
    "points": "points",
    "handfuls": "poignées",
    "petit_au_bout": "petit au bout",
    "slam_announced": "chelem annoncé",
    "slam": "chelem",
    "note": "décision de l'arbitre",
}
_HEADER_FIELDS = {
    "tournament": "Tournoi",
    "date": "Date",
    "round": "Position",
    "table": "Table",
    "rule_set": "Règlement",
}
_VALUE_LABELS = {
    "played": "jouée",
    "passed": "passée",
    "misdeal": "donne annulée (mauvaise donne)",
    "referee": "décidée par l'arbitre",
    "ruling": "décision de l'arbitre (scores fixés)",
    "petite": "petite",
    "garde": "garde",
    "garde_sans": "garde sans",
    "garde_contre": "garde contre",
    "attack": "attaque",
    "defence": "défense",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
}
_METHOD_LABELS = {"pin": "code PIN", "paper": "sur papier", "referee": "par l'arbitre"}


def _show(value: Any) -> str:
    if value is None or value == "" or value == []:
        return "—"
    if value is True:
        return "oui"
    if value is False:
        return "non"
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, dict) and "size" in value:
        return f"{_show(value['size'])} ({value.get('player', '')})"
    if isinstance(value, str):
        return _VALUE_LABELS.get(value, value)
    return str(value)


def _of(name: str) -> str:
    """« de Léa », « d'Éric »: French elides « de » before a vowel sound."""
    return f"d'{name}" if starts_with_vowel_sound(name) else f"de {name}"


def _signed_number(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def diff_sheets(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """French, human-readable differences between two canonical dicts (old → new).

    Example lines: "Donne 3 : points 45 → 47", "Signature de Jean Dupont ajoutée". An empty list
    means the two sheets have the same content.
    """
    lines: list[str] = []
    for key, label in _HEADER_FIELDS.items():
        if old.get(key) != new.get(key):
            lines.append(f"{label} : {_show(old.get(key))} → {_show(new.get(key))}")

    old_players = old.get("players", [])
    new_players = new.get("players", [])
    for index in range(max(len(old_players), len(new_players))):
        before = old_players[index] if index < len(old_players) else None
        after = new_players[index] if index < len(new_players) else None
        if before is None:
            lines.append(f"Joueur ajouté : {after['name']} (place {after['seat']})")
            continue
        if after is None:
            lines.append(f"Joueur retiré : {before['name']} (place {before['seat']})")
            continue
        seat = after["seat"]
        for key, label in (
            ("seat", "place"),
            ("name", "nom"),
            ("club", "club"),
            ("licence", "licence"),
        ):
            if before.get(key) != after.get(key):
                lines.append(
                    f"Joueur {seat} : {label} {_show(before.get(key))} → {_show(after.get(key))}"
                )

    names = [p["name"] for p in new_players] or [p["name"] for p in old_players]
    old_deals = {d["number"]: d for d in old.get("deals", [])}
    new_deals = {d["number"]: d for d in new.get("deals", [])}
    for number in sorted(old_deals.keys() | new_deals.keys()):
        before, after = old_deals.get(number), new_deals.get(number)
        if before is None:
            lines.append(f"Donne {number} ajoutée")
            continue
        if after is None:
            lines.append(f"Donne {number} supprimée")
            continue
        for key, label in _DEAL_FIELDS.items():
            if before.get(key) != after.get(key):
                lines.append(
                    f"Donne {number} : {label} {_show(before.get(key))} → {_show(after.get(key))}"
                )
        old_scores, new_scores = before.get("scores", []), after.get("scores", [])
        for index in range(max(len(old_scores), len(new_scores))):
            a = old_scores[index] if index < len(old_scores) else None
            b = new_scores[index] if index < len(new_scores) else None
            if a != b:
                who = names[index] if index < len(names) else f"joueur {index + 1}"
                lines.append(
                    f"Donne {number} : score {_of(who)} "
                    f"{'—' if a is None else _signed_number(a)} → "
                    f"{'—' if b is None else _signed_number(b)}"
                )

    old_totals, new_totals = old.get("paper_totals", []), new.get("paper_totals", [])
    if old_totals != new_totals:
        for index in range(max(len(old_totals), len(new_totals))):
            a = old_totals[index] if index < len(old_totals) else None
            b = new_totals[index] if index < len(new_totals) else None
            if a != b:
                who = names[index] if index < len(names) else f"joueur {index + 1}"
                lines.append(
                    f"Bilan sur papier {_of(who)} : "
                    f"{'—' if a is None else _signed_number(a)} → "
                    f"{'—' if b is None else _signed_number(b)}"
                )

    def penalty_key(p: dict[str, Any]) -> tuple:
        return (p["player"], p["amount"], p["reason"], p["referee"])

    old_pen = [penalty_key(p) for p in old.get("penalties", [])]
    new_pen = [penalty_key(p) for p in new.get("penalties", [])]
    for key in old_pen:
        if key in new_pen:
            new_pen.remove(key)
        else:
            lines.append(f"Pénalité supprimée : {key[0]} {_signed_number(key[1])} ({key[2]})")
    for key in new_pen:
        lines.append(f"Pénalité ajoutée : {key[0]} {_signed_number(key[1])} ({key[2]})")

    old_sig = {s["player"]: s for s in old.get("signatures", [])}
    new_sig = {s["player"]: s for s in new.get("signatures", [])}
    for player in sorted(old_sig.keys() | new_sig.keys()):
        before, after = old_sig.get(player), new_sig.get(player)
        if before is None:
            method = _METHOD_LABELS.get(after["method"], after["method"])
            lines.append(f"Signature {_of(player)} ajoutée ({method}, {after['at']})")
        elif after is None:
            lines.append(f"Signature {_of(player)} retirée")
        elif before != after:
            method = _METHOD_LABELS.get(after["method"], after["method"])
            lines.append(f"Signature {_of(player)} modifiée ({method}, {after['at']})")
    return lines

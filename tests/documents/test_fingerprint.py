"""The canonical form, the fingerprint, the verification code and the diff of two sheets."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from scoring.documents.data import (
    SheetAmendment,
    SheetHandful,
    SheetPenalty,
    SheetPlayer,
    SheetSignature,
)
from scoring.documents.fingerprint import (
    CODE_ALPHABET,
    canonical_dict,
    canonical_sheet,
    diff_sheets,
    fingerprint,
    load_canonical,
    normalize_code,
    verification_code,
)

from .conftest import EAST, NORTH, SOUTH, WEST, table_of_four

ROOT = Path(__file__).resolve().parents[2]

# Pinned on purpose: if this changes, every fingerprint already printed on a signed sheet stops
# matching. Change it only with a new CANONICAL_VERSION and a migration plan.
GOLDEN_FINGERPRINT = "6bc0d7b859c9b54344be5e7b9dfb90305c2ef5172e92c7489057b7c97484f3f8"
GOLDEN_CODE = "DF0D-FE2S-S6"

CODE_RE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$")


def test_golden_fingerprint(four):
    assert fingerprint(four) == GOLDEN_FINGERPRINT
    assert verification_code(GOLDEN_FINGERPRINT) == GOLDEN_CODE


def test_canonical_form_is_sorted_compact_utf8_json(four):
    raw = canonical_sheet(four)
    data = json.loads(raw.decode("utf-8"))
    assert (
        raw == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    )
    assert b"\n" not in raw and b", " not in raw
    assert "Élodie Lefèvre-Œuvray".encode() in raw  # not \u-escaped
    assert load_canonical(raw) == canonical_dict(four)


def test_canonical_content(four):
    data = canonical_dict(four)
    assert data["tournament"] == four.tournament
    assert data["date"] == "2025-05-17"
    assert (data["round"], data["table"]) == (2, 7)
    assert data["rule_set"] == "FFT (règlement officiel)"
    assert [p["name"] for p in data["players"]] == [NORTH, EAST, SOUTH, WEST]
    assert data["players"][0] == {
        "seat": "N",
        "name": NORTH,
        "club": "Tarot Club d'Évry",
        "licence": "012345",
    }
    first = data["deals"][0]
    assert first["points"] == "49"
    assert first["scores"] == [-106, 318, -106, -106]
    assert first["handfuls"] == [{"player": EAST, "size": "simple"}]
    assert data["deals"][1]["kind"] == "passed"
    assert data["penalties"] == [
        {"player": SOUTH, "amount": -20, "reason": "Retard à la table", "referee": "Chloé Arbitre"}
    ]
    assert data["signatures"][0] == {"player": NORTH, "method": "pin", "at": "2025-05-17T15:02:12Z"}
    for excluded in ("status", "amendments", "verification_url", "fingerprint", "place"):
        assert excluded not in data
    assert all("pin" not in player for player in data["players"])
    text = json.dumps(data, ensure_ascii=False)
    for value in ("4821", "https://", "Salle des fêtes", "Erreur de saisie"):
        assert value not in text


def test_same_data_same_hash():
    assert fingerprint(table_of_four()) == fingerprint(table_of_four())


def test_decimals_are_normalised(four):
    deal = four.deals[0]
    variants = [Decimal("49"), Decimal("49.0"), Decimal("49.00"), Decimal("4.9E+1")]
    hashes = {
        fingerprint(replace(four, deals=(replace(deal, points=v), *four.deals[1:])))
        for v in variants
    }
    assert len(hashes) == 1
    half = replace(four, deals=(replace(deal, points=Decimal("40.50")), *four.deals[1:]))
    assert canonical_dict(half)["deals"][0]["points"] == "40.5"


def test_datetimes_are_utc_to_the_second(four):
    paris = timezone(timedelta(hours=2))
    moved = tuple(
        replace(s, signed_at=s.signed_at.astimezone(paris).replace(microsecond=654321))
        for s in four.signatures
    )
    assert fingerprint(replace(four, signatures=moved)) == fingerprint(four)
    naive = tuple(replace(s, signed_at=s.signed_at.replace(tzinfo=None)) for s in four.signatures)
    assert fingerprint(replace(four, signatures=naive)) == fingerprint(four)  # naive = UTC


def test_order_of_signatures_and_penalties_does_not_matter(four):
    more = (*four.penalties, SheetPenalty(NORTH, -10, "Bavardage", "Chloé Arbitre"))
    a = replace(four, penalties=more, signatures=four.signatures)
    b = replace(four, penalties=more[::-1], signatures=four.signatures[::-1])
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(replace(four, deals=four.deals[::-1])) == fingerprint(four)


def _deal_change(four, index, **changes):
    deals = list(four.deals)
    deals[index] = replace(deals[index], **changes)
    return replace(four, deals=tuple(deals))


CHANGES = {
    "points": lambda d: _deal_change(d, 2, points=Decimal("47")),
    "oudlers": lambda d: _deal_change(d, 2, oudlers=2),
    "contract": lambda d: _deal_change(d, 2, contract="garde"),
    "taker": lambda d: _deal_change(d, 2, taker=NORTH),
    "dealer": lambda d: _deal_change(d, 2, dealer=NORTH),
    "partner": lambda d: _deal_change(d, 2, partner=EAST),
    "sitting out": lambda d: _deal_change(d, 2, sitting_out=EAST),
    "kind": lambda d: _deal_change(d, 2, kind="referee"),
    "score": lambda d: _deal_change(d, 2, scores=(32, 31, 30, -93)),
    "handful": lambda d: _deal_change(d, 0, handfuls=(SheetHandful(EAST, "double"),)),
    "handful player": lambda d: _deal_change(d, 0, handfuls=(SheetHandful(NORTH, "simple"),)),
    "petit au bout": lambda d: _deal_change(d, 0, petit_au_bout="defence"),
    "slam": lambda d: _deal_change(d, 0, slam="attack"),
    "slam announced": lambda d: _deal_change(d, 0, slam_announced=True),
    "referee note": lambda d: _deal_change(d, 3, note="Autre motif"),
    "deal number": lambda d: _deal_change(d, 3, number=5),
    "deal removed": lambda d: replace(d, deals=d.deals[:-1]),
    "player name": lambda d: replace(
        d, players=(replace(d.players[0], name="Élodie Lefevre"), *d.players[1:])
    ),
    "player club": lambda d: replace(d, players=(replace(d.players[0], club="X"), *d.players[1:])),
    "player licence": lambda d: replace(
        d, players=(replace(d.players[0], licence="9"), *d.players[1:])
    ),
    "seats": lambda d: replace(d, players=(replace(d.players[0], seat="E"), *d.players[1:])),
    "penalty amount": lambda d: replace(d, penalties=(replace(d.penalties[0], amount=-30),)),
    "penalty removed": lambda d: replace(d, penalties=()),
    "signature time": lambda d: replace(
        d,
        signatures=(
            replace(d.signatures[0], signed_at=d.signatures[0].signed_at + timedelta(seconds=1)),
            *d.signatures[1:],
        ),
    ),
    "signature method": lambda d: replace(
        d, signatures=(replace(d.signatures[0], method="paper"), *d.signatures[1:])
    ),
    "signature added": lambda d: replace(
        d,
        signatures=(
            *d.signatures,
            SheetSignature("Chloé Arbitre", "referee", datetime(2025, 5, 17, 16, 0, tzinfo=UTC)),
        ),
    ),
    "rule set": lambda d: replace(d, rule_set="Maison"),
    "round": lambda d: replace(d, round_number=3),
    "table": lambda d: replace(d, table_number=8),
    "tournament": lambda d: replace(d, tournament="Autre"),
    "date": lambda d: replace(d, tournament_date=d.tournament_date + timedelta(days=1)),
    "paper totals": lambda d: replace(d, paper_totals=(1, -1, 0, 0)),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_fingerprint_changes_with_content(four, change):
    assert fingerprint(CHANGES[change](four)) != fingerprint(four)


NON_CHANGES = {
    "status": lambda d: replace(d, status="signed"),
    "amendments": lambda d: replace(
        d,
        amendments=(
            *d.amendments,
            SheetAmendment(datetime(2025, 5, 18, tzinfo=UTC), "X", "Y", "Z"),
        ),
    ),
    "no amendment": lambda d: replace(d, amendments=()),
    "verification url": lambda d: replace(d, verification_url="https://autre.example/"),
    "verification code": lambda d: replace(d, verification_code="ABCD-EFGH-JK"),
    "fingerprint": lambda d: replace(d, fingerprint=""),
    "place": lambda d: replace(d, place="Ailleurs"),
    "deals expected": lambda d: replace(d, deals_expected=9),
}


@pytest.mark.parametrize("change", sorted(NON_CHANGES))
def test_fingerprint_ignores_presentation(four, change):
    assert fingerprint(NON_CHANGES[change](four)) == fingerprint(four)


def test_verification_code_format():
    for sample in (GOLDEN_FINGERPRINT, "0" * 64, "f" * 64, fingerprint(table_of_four())):
        code = verification_code(sample)
        assert CODE_RE.match(code), code
        assert not set(code) & set("ILOU")
    assert verification_code("") == ""
    assert set(CODE_ALPHABET).isdisjoint("ILOU") and len(CODE_ALPHABET) == 32
    assert verification_code("0" * 64) == "0000-0000-00"
    # A different fingerprint gives a different code (50 bits).
    assert verification_code("1" + GOLDEN_FINGERPRINT[1:]) != GOLDEN_CODE


def test_normalize_code_reads_what_people_type():
    assert normalize_code(GOLDEN_CODE) == GOLDEN_CODE
    assert normalize_code("df0d fe2s s6") == GOLDEN_CODE
    assert normalize_code("DFOD-FE2S-S6") == GOLDEN_CODE  # O typed for 0
    assert normalize_code("1lI0-0000-00") == "1110-0000-00"
    assert normalize_code("ABCD") == ""
    assert normalize_code("UUUU-UUUU-UU") == ""  # U is not in the alphabet


def _diff(old, new):
    return diff_sheets(canonical_dict(old), canonical_dict(new))


def test_diff_same_sheet_is_empty(four):
    assert _diff(four, table_of_four()) == []
    assert _diff(four, replace(four, status="signed", verification_url="x")) == []


def test_diff_lists_changes_in_french(four):
    changed = _deal_change(four, 2, points=Decimal("47"), scores=(33, 33, 33, -99))
    lines = _diff(four, changed)
    assert "Donne 3 : points 45 → 47" in lines
    # French elides « de » before a vowel sound: « score d'Élodie », « score de Jean ».
    assert f"Donne 3 : score d'{NORTH} +31 → +33" in lines
    assert f"Donne 3 : score de {WEST} -93 → -99" in lines

    extra = SheetSignature("Chloé Arbitre", "referee", datetime(2025, 5, 17, 16, 0, tzinfo=UTC))
    signed = replace(four, signatures=(*four.signatures, extra))
    assert _diff(four, signed) == [
        "Signature de Chloé Arbitre ajoutée (par l'arbitre, 2025-05-17T16:00:00Z)"
    ]
    assert _diff(signed, four) == ["Signature de Chloé Arbitre retirée"]
    eric = SheetSignature("Éric Arbitre", "referee", datetime(2025, 5, 17, 16, 0, tzinfo=UTC))
    assert _diff(four, replace(four, signatures=(*four.signatures, eric))) == [
        "Signature d'Éric Arbitre ajoutée (par l'arbitre, 2025-05-17T16:00:00Z)"
    ]

    assert _diff(four, replace(four, deals=four.deals[:3])) == ["Donne 4 supprimée"]
    assert _diff(replace(four, deals=four.deals[:3]), four) == ["Donne 4 ajoutée"]
    assert _diff(four, replace(four, penalties=())) == [
        f"Pénalité supprimée : {SOUTH} -20 (Retard à la table)"
    ]
    assert _diff(four, _deal_change(four, 0, contract="garde_sans")) == [
        "Donne 1 : contrat garde → garde sans"
    ]
    renamed = replace(four, players=(replace(four.players[0], name="Élodie L."), *four.players[1:]))
    assert f"Joueur N : nom {NORTH} → Élodie L." in _diff(four, renamed)
    assert _diff(four, replace(four, round_number=3)) == ["Position : 2 → 3"]


def test_diff_from_stored_bytes(four):
    stored = load_canonical(canonical_sheet(four))
    assert diff_sheets(stored, canonical_dict(_deal_change(four, 0, oudlers=3))) == [
        "Donne 1 : bouts 2 → 3"
    ]


def test_document_modules_import_no_django():
    code = (
        "import sys\n"
        "import scoring.documents.data, scoring.documents.fingerprint\n"
        "import scoring.documents.pdf, scoring.documents.xlsx\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(leaked); sys.exit(1 if leaked else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_player_order_matters(four):
    """Scores are given in player order, so swapping two players is a different sheet."""
    players = (four.players[1], four.players[0], *four.players[2:])
    assert fingerprint(replace(four, players=players)) != fingerprint(four)
    assert isinstance(four.players[0], SheetPlayer)

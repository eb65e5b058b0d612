"""Signing a sheet again after a correction: what changed, and the signatures it replaced.

When the referee corrects a signed sheet, its signatures are superseded (kept, with the moment
they stopped standing) and the players sign again on the table link. Above that signature form
each player reads every change made since the signatures it voided, as the history tells it
(:mod:`scoring.history`, staff named by their role as on the verification page): « Donne 1
corrigée par l'arbitre à 21:52 : 45 → 47 points (motif : erreur de comptage) ». The referee's
sheet page lists the earlier signatures by version of the sheet they vouched for.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scoring.history import SIGNATURES, HistoryLine, history_lines
from scoring.models import ScoreSheet, SheetEvent
from scoring.selectors import SheetState
from tournaments.models import Round, StaffMember


@dataclass(frozen=True)
class EarlierSigner:
    name: str
    method: str
    signed_at: datetime


@dataclass(frozen=True)
class SignedVersion:
    """The signatures one version of the sheet had, until a change voided them."""

    number: int  # 1 for the sheet as first signed
    replaced_at: datetime
    signers: list[EarlierSigner]


def changes_since_signatures(lines: list[HistoryLine]) -> list[HistoryLine]:
    """The changes from the first one that voided signatures (the last time that happened) to
    now, signatures left out: what the players sign again."""
    start = None
    for index, line in enumerate(lines):
        if line.after_signature:
            start = index
    if start is None:
        return []
    return [line for line in lines[start:] if line.action not in SIGNATURES]


def resigning_context(state: SheetState) -> dict:
    """What the sheet page shows of a sheet being signed again: the changes to check
    (``resign_changes``) and the earlier signatures (``earlier_signatures``). Two queries
    (none when the sheet was never signed)."""
    sheet = state.sheet
    earlier = [s for s in state.signatures if s.superseded_at is not None]
    if not earlier:
        return {"resign_changes": [], "earlier_signatures": []}
    changes = []
    signing = sheet.status in (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.AMENDED)
    if signing and state.table.round.status != Round.Status.CLOSED:
        roles = dict(
            StaffMember.objects.filter(tournament_id=state.tournament.pk).values_list(
                "user_id", "role"
            )
        )
        events = SheetEvent.objects.filter(sheet=sheet)
        changes = changes_since_signatures(history_lines(events, state.names, roles=roles))
    names = {s.registration_id: n for s, n in zip(state.seats, state.names, strict=True)}
    versions: dict[datetime, list[EarlierSigner]] = {}
    for signature in earlier:
        versions.setdefault(signature.superseded_at, []).append(
            EarlierSigner(
                name=names.get(signature.registration_id, ""),
                method=signature.get_method_display(),
                signed_at=signature.signed_at,
            )
        )
    return {
        "resign_changes": changes,
        "earlier_signatures": [
            SignedVersion(number=number, replaced_at=replaced_at, signers=signers)
            for number, (replaced_at, signers) in enumerate(sorted(versions.items()), start=1)
        ],
    }

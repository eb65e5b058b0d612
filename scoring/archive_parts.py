"""The parts of a tournament archive kept in modules of their own, beside
:mod:`scoring.archive`, which calls them: each part's export gives the keys it adds to the
archive (none when the tournament has nothing of it), and its import reads them once the
registrations exist, before the rounds (the archive's keys to the registrations imported
given). A new part is one line here, not more lines in ``scoring/archive.py``."""

from __future__ import annotations

from scoring.archive_details import export_prizes, prizes_of
from scoring.archive_halls import export_halls, import_halls
from scoring.archive_stages import export_stage, import_stage
from scoring.archive_values import Value
from scoring.prizes.services import prizes_restore
from tournaments.models import Tournament


def _export_prizes(tournament: Tournament) -> dict:
    return {"prizes": export_prizes(tournament)}


def _import_prizes(root: Value, tournament: Tournament, _registrations: dict) -> None:
    prizes_restore(tournament=tournament, data=prizes_of(root))


def _import_halls(root: Value, tournament: Tournament, _registrations: dict) -> None:
    import_halls(root, tournament)


# (export, import), in the order they are imported.
PARTS = (
    (export_halls, _import_halls),
    (_export_prizes, _import_prizes),
    (export_stage, import_stage),
)


def export_parts(tournament: Tournament) -> dict:
    archive: dict = {}
    for export, _import in PARTS:
        archive |= export(tournament)
    return archive


def import_parts(root: Value, tournament: Tournament, registrations: dict) -> None:
    for _export, import_ in PARTS:
        import_(root, tournament, registrations)

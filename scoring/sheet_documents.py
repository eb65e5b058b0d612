"""Score sheets as documents (PDF, Excel) for one table, a round or a whole tournament.

Shared by the web pages and ``manage.py score_sheets`` so both write the same documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.documents import data as doc
from scoring.documents.fingerprint import verification_code
from scoring.documents.language import printed_in, tr
from scoring.documents.seal import key_code
from scoring.models import SheetSeal
from scoring.selectors import sheet_amendments, sheet_data, sheet_states_bulk, staff_roles
from scoring.standings import standings_data
from tarot_club.errors import ServiceError
from tournaments.models import Table, Tournament
from tournaments.ranking import rank_label

if TYPE_CHECKING:
    from scoring.documents.pdf.pages import FolderPageStore


def tables_in_scope(
    tournament: Tournament, *, round_number: int | None = None, table_number: int | None = None
) -> QuerySet[Table]:
    tables = Table.objects.filter(round__tournament=tournament)
    if round_number is not None:
        tables = tables.filter(round__number=round_number)
    if table_number is not None:
        tables = tables.filter(number=table_number)
    return tables


def verification_path(code: str) -> str:
    return reverse("verify_code", args=[code])


def verify_url_for(tournament: Tournament) -> Callable[[str], str]:
    """Full addresses at the tournament's public verify address (``Tournament.verify_url``)."""
    base = tournament.verify_url.rstrip("/")
    return lambda path: base + path


def sheets_data(
    tables: QuerySet[Table], *, blank: bool = False, url_for: Callable[[str], str] = str
) -> Iterator[doc.SheetData]:
    """SheetData for every table of the scope, with a constant number of queries."""
    states = sheet_states_bulk(tables)
    amendments = sheet_amendments(states) if not blank else {}
    # Who gave each penalty, by role: the staff is read only when a sheet has a penalty.
    given = any(s.penalties for s in states) and not blank
    roles = staff_roles(s.tournament.pk for s in states) if given else {}
    # The key that sealed each signed sheet, whose fingerprint a reader compares with the club's.
    fingerprints = [s.sheet.fingerprint for s in states if s.sheet.fingerprint and not blank]
    keys = dict(
        SheetSeal.objects.filter(fingerprint__in=fingerprints).values_list(
            "fingerprint", "public_key"
        )
        if fingerprints
        else ()
    )
    for state in states:
        code = verification_code(state.sheet.fingerprint)
        key = keys.get(state.sheet.fingerprint, "")
        yield sheet_data(
            state,
            blank=blank,
            verification_url=url_for(verification_path(code)) if code else "",
            amendments=amendments.get(state.sheet.pk, ()),
            key_fingerprint=key_code(key) if key else "",
            roles=roles.get(state.tournament.pk, {}),
        )


def sheet_pages() -> FolderPageStore | None:
    """Where signed sheets' pages are kept once drawn: beside the jobs' files, which every
    worker and app server of a deployment shares (``settings.SHEET_PAGES_MB`` at most)."""
    from scoring.documents.pdf.pages import FolderPageStore

    if settings.SHEET_PAGES_MB <= 0:
        return None
    return FolderPageStore(Path(settings.JOBS_DIR) / "pages", int(settings.SHEET_PAGES_MB * 2**20))


def render_sheets(
    tournament: Tournament,
    tables: QuerySet[Table],
    *,
    fmt: str,
    blank: bool = False,
    url_for: Callable[[str], str] = str,
    progress: Callable[[int], None] | None = None,
    reading: Callable[[int], None] | None = None,
) -> bytes:
    """The document; ``reading(n)`` is called after each sheet read from the database, then
    ``progress(n)`` after each sheet laid out (a job's progress bar)."""
    if not tables.exists():
        raise ServiceError(_("No table matches: check the round and table numbers."))
    if tournament.verify_url:  # the public address the organiser gave: reachable after the day
        url_for = verify_url_for(tournament)
    data = sheets_data(tables, blank=blank, url_for=url_for)
    if reading is not None:
        data = _counted(data, reading)
    if fmt == "pdf":
        from scoring.documents.pdf import score_sheet_pdf

        # Printed in the language of whoever asks (the page's language).
        with printed_in(get_language()):
            return score_sheet_pdf(data, progress, pages=sheet_pages())
    if fmt == "xlsx":
        from scoring.documents.xlsx import score_sheets_workbook

        with printed_in(get_language()):
            return score_sheets_workbook(
                list(data),
                ranking=_ranking(tournament),
                final=tournament.finished,
                progress=progress,
            )
    raise ServiceError(_("Unknown format: use pdf or xlsx."))


def _counted(sheets: Iterator[doc.SheetData], reading: Callable[[int], None]):
    for number, sheet in enumerate(sheets, 1):
        yield sheet
        reading(number)


def _ranking(tournament: Tournament) -> tuple[list[str], list[list]]:
    standings = standings_data(tournament).standings()
    headers = [tr(h) for h in ("Rang", "Joueur", "Club", "Total", "Pénalités", "Donnes")]
    rows = [
        [
            rank_label(s.rank, s.tied),
            s.entry.name,
            s.entry.club or None,  # empty means empty: no club, no penalty
            s.total,
            s.entry.penalty_total or None,
            s.entry.deals_played,
        ]
        for s in standings
    ]
    return headers, rows

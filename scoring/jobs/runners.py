"""What each kind of job does, reporting its progress: the work itself is the same code the
pages and commands use (``scoring.sheet_documents``, ``scoring.season_archive``). The results
reports, the seating and the player import are in their own modules (``reports.py``,
``seating.py``, ``player_import.py``), each with the view that starts it."""

from __future__ import annotations

import time

from django.conf import settings
from django.utils.translation import gettext as _

from scoring import season_archive
from scoring.jobs import files, player_import, reports, seating
from scoring.jobs.common import Outcome, Progress
from scoring.jobs.models import Job
from scoring.season_archive import ExistingClub, export_season_json, import_season_json
from scoring.sheet_documents import render_sheets, tables_in_scope
from tarot_club.errors import ServiceError


def run(job: Job, progress: Progress) -> Outcome:
    if job.kind in (Job.Kind.SHEETS_PDF, Job.Kind.SHEETS_XLSX):
        return _sheets(job, progress)
    if job.kind == Job.Kind.SEASON_EXPORT:
        return _season_export(job, progress)
    if job.kind == Job.Kind.SEASON_IMPORT:
        return _season_import(job, progress)
    if job.kind in (Job.Kind.RESULTS_REPORT, Job.Kind.CHAMPIONSHIP_REPORT):
        return reports.run_results_report(job, progress)
    if job.kind == Job.Kind.SEATING:
        return seating.run_seating(job, progress)
    if job.kind == Job.Kind.PLAYER_IMPORT:
        return player_import.run_player_import(job, progress)
    raise ServiceError(_("Unknown job."))


def sheets_file_name(job: Job) -> str:
    fmt = "pdf" if job.kind == Job.Kind.SHEETS_PDF else "xlsx"
    parts = [job.tournament.slug]
    if job.params.get("round") is not None:
        parts.append(f"position-{job.params['round']}")
    if job.params.get("blank"):
        parts.append("vierge")
    return "-".join(parts) + "." + fmt


def _step() -> None:
    """Tests only: a pause after each sheet, so a test can stop a worker mid-job."""
    if settings.TESTING and settings.JOBS_TEST_STEP_SECONDS:
        time.sleep(settings.JOBS_TEST_STEP_SECONDS)


def _sheets(job: Job, progress: Progress) -> Outcome:
    tournament = job.tournament
    tables = tables_in_scope(tournament, round_number=job.params.get("round"))
    total = tables.count()
    progress(0, total)
    base = job.params.get("base_url", "").rstrip("/")

    def sheet_read(done: int) -> None:
        progress(done, total, Job.Stage.READING)

    def sheet_done(done: int) -> None:
        _step()
        progress(done, total, Job.Stage.WRITING)

    content = render_sheets(
        tournament,
        tables,
        fmt="pdf" if job.kind == Job.Kind.SHEETS_PDF else "xlsx",
        blank=bool(job.params.get("blank")),
        url_for=(lambda path: base + path) if base else str,
        progress=sheet_done,
        reading=sheet_read,
    )
    name = sheets_file_name(job)
    path = files.new_path(job.pk, name)
    files.write_file(path, content)
    return Outcome(path, name)


def _season_export(job: Job, progress: Progress) -> Outcome:
    season = job.season
    if season is None:
        raise ServiceError(_("This season no longer exists."))
    progress(0, 1)
    content = export_season_json(season)
    name = f"saison-{season.club.slug}-{season.pk}.json"
    path = files.new_path(job.pk, name)
    files.write_file(path, content)
    progress(1, 1)
    return Outcome(path, name, season)


def _season_import(job: Job, progress: Progress) -> Outcome:
    source = files.stored(job.params.get("input", ""))
    if source is None:
        raise ServiceError(_("The uploaded file is no longer there: upload it again."))
    if source.stat().st_size > season_archive.MAX_BYTES:
        raise ServiceError(season_archive.too_large_message())
    progress(0, 1)
    try:
        season = import_season_json(
            source.read_bytes(), organiser=job.started_by, merge_club=job.params.get("merge")
        )
    except ExistingClub as error:
        raise ServiceError(
            _("%(error)s Tick “Add to the existing club” and import again to add them to it.")
            % {"error": error}
        ) from None
    progress(1, 1)
    return Outcome(source, source.name, season)

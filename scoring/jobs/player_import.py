"""A player import's confirmation as a job, past ``tournaments.long_work.IMPORT_JOB_LINES``
lines: the tournament's own service (``players_import``), all or nothing; lines that turned bad
since the preview (a licence registered meanwhile) fail the job, each named with its reason."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from scoring.jobs import files
from scoring.jobs.common import Outcome, Progress, common_params
from scoring.jobs.models import Job
from scoring.jobs.services import job_start
from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.services.player_import import ImportPreview
from tournaments.views.mixins import StaffTournamentMixin
from tournaments.views.staff import import_upload

#: How many bad lines a failed job names (the rest are counted).
NAMED_LINES = 20


def preview_errors(preview: ImportPreview) -> str:
    """« Nothing was imported. Line 12: … Line 40: … » (the file's own errors first)."""
    parts = [_("Nothing was imported."), *preview.file_errors]
    bad = preview.bad_rows
    for row in bad[:NAMED_LINES]:
        parts.append(
            _("Line %(line)d: %(errors)s.") % {"line": row.line, "errors": "; ".join(row.errors)}
        )
    if len(bad) > NAMED_LINES:
        more = len(bad) - NAMED_LINES
        parts.append(ngettext("And %(n)d more line.", "And %(n)d more lines.", more) % {"n": more})
    return " ".join(parts)


def run_player_import(job: Job, progress: Progress) -> Outcome:
    source = files.stored(job.params.get("input", ""))
    if source is None:
        raise ServiceError(_("The uploaded file is no longer there: upload it again."))
    tournament, name, content = job.tournament, job.params.get("filename", ""), source.read_bytes()
    lines = job.params.get("lines") or 1
    progress(0, lines, Job.Stage.IMPORTING)
    try:  # the import checks every line again, inside its transaction
        count = services.players_import(tournament=tournament, filename=name, content=content)
    except ServiceError:
        # Lines that went bad since the preview: name them (checked once more, only then).
        preview = services.players_import_preview(
            tournament=tournament, filename=name, content=content
        )
        if not preview.ok:
            raise ServiceError(preview_errors(preview)) from None
        raise
    progress(count, max(count, lines), Job.Stage.IMPORTING)
    return Outcome(None, params={"imported": count})


class PlayerImportJobStartView(StaffTournamentMixin, View):
    """« Importer N joueurs » of a long file (the preview's button posts here then)."""

    organiser_only = True

    def post(self, request, *args, **kwargs):
        upload = import_upload(request, self.tournament)
        if upload is None:
            messages.error(request, _("Upload the file again: the preview has expired."))
            return redirect("tournaments:import", slug=self.tournament.slug)
        name, content, lines = upload
        path = files.new_path("upload", "players")
        files.write_file(path, content)
        params = {
            **common_params(request),
            "input": files.relative_name(path),
            "filename": name,
            "lines": lines,
        }
        job = job_start(
            kind=Job.Kind.PLAYER_IMPORT,
            user=request.user,
            tournament=self.tournament,
            params=params,
        )
        return redirect("jobs:job", job_id=job.pk)

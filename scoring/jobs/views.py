"""The jobs' pages: start one (a round's or the tournament's score sheets, a season's archive,
a season archive's import; the results reports, the seating and the player import start in
their own modules), follow it (a progress bar polled every 2 s with htmx), download its
file, start it again when it failed. The work is in ``runners.py``, run by the worker."""

from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.formats import number_format
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import TemplateView

from scoring import season_archive
from scoring.jobs import files
from scoring.jobs.common import common_params
from scoring.jobs.forms import SeasonImportForm
from scoring.jobs.models import Job
from scoring.jobs.selectors import job_for
from scoring.jobs.services import job_restart, job_start
from tournaments.championships.models import Championship
from tournaments.models import Round, Season
from tournaments.permissions import can_create_tournaments, may_export_season
from tournaments.views.mixins import StaffTournamentMixin

FORMATS = {"pdf": Job.Kind.SHEETS_PDF, "xlsx": Job.Kind.SHEETS_XLSX}


class SheetsJobStartView(StaffTournamentMixin, View):
    """« Préparer le PDF »: a round's or the whole tournament's score sheets, as a job."""

    def post(self, request, *args, fmt: str, number: int | None = None, **kwargs):
        if fmt not in FORMATS:
            raise Http404
        if number is not None:
            get_object_or_404(Round, tournament=self.tournament, number=number)
        params = {
            **common_params(request),
            "round": number,
            "blank": request.POST.get("vierge") == "1",
        }
        job = job_start(
            kind=FORMATS[fmt], user=request.user, tournament=self.tournament, params=params
        )
        return redirect("jobs:job", job_id=job.pk)


class SeasonArchiveJobStartView(View):
    """« Préparer l'archive de la saison »: for whoever may download it (``may_export_season``)."""

    def dispatch(self, request, *args, slug: str, season_id: int, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.season = get_object_or_404(
            Season.objects.select_related("club"), pk=season_id, club__slug=slug
        )
        if not may_export_season(request.user, self.season):
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        job = job_start(
            kind=Job.Kind.SEASON_EXPORT,
            user=request.user,
            season=self.season,
            params=common_params(request),
        )
        return redirect("jobs:job", job_id=job.pk)


class SeasonImportView(LoginRequiredMixin, TemplateView):
    """The season archive's import on the web (``manage.py import_season`` on the command line),
    as a job: the same checks, the same messages."""

    template_name = "staff/season_import.html"
    upload_limit = season_archive.MAX_BYTES + 64 * 1024

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(form=SeasonImportForm()))

    @classmethod
    def refuse_upload(cls, request, **kwargs):
        """A file over the limit, refused before it is read (by tarot_club.uploads)."""
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_create_tournaments(request.user):
            raise PermissionDenied
        view = cls()
        view.setup(request)
        form = SeasonImportForm(data={}, files={})
        form.is_valid()
        form.errors["file"] = form.error_class([season_archive.too_large_message()])
        return view.render_to_response(view.get_context_data(form=form), status=413)

    def post(self, request, *args, **kwargs):
        form = SeasonImportForm(request.POST, request.FILES)
        if form.is_valid() and form.cleaned_data["file"].size > season_archive.MAX_BYTES:
            form.add_error("file", season_archive.too_large_message())
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=422)
        path = files.new_path("upload", "season.json")
        with path.open("wb") as out:
            for chunk in form.cleaned_data["file"].chunks():
                out.write(chunk)
        params = {
            **common_params(request),
            "merge": form.cleaned_data["merge"],
            "input": files.relative_name(path),
        }
        job = job_start(kind=Job.Kind.SEASON_IMPORT, user=request.user, params=params)
        return redirect("jobs:job", job_id=job.pk)


def progress_text(job: Job) -> str:
    """« 312 feuilles sur 2 000 » (sheets laid out), after « lecture des feuilles : … »; the
    other kinds name their step while they run (a seating's bar counts its search)."""
    if job.kind not in (Job.Kind.SHEETS_PDF, Job.Kind.SHEETS_XLSX):
        return job.get_stage_display() if job.stage and not job.finished else ""
    if not job.total:
        return ""
    numbers = {
        "done": number_format(job.done, force_grouping=True),
        "total": number_format(job.total, force_grouping=True),
    }
    if job.stage == Job.Stage.READING and not job.finished:
        return (
            ngettext(
                "reading the sheets: %(done)s of %(total)s",
                "reading the sheets: %(done)s of %(total)s",
                job.done,
            )
            % numbers
        )
    return (
        ngettext("%(done)s sheet of %(total)s", "%(done)s sheets of %(total)s", job.done) % numbers
    )


def _context(request, job: Job) -> dict:
    return {"job": job, "progress_text": progress_text(job)}


class JobMixin:
    def dispatch(self, request, *args, job_id: int, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.job = job_for(request.user, job_id)
        return super().dispatch(request, *args, **kwargs)


class JobView(JobMixin, View):
    def get(self, request, *args, **kwargs):
        context = _context(request, self.job)
        context["tournament"] = self.job.tournament
        if self.job.kind == Job.Kind.CHAMPIONSHIP_REPORT:
            # The way back to the championship's page (gone if it was deleted meanwhile).
            context["championship"] = Championship.objects.filter(
                pk=self.job.params.get("championship")
            ).first()
        response = render(request, "staff/job.html", context)
        add_never_cache_headers(response)
        return response


class JobProgressView(JobMixin, View):
    """The part of the job's page that htmx asks for every 2 s while the job runs."""

    def get(self, request, *args, **kwargs):
        response = render(request, "staff/_job_progress.html", _context(request, self.job))
        add_never_cache_headers(response)
        return response


class JobFileView(JobMixin, View):
    def get(self, request, *args, **kwargs):
        path = files.stored(self.job.result_path) if self.job.status == Job.Status.DONE else None
        if path is None or self.job.kind == Job.Kind.SEASON_IMPORT:
            raise Http404
        inline = self.job.kind == Job.Kind.SHEETS_PDF
        response = FileResponse(
            path.open("rb"), as_attachment=not inline, filename=self.job.result_name
        )
        add_never_cache_headers(response)
        return response


class JobRestartView(JobMixin, View):
    """« Relancer »: a failed job, from the start."""

    def post(self, request, *args, **kwargs):
        if self.job.status == Job.Status.FAILED:
            job_restart(job=self.job)
        return redirect("jobs:job", job_id=self.job.pk)

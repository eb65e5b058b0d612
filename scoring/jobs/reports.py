"""The results reports as jobs: a tournament's (``scoring.results_report``) and a championship's
(``scoring.championship_report``), in JSON or CSV (``docs/results-report.md``). Both hold
licences and years of birth: their organisers only start them and read them."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View

from scoring.championship_report import championship_csv, championship_report
from scoring.documents.results_report import to_csv, to_json
from scoring.jobs import files
from scoring.jobs.common import Outcome, Progress, common_params
from scoring.jobs.models import Job
from scoring.jobs.services import job_start
from scoring.results_report import results_report
from tarot_club.errors import ServiceError
from tournaments.championships.models import Championship
from tournaments.championships.selectors import organised_championship
from tournaments.views.mixins import StaffTournamentMixin

FORMATS = ("json", "csv")


def run_results_report(job: Job, progress: Progress) -> Outcome:
    """Two steps: the report gathered from the database, then its text written."""
    fmt = job.params["fmt"]
    progress(0, 2, Job.Stage.GATHERING)
    if job.kind == Job.Kind.RESULTS_REPORT:
        report = results_report(job.tournament)
        progress(1, 2, Job.Stage.FILE)
        body = to_json(report) if fmt == "json" else to_csv(report)
        slug = job.tournament.slug
    else:
        championship = Championship.objects.filter(pk=job.params.get("championship")).first()
        if championship is None:
            raise ServiceError(_("This championship no longer exists."))
        report = championship_report(championship)
        progress(1, 2, Job.Stage.FILE)
        body = to_json(report) if fmt == "json" else championship_csv(report)
        slug = championship.slug
    name = f"rapport-{slug}.{fmt}"
    path = files.new_path(job.pk, name)
    files.write_file(path, body if isinstance(body, bytes) else body.encode("utf-8"))
    progress(2, 2, Job.Stage.FILE)
    return Outcome(path, name)


class ResultsReportJobStartView(StaffTournamentMixin, View):
    """« Préparer le rapport » of a tournament (its organisers)."""

    organiser_only = True

    def post(self, request, *args, fmt: str, **kwargs):
        if fmt not in FORMATS:
            raise Http404
        job = job_start(
            kind=Job.Kind.RESULTS_REPORT,
            user=request.user,
            tournament=self.tournament,
            params={**common_params(request), "fmt": fmt},
        )
        return redirect("jobs:job", job_id=job.pk)


class ChampionshipReportJobStartView(View):
    """« Préparer le rapport » of a championship (its organiser)."""

    def dispatch(self, request, *args, slug: str, fmt: str, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.championship = organised_championship(request.user, slug)
        if fmt not in FORMATS:
            raise Http404
        self.fmt = fmt
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        params = {
            **common_params(request),
            "fmt": self.fmt,
            "championship": self.championship.pk,
            "title": self.championship.name,
        }
        job = job_start(kind=Job.Kind.CHAMPIONSHIP_REPORT, user=request.user, params=params)
        return redirect("jobs:job", job_id=job.pk)

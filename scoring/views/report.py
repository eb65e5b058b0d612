"""The tournament's results report (organisers): JSON or CSV, in the project's documented format
(``docs/results-report.md``). It holds licences and years of birth, so it is never public."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404
from django.utils.cache import add_never_cache_headers
from django.views.generic import View

from scoring.championship_report import championship_csv, championship_report
from scoring.documents.results_report import to_csv, to_json
from scoring.results_report import results_report
from tournaments.championships.models import Championship
from tournaments.championships.selectors import may_organise
from tournaments.views.mixins import StaffTournamentMixin

CONTENT_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8"}


class ResultsReportView(StaffTournamentMixin, View):
    organiser_only = True

    def get(self, request, *args, fmt: str, **kwargs):
        if fmt not in CONTENT_TYPES:
            raise Http404
        report = results_report(self.tournament)
        body = to_json(report) if fmt == "json" else to_csv(report)
        response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
        response["Content-Disposition"] = (
            f'attachment; filename="rapport-{self.tournament.slug}.{fmt}"'
        )
        add_never_cache_headers(response)
        return response


def championship_report_view(request, slug: str, fmt: str):
    """A championship's report: its stages and final ranking (its organiser only)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    championship = get_object_or_404(Championship, slug=slug)
    if fmt not in CONTENT_TYPES or not may_organise(request.user, championship):
        raise Http404
    if request.method not in ("GET", "HEAD"):  # who may see it first, then the method
        return HttpResponseNotAllowed(["GET", "HEAD"])
    report = championship_report(championship)
    body = to_json(report) if fmt == "json" else championship_csv(report)
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="rapport-{championship.slug}.{fmt}"'
    add_never_cache_headers(response)
    return response

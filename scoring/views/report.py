"""The tournament's results report (organisers): JSON or CSV, in the project's documented format
(``docs/results-report.md``). It holds licences and years of birth, so it is never public."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.views.generic import View

from scoring.documents.results_report import to_csv, to_json
from scoring.results_report import results_report
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

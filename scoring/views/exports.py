"""One answer for every standings download (a tournament's, a season's): CSV, CSV for French
Excel, Excel or PDF, as an attachment named after what it holds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.http import Http404, HttpResponse

from scoring.documents import exports, xlsx
from scoring.documents.data import StandingsSection

FORMATS = ("csv", "csv-fr", "xlsx", "pdf")


def standings_response(
    fmt: str,
    *,
    name: str,
    sheet_title: str,
    pdf_title: str,
    pdf_subtitle: Callable[[], str],
    headers: list[str],
    rows: list[list],
    more: Sequence[StandingsSection] = (),
    pdf_more: Sequence[StandingsSection] | None = None,
) -> HttpResponse:
    """The standings in ``fmt`` (404 for any other), as ``name`` + its extension. ``more``
    adds sections (the team standings, the season's formula); ``pdf_more`` when the PDF
    prints other ones. ``pdf_subtitle`` is asked for only when the PDF is made."""
    more = list(more)
    if fmt == "csv":
        response = HttpResponse(exports.to_csv(headers, rows, more=more), content_type="text/csv")
        filename = f"{name}.csv"
    elif fmt == "csv-fr":
        response = HttpResponse(
            exports.to_csv(headers, rows, french=True, more=more),
            content_type="text/csv; charset=utf-8",
        )
        filename = f"{name}-excel-fr.csv"
    elif fmt == "xlsx":
        response = HttpResponse(
            exports.to_xlsx(sheet_title, headers, rows, more=more),
            content_type=xlsx.CONTENT_TYPE,
        )
        filename = f"{name}.xlsx"
    elif fmt == "pdf":
        from scoring.documents.pdf import standings_pdf

        pdf_sections = more if pdf_more is None else list(pdf_more)
        response = HttpResponse(
            standings_pdf(pdf_title, pdf_subtitle(), headers, rows, more=pdf_sections),
            content_type="application/pdf",
        )
        filename = f"{name}.pdf"
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

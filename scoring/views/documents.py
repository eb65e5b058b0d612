"""Downloads of score sheets (staff) and the public page that proves a printed sheet genuine."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views import View
from django.views.decorators.http import require_safe

from scoring.documents import xlsx
from scoring.documents.fingerprint import diff_sheets, normalize_code
from scoring.history import history_lines
from scoring.links import public_url
from scoring.models import SheetEvent, SheetSeal
from scoring.selectors import current_canonical, seat_names
from scoring.sheet_documents import render_sheets, tables_in_scope
from scoring.trust import check_seal
from tarot_club.errors import ServiceError
from tournaments.models import StaffMember
from tournaments.views.mixins import StaffTournamentMixin

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": xlsx.CONTENT_TYPE,
}


class SheetDocumentView(StaffTournamentMixin, View):
    """One table's sheet, as PDF or Excel, made in the request (small). A round's and the
    whole tournament's are background jobs (``scoring.jobs``)."""

    def get(self, request, *args, fmt: str, number: int, table_number: int, **kwargs):
        if fmt not in CONTENT_TYPES:
            raise Http404
        blank = request.GET.get("vierge") == "1"
        tables = tables_in_scope(self.tournament, round_number=number, table_number=table_number)
        try:
            content = render_sheets(
                self.tournament,
                tables,
                fmt=fmt,
                blank=blank,
                url_for=lambda path: public_url(path, request),
            )
        except ServiceError:
            raise Http404 from None
        parts = [self.tournament.slug, f"position-{number}", f"table-{table_number}"]
        if blank:
            parts.append("vierge")
        response = HttpResponse(content, content_type=CONTENT_TYPES[fmt])
        disposition = "inline" if fmt == "pdf" else "attachment"
        response["Content-Disposition"] = f'{disposition}; filename="{"-".join(parts)}.{fmt}"'
        return response


@require_safe
def verify(request):
    """The form: type the short code printed on a sheet."""
    code = normalize_code(request.GET.get("code", ""))
    if code:
        return redirect("verify_code", code=code)
    return render(request, "public/verify.html", {"asked": "code" in request.GET})


@require_safe
def verify_code(request, code: str):
    normalized = normalize_code(code)
    seal = (
        SheetSeal.objects.select_related("sheet__table__round__tournament")
        .filter(code=normalized)
        .first()
    )
    context = {"code": normalized or code, "seal": seal}
    if seal is not None:
        sheet = seal.sheet
        fingerprint, content = current_canonical(sheet)
        context.update(
            check=check_seal(seal),
            sheet=sheet,
            table=sheet.table,
            matches=fingerprint == seal.fingerprint,
            changes=diff_sheets(seal.content, content),
            later=[
                line
                for line in history_lines(
                    SheetEvent.objects.filter(sheet=sheet),
                    seat_names(sheet.table),
                    # Anyone with a code reads this page: staff by their role, not their login.
                    roles=dict(
                        StaffMember.objects.filter(
                            tournament_id=sheet.table.round.tournament_id
                        ).values_list("user_id", "role")
                    ),
                )
                if line.at > seal.sealed_at
            ],
            current_code=sheet.fingerprint,
        )
    return render(request, "public/verify.html", context, status=200 if seal else 404)

"""A tournament archive on the staff pages: download it (organisers), import one (those who may
create tournaments). The work is in :mod:`scoring.archive`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.archive import export_json, import_json
from scoring.forms import ArchiveForm
from tarot_club.errors import ServiceError
from tournaments.models import StaffMember
from tournaments.permissions import can_create_tournaments
from tournaments.views.mixins import StaffTournamentMixin


class ArchiveExportView(StaffTournamentMixin, TemplateView):
    organiser_only = True

    def get(self, request, *args, **kwargs):
        response = HttpResponse(export_json(self.tournament), content_type="application/json")
        response["Content-Disposition"] = (
            f'attachment; filename="archive-{self.tournament.slug}.json"'
        )
        add_never_cache_headers(response)  # it holds the PINs and the table links
        return response


class ArchiveImportView(LoginRequiredMixin, TemplateView):
    template_name = "tournaments/archive_import.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(form=ArchiveForm()))

    def post(self, request, *args, **kwargs):
        form = ArchiveForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                tournament = import_json(form.cleaned_data["file"].read())
            except ServiceError as error:
                form.add_error("file", str(error))
            else:
                if not StaffMember.objects.filter(
                    tournament=tournament, user=request.user
                ).exists():
                    StaffMember.objects.create(
                        tournament=tournament, user=request.user, role=StaffMember.Role.ORGANISER
                    )
                messages.success(request, _("Tournament imported."))
                return redirect("tournaments:dashboard", slug=tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)

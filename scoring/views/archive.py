"""A tournament archive on the staff pages: download it (organisers), import one (those who may
create tournaments). The work is in :mod:`scoring.archive`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from scoring.archive import MAX_BYTES, export_json, import_json, too_large_message
from scoring.forms import ArchiveForm
from scoring.season_archive import export_season_json
from scoring.trust import UnknownKeys
from tarot_club.errors import ServiceError
from tournaments.models import Season, StaffMember
from tournaments.permissions import can_create_tournaments, may_export_season
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
    template_name = "staff/archive_import.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(form=ArchiveForm()))

    # The request's whole body may hold the archive and the form around it (tarot_club.uploads).
    upload_limit = MAX_BYTES + 64 * 1024

    @classmethod
    def refuse_upload(cls, request, **kwargs):
        """A file over the limit, refused before it is read (by tarot_club.uploads)."""
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_create_tournaments(request.user):
            raise PermissionDenied
        view = cls()
        view.setup(request)
        form = ArchiveForm(data={}, files={})
        form.is_valid()
        form.errors["file"] = form.error_class([too_large_message()])
        return view.render_to_response(view.get_context_data(form=form), status=413)

    def post(self, request, *args, **kwargs):
        form = ArchiveForm(request.POST, request.FILES)
        if form.is_valid() and form.cleaned_data["file"].size > MAX_BYTES:
            form.add_error("file", too_large_message())
        unknown_keys = []
        if form.is_valid():
            try:
                tournament = import_json(
                    form.cleaned_data["file"].read(),
                    # Keys the organiser trusted on the step below, after comparing them.
                    trust=request.POST.getlist("trust")[:20],
                    user=request.user,
                )
            except UnknownKeys as error:
                unknown_keys = error.keys
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
        context = self.get_context_data(form=form, unknown_keys=unknown_keys)
        return self.render_to_response(context, status=409 if unknown_keys else 422)


class SeasonArchiveExportView(View):
    """A season's archive. It holds its tournaments' archives (PINs included), so it is for a
    club organiser who also organises every tournament of the season (``may_export_season``);
    others: 404, anonymous: the login page."""

    def dispatch(self, request, *args, slug, season_id, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.season = get_object_or_404(
            Season.objects.select_related("club"), pk=season_id, club__slug=slug
        )
        if not may_export_season(request.user, self.season):
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        season = self.season
        response = HttpResponse(export_season_json(season), content_type="application/json")
        filename = f"saison-{season.club.slug}-{season.pk}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        add_never_cache_headers(response)
        return response

"""Staff pages: organisers prepare a tournament; organisers and referees run the day."""

from __future__ import annotations

import base64
import hashlib
from html import escape

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views import View
from django.views.generic import TemplateView

from tarot_club.errors import ServiceError
from tournaments import long_work, selectors, services
from tournaments.championships.selectors import stage_of
from tournaments.forms import (
    ImportForm,
    PlayerForm,
    PlayerRecordForm,
    SeatRoundForm,
    StaffForm,
    TeamForm,
    TournamentForm,
    TournamentSettingsForm,
)
from tournaments.licensees.selectors import registration_differences
from tournaments.models import Registration, StaffMember, Tournament
from tournaments.names import in_alphabetical_order, starts_with_vowel_sound
from tournaments.permissions import can_create_tournaments, tournaments_for
from tournaments.views.checkin import can_undo
from tournaments.views.helpers import add_service_error, posted_on_to
from tournaments.views.mixins import StaffTournamentMixin

IMPORT_SESSION_KEY = "player_import"
MAX_IMPORT_BYTES = 2 * 1024 * 1024


class TournamentListView(LoginRequiredMixin, TemplateView):
    template_name = "staff/staff_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournaments"] = tournaments_for(self.request.user).order_by("-date")
        context["can_create"] = can_create_tournaments(self.request.user)
        return context


class TournamentCreateView(LoginRequiredMixin, TemplateView):
    template_name = "staff/tournament_form.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        form = TournamentForm()
        return self.render_to_response(self.get_context_data(form=form, **_deals_notice(form)))

    def post(self, request, *args, **kwargs):
        form = TournamentForm(_with_deals_choice(request.POST))
        if form.is_valid():
            try:
                tournament = services.tournament_create(
                    created_by=request.user, **form.cleaned_data
                )
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Tournament created."))
                return redirect("tournaments:dashboard", slug=tournament.slug)
        return self.render_to_response(
            self.get_context_data(form=form, **_deals_notice(form)), status=422
        )


def _with_deals_choice(data):
    """The posted settings, with the deals per round of the choice button pressed, if any (the
    notice about tables of 5 offers the nearest counts everyone can share)."""
    choice = data.get("deals_choice", "")
    if choice.isascii() and choice.isdigit() and len(choice) <= 2:
        data = data.copy()
        data["deals_per_round"] = choice
    return data


def _deals_notice(form) -> dict:
    """What a table of 5 would give its players with the deals per round the form holds."""
    value = form["deals_per_round"].value()
    try:
        deals = int(value)
    except (TypeError, ValueError):
        return {}
    if not 1 <= deals <= 30:
        return {}
    odd_tables = form["odd_tables"].value() if "odd_tables" in form.fields else None
    if odd_tables not in Tournament.OddTables.values:
        odd_tables = Tournament.OddTables.FIVE
    tournament = Tournament(deals_per_round=deals, odd_tables=odd_tables)
    return {"deals_at_five": tournament.deals_at_five, "deals": deals}


class SettingsView(StaffTournamentMixin, TemplateView):
    template_name = "staff/tournament_form.html"
    organiser_only = True

    def get(self, request, *args, **kwargs):
        form = TournamentSettingsForm(instance=self.tournament)
        return self.render_to_response(
            self.get_context_data(form=form, editing=True, **_deals_notice(form))
        )

    def post(self, request, *args, **kwargs):
        form = TournamentSettingsForm(
            _with_deals_choice(request.POST),
            instance=Tournament.objects.get(pk=self.tournament.pk),
        )
        if form.is_valid():
            try:
                services.tournament_update(tournament=self.tournament, **form.cleaned_data)
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("tournaments:dashboard", slug=self.tournament.slug)
        return self.render_to_response(
            self.get_context_data(form=form, editing=True, **_deals_notice(form)), status=422
        )


class DashboardView(StaffTournamentMixin, TemplateView):
    template_name = "staff/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.tournament
        counts = dict.fromkeys(Registration.Status.values, 0)
        for status in tournament.registrations.values_list("status", flat=True):
            counts[status] += 1
        context["counts"] = counts
        context["rounds"] = list(tournament.round_set.order_by("number"))
        try:
            selectors.next_round_check(tournament)
            context["next_round_problem"] = None
        except ServiceError as error:
            context["next_round_problem"] = str(error)
        context["seat_form"] = kwargs.get("seat_form") or SeatRoundForm(
            first_round=not context["rounds"]
        )
        context["next_number"] = number = len(context["rounds"]) + 1
        context["seat_as_job"] = long_work.seating_in_background(counts["present"], number)
        context["finish_problem"] = selectors.finish_problem(tournament)
        context["endings"] = selectors.tournament_endings(tournament)
        context["stage"] = stage_of(tournament)  # a championship's stage: link to it
        return context


class PlayersView(StaffTournamentMixin, TemplateView):
    template_name = "staff/players.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        registrations = in_alphabetical_order(selectors.registrations_for_page(self.tournament))
        duplicates = selectors.likely_duplicates(registrations)
        listed_as = registration_differences(self.tournament)  # the licensee list's name, club
        for registration in registrations:
            registration.duplicates = duplicates.get(registration.pk, [])
            registration.listed_as = listed_as.get(registration.pk, "")
        context["registrations"] = registrations
        if self.tournament.is_team_event:
            context["form"] = kwargs.get("form") or TeamForm(
                team_size=self.tournament.team_size, tournament=self.tournament
            )
        else:
            context["form"] = kwargs.get("form") or PlayerForm(tournament=self.tournament)
        context["statuses"] = Registration.Status
        context["still_registered"] = sum(
            r.status == Registration.Status.REGISTERED for r in registrations
        )
        context["can_undo_all_present"] = can_undo(self.request, self.tournament)
        return context

    def post(self, request, *args, **kwargs):
        tournament = self.tournament
        if tournament.is_team_event:
            form = TeamForm(request.POST, team_size=tournament.team_size, tournament=tournament)
        else:
            form = PlayerForm(request.POST, tournament=tournament)
        if form.is_valid():
            data = form.cleaned_data
            try:
                if tournament.is_team_event:
                    team = services.team_register(
                        tournament=tournament,
                        name=data["name"],
                        members=form.member_rows(),
                        present=data["present"],
                    )
                    registered = list(team.members.all())
                else:
                    registered = [
                        services.player_register(
                            tournament=tournament, row=form.row(), present=data["present"]
                        )
                    ]
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Registered."))
                for registration in registered:
                    _warn_duplicates(request, registration)
                return redirect("tournaments:players", slug=tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)


class CheckInView(StaffTournamentMixin, TemplateView):
    """Present / absent / withdrawn, one button per player (htmx swaps the row)."""

    template_name = "staff/_player_row.html"
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("team"),
            pk=kwargs["registration_id"],
            tournament=self.tournament,
        )
        try:
            services.registration_set_status(
                registration=registration, status=request.POST.get("status", "")
            )
        except ServiceError as error:
            messages.error(request, str(error))
        if request.htmx:
            registration = selectors.registrations_for_page(self.tournament).get(pk=registration.pk)
            return self.render_to_response(
                self.get_context_data(r=registration, statuses=Registration.Status)
            )
        return redirect("tournaments:players", slug=self.tournament.slug)


PREVIEW_CELL = 60  # characters of a cell the import preview shows (the rest is cut with …)


def _cell(text: str) -> str:
    """A preview cell, escaped and cut as ``truncatechars:60`` would (the Truncator, which is
    slow, only for the rare cell that may be too long)."""
    text = str(text)
    if len(text) > PREVIEW_CELL:
        text = Truncator(text).chars(PREVIEW_CELL)
    return escape(text)


def import_preview_rows(preview: services.ImportPreview, *, team_event: bool) -> SafeString:
    """The preview's table body, written in Python: a template loop over 5,000 lines cost
    more than the checks themselves (``bench/figures.md``)."""
    fields = ["last_name", "first_name", "club", "licence", "series", "sex", "birth_year"]
    fields += ["team"] if team_event else []
    ok = '<span class="badge ok">OK</span>'
    parts = []
    for row in preview.rows:
        cells = "".join(f"<td>{_cell(row.values.get(f, ''))}</td>" for f in fields)
        if row.ok:
            check = ok
        else:
            check = f'<span class="errors">{escape(" ; ".join(map(str, row.errors)))}</span>'
        check += "".join(f' <span class="badge warn">{escape(str(w))}</span>' for w in row.warnings)
        css = "" if row.ok else "bad"
        check = f'<td class="check">{check}</td>'
        parts.append(f'<tr class="{css}"><td>{row.line}</td>{cells}{check}</tr>')
    return mark_safe("\n    ".join(parts))  # every text above is escaped


def import_upload(request, tournament, *, keep: bool = False) -> tuple[str, bytes, int] | None:
    """The previewed file the confirm button names (its name, content and lines), forgotten
    unless ``keep``; None once expired. A long file is confirmed by a job
    (``tournaments.long_work``): its view (``scoring.jobs``) reads the file here too."""
    previews = request.session.get(IMPORT_SESSION_KEY, {})
    stored = previews.get(request.POST.get("confirm", ""))
    if not stored or stored["tournament"] != tournament.pk:
        return None
    if not keep:
        previews.pop(request.POST["confirm"], None)
        request.session[IMPORT_SESSION_KEY] = previews
    return stored["name"], base64.b64decode(stored["content"]), stored.get("lines", 0)


class ImportView(StaffTournamentMixin, TemplateView):
    """Upload → preview with every bad row and its reason → import all or nothing."""

    template_name = "staff/import.html"
    organiser_only = True

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(form=ImportForm()))

    # The request's whole body holds the file and the form around it (tarot_club.uploads).
    upload_limit = MAX_IMPORT_BYTES + 64 * 1024
    refused = False

    @classmethod
    def refuse_upload(cls, request, **kwargs):
        """A file over the limit, refused before it is read, after the usual access rules
        (anonymous: login page; a tournament outside the user's reach: 404)."""
        view = cls()
        view.setup(request, **kwargs)
        view.refused = True
        return view.dispatch(request, **kwargs)

    def post(self, request, *args, **kwargs):
        if self.refused:  # nothing of the body was read (tarot_club.uploads)
            form = ImportForm(data={}, files={})
            form.is_valid()
            form.errors["file"] = form.error_class([_("The file is larger than 2 MB.")])
            return self.render_to_response(self.get_context_data(form=form), status=413)
        if "confirm" in request.POST:
            return self._confirm(request)
        form = ImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=422)
        upload = form.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            form.add_error("file", _("The file is larger than 2 MB."))
            return self.render_to_response(self.get_context_data(form=form), status=422)
        content = upload.read()
        try:
            preview = services.players_import_preview(
                tournament=self.tournament, filename=upload.name, content=content
            )
        except ServiceError as error:
            form.add_error("file", str(error))
            return self.render_to_response(self.get_context_data(form=form), status=422)
        token = ""
        if preview.ok:
            # Each preview is kept under its own token, and the confirm button names it: an
            # older preview page imports exactly the file it showed.
            token = hashlib.sha256(content).hexdigest()[:16]
            previews = request.session.get(IMPORT_SESSION_KEY, {})
            previews = {k: v for k, v in previews.items() if k != token}
            previews[token] = {
                "tournament": self.tournament.pk,
                "name": upload.name,
                "content": base64.b64encode(content).decode(),
                "lines": len(preview.rows),
            }
            request.session[IMPORT_SESSION_KEY] = dict(list(previews.items())[-3:])
        return self.render_to_response(
            self.get_context_data(
                form=ImportForm(),
                preview=preview,
                preview_rows=import_preview_rows(preview, team_event=self.tournament.is_team_event),
                filename=upload.name,
                token=token,
                confirm_as_job=long_work.import_in_background(len(preview.rows)),
            )
        )

    def _confirm(self, request):
        upload = import_upload(request, self.tournament, keep=True)
        if upload is None:
            messages.error(request, _("Upload the file again: the preview has expired."))
            return redirect("tournaments:import", slug=self.tournament.slug)
        if long_work.import_in_background(upload[2]):  # a preview page older than the rule's
            return posted_on_to("jobs:player_import", self.tournament)
        try:
            count = services.players_import(
                tournament=self.tournament, filename=upload[0], content=upload[1]
            )
        except ServiceError as error:
            messages.error(request, str(error))
            return redirect("tournaments:import", slug=self.tournament.slug)
        request.session[IMPORT_SESSION_KEY].pop(request.POST["confirm"])  # imported: forgotten
        request.session.modified = True
        messages.success(
            request,
            ngettext("%(count)d player imported.", "%(count)d players imported.", count)
            % {"count": count},
        )
        return redirect("tournaments:players", slug=self.tournament.slug)


class StaffView(StaffTournamentMixin, TemplateView):
    template_name = "staff/staff.html"
    organiser_only = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["staff"] = self.tournament.staff.select_related("user").order_by("role")
        context["form"] = kwargs.get("form") or StaffForm()
        return context

    def post(self, request, *args, **kwargs):
        form = StaffForm(request.POST)
        if form.is_valid():
            try:
                services.referee_add(
                    tournament=self.tournament,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password"],
                    role=StaffMember.Role.REFEREE,
                )
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Referee added."))
                return redirect("tournaments:staff", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)


class PinSlipsView(StaffTournamentMixin, TemplateView):
    """Every player's PIN slip (PDF) to hand out at check-in, or one player's (``?joueur=<id>``,
    for a late arrival or a lost slip). The only document that carries PINs: never cached."""

    def get(self, request, *args, **kwargs):
        from django.utils.translation import get_language

        from scoring.documents.language import printed_in
        from scoring.documents.pdf import pin_slips_pdf  # reportlab loads on first use

        registrations = Registration.objects.filter(tournament=self.tournament)
        name = f"{self.tournament.slug}-codes-pin.pdf"
        wanted = request.GET.get("joueur")
        if wanted is not None:
            if not wanted.isascii() or not wanted.isdigit() or len(wanted) > 18:
                raise Http404
            registrations = registrations.filter(pk=int(wanted))
            if not registrations.exists():
                raise Http404
            name = f"{self.tournament.slug}-code-pin-{wanted}.pdf"
        with printed_in(get_language()):  # the language of whoever asks
            content = pin_slips_pdf(selectors.pin_slips(self.tournament, registrations))
        response = HttpResponse(content, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{name}"'
        add_never_cache_headers(response)
        return response


class RegistrationMixin(StaffTournamentMixin):
    """A registration of the URL's tournament (another tournament's is a 404)."""

    organiser_only = True

    def get_registration(self) -> Registration:
        return get_object_or_404(
            Registration, pk=self.kwargs["registration_id"], tournament=self.tournament
        )


class PlayerCorrectView(RegistrationMixin, TemplateView):
    """The organiser corrects this tournament's record of a player: name, club, licence."""

    template_name = "staff/player_correct.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        registration = self.get_registration()
        context["registration"] = registration
        context["form"] = kwargs.get("form") or PlayerRecordForm(
            initial={
                "last_name": registration.last_name,
                "first_name": registration.first_name,
                "club": registration.club_name,
                "licence": registration.licence,
                "series": registration.series,
                "sex": registration.sex,
                "birth_year": registration.birth_year or "",
            },
            tournament=self.tournament,
            current_series=registration.series,
        )
        return context

    def post(self, request, *args, **kwargs):
        registration = self.get_registration()
        form = PlayerRecordForm(
            request.POST, tournament=self.tournament, current_series=registration.series
        )
        if form.is_valid():
            try:
                corrected = services.registration_correct(registration=registration, row=form.row())
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("%(name)s corrected.") % {"name": corrected.full_name})
                _warn_duplicates(request, corrected)
                return redirect("tournaments:players", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)


class PlayerRemoveView(RegistrationMixin, View):
    """Remove a player registered by mistake (never seated)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        registration = self.get_registration()
        try:
            services.registration_remove(registration=registration)
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _removed_message(registration.full_name))
        return redirect("tournaments:players", slug=self.tournament.slug)


class PlayerMergeView(RegistrationMixin, View):
    """Merge a likely duplicate (``registration``) into the registration ``into``."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        registration = self.get_registration()
        wanted = request.POST.get("into", "")
        if not (wanted.isascii() and wanted.isdigit() and len(wanted) <= 18):
            raise Http404
        into = get_object_or_404(Registration, pk=int(wanted), tournament=self.tournament)
        try:
            kept = services.registration_merge(registration=registration, into=into)
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(gone)s merged into %(kept)s.")
                % {"gone": registration.full_name, "kept": kept.full_name},
            )
        return redirect("tournaments:players", slug=self.tournament.slug)


def _removed_message(name: str) -> str:
    """« Inscription d'Élodie Leroy supprimée. », « Inscription de Léa Martin supprimée. »"""
    if starts_with_vowel_sound(name):
        return pgettext("before a name starting with a vowel sound", "%(name)s removed.") % {
            "name": name
        }
    return _("%(name)s removed.") % {"name": name}


def _warn_duplicates(request, registration: Registration) -> None:
    """Say at once that the player just registered or corrected is likely someone already
    there (the players list flags them too, with a button to merge)."""
    for other in selectors.duplicates_of(registration):
        # French elides « que » before a vowel sound: « la même personne qu'Éloïse ».
        if starts_with_vowel_sound(other.full_name):
            message = pgettext(
                "before a name starting with a vowel sound",
                "%(name)s may be the same person as %(other)s (%(details)s), already registered: "
                "if so, merge them on the list below.",
            )
        else:
            message = _(
                "%(name)s may be the same person as %(other)s (%(details)s), already registered: "
                "if so, merge them on the list below."
            )
        messages.warning(
            request,
            message
            % {
                "name": registration.full_name,
                "other": other.full_name,
                "details": other.details or _("no club, no licence"),
            },
        )

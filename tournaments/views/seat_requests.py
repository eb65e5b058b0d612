"""Registration for the next tournament: the public form (a player asks for a seat) and the
organiser's page of requests (confirm or refuse). The public form is never cached (it carries a
CSRF token) and never shows anyone's e-mail; the organiser's page shows each request's e-mail
(a mailto link) to the tournament's organiser. A request of the waiting list is confirmed ahead
of the seat holders only through its own button, which names who moves to the waiting list."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django.views.generic import TemplateView, View

from scoring.documents.exports import to_csv
from tarot_club.errors import ServiceError
from tarot_club.network import client_address
from tournaments import seat_request_status
from tournaments.forms import SeatRequestForm
from tournaments.models import SeatRequest, Tournament
from tournaments.names import starts_with_vowel_sound
from tournaments.services import seat_requests
from tournaments.views.helpers import add_service_error, int_or_none
from tournaments.views.mixins import StaffTournamentMixin


@require_http_methods(["GET", "HEAD", "POST"])
def ask(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    context = {"tournament": tournament, "public": True}
    if not seat_request_status.open_for_requests(tournament):
        return render(request, "public/seat_request.html", {**context, "closed": True})
    form = SeatRequestForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                queued = seat_requests.request_seat(
                    tournament=tournament, client=client_address(request), **form.cleaned_data
                )
            except ServiceError as error:
                add_service_error(form, error)
            else:
                token = seat_request_status.status_token(queued.request)
                return render(
                    request,
                    "public/seat_request_done.html",
                    {
                        **context,
                        "queued": queued,
                        "status_url": request.build_absolute_uri(
                            reverse("public:seat_request_status", args=[token])
                        ),
                    },
                )
        status = 422
    context.update(form=form, seats_left=seat_request_status.seats_left(tournament))
    return render(request, "public/seat_request.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD"])
def status(request, token):
    """The requester's private page: the request's status (seat held, waiting list N,
    confirmed, refused), through the signed link shown after asking. No e-mail on it."""
    seat_request = seat_request_status.by_status_token(token)
    if seat_request is None:
        raise Http404
    context = {
        "tournament": seat_request.tournament,
        "seat_request": seat_request,
        "place": seat_request_status.place_of(seat_request),
        "public": True,
    }
    response = render(request, "public/seat_request_status.html", context)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


class SeatRequestsView(StaffTournamentMixin, TemplateView):
    """The organiser confirms (the player is registered, ready for check-in) or refuses."""

    template_name = "staff/seat_requests.html"
    organiser_only = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        queue = seat_request_status.queue(self.tournament)
        holders = [q.request for q in queue if not q.waiting]
        context["queue"] = queue
        context["last_holder"] = holders[-1] if holders else None
        context["answered"] = SeatRequest.objects.filter(tournament=self.tournament).exclude(
            status=SeatRequest.Status.PENDING
        )
        context["seats_left"] = seat_request_status.seats_left(self.tournament)
        return context

    def post(self, request, *args, **kwargs):
        seat_request = SeatRequest.objects.filter(
            tournament=self.tournament, pk=int_or_none(request.POST.get("request"))
        ).first()
        action = request.POST.get("action")
        if seat_request is None or action not in ("confirm", "confirm_ahead", "refuse"):
            messages.error(request, _("Choose one of the requests listed."))
        else:
            try:
                if action in ("confirm", "confirm_ahead"):
                    bumped = seat_request_status.bumped_by(seat_request)
                    seat_requests.request_confirm(
                        seat_request=seat_request, bump=action == "confirm_ahead"
                    )
                    messages.success(
                        request,
                        _("%(name)s is registered.") % {"name": seat_request.full_name},
                    )
                    if bumped is not None:
                        messages.warning(
                            request,
                            _("%(name)s moves to the waiting list.") % {"name": bumped.full_name},
                        )
                else:
                    seat_requests.request_refuse(seat_request=seat_request)
                    messages.success(
                        request,
                        _refused_message(seat_request.full_name),
                    )
            except ServiceError as error:
                messages.error(request, str(error))
        return redirect("tournaments:seat_requests", slug=self.tournament.slug)


class SeatRequestsExportView(StaffTournamentMixin, View):
    """Every request as CSV for the organiser: name, licence, club, e-mail, status, place."""

    organiser_only = True

    def get(self, request, *args, **kwargs):
        places = {q.request.pk: q.waiting for q in seat_request_status.queue(self.tournament)}
        rows = []
        for r in SeatRequest.objects.filter(tournament=self.tournament).order_by(
            "created_at", "pk"
        ):
            if r.pk in places:
                place = (
                    _("waiting list %(n)s") % {"n": places[r.pk]}
                    if places[r.pk]
                    else _("seat held")
                )
            else:
                place = r.get_status_display()
            rows.append(
                [
                    r.last_name,
                    r.first_name,
                    r.licence,
                    r.club,
                    r.email,
                    place,
                    timezone.localtime(r.created_at).strftime("%Y-%m-%d %H:%M"),
                ]
            )
        headers = [
            _("last name"),
            _("first name"),
            _("FFT licence"),
            _("club"),
            _("e-mail"),
            _("Place"),
            _("sent"),
        ]
        response = HttpResponse(to_csv(headers, rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{self.tournament.slug}-demandes.csv"'
        )
        response["Cache-Control"] = "private, no-store"
        return response


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _refused_message(name: str) -> str:
    """« Demande d'Élodie Leroy refusée. », « Demande de Léa Martin refusée. »"""
    if starts_with_vowel_sound(name):
        return pgettext(
            "before a name starting with a vowel sound", "Request of %(name)s refused."
        ) % {"name": name}
    return _("Request of %(name)s refused.") % {"name": name}

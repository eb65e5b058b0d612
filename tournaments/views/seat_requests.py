"""Registration for the next tournament: the public form (a player asks for a seat) and the
organiser's page of requests (confirm or refuse). The public form is never cached (it carries a
CSRF token) and never shows anyone's e-mail; neither does the organiser's page."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods
from django.views.generic import TemplateView

from tarot_club.errors import ServiceError
from tarot_club.network import client_address
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
    if not seat_requests.open_for_requests(tournament):
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
                return render(
                    request,
                    "public/seat_request_done.html",
                    {**context, "queued": queued},
                )
        status = 422
    context.update(form=form, seats_left=seat_requests.seats_left(tournament))
    return render(request, "public/seat_request.html", context, status=status)


class SeatRequestsView(StaffTournamentMixin, TemplateView):
    """The organiser confirms (the player is registered, ready for check-in) or refuses."""

    template_name = "staff/seat_requests.html"
    organiser_only = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["queue"] = seat_requests.queue(self.tournament)
        context["answered"] = SeatRequest.objects.filter(tournament=self.tournament).exclude(
            status=SeatRequest.Status.PENDING
        )
        context["seats_left"] = seat_requests.seats_left(self.tournament)
        return context

    def post(self, request, *args, **kwargs):
        seat_request = SeatRequest.objects.filter(
            tournament=self.tournament, pk=int_or_none(request.POST.get("request"))
        ).first()
        action = request.POST.get("action")
        if seat_request is None or action not in ("confirm", "refuse"):
            messages.error(request, _("Choose one of the requests listed."))
        else:
            try:
                if action == "confirm":
                    seat_requests.request_confirm(seat_request=seat_request)
                    messages.success(
                        request,
                        _("%(name)s is registered.") % {"name": seat_request.full_name},
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


def _refused_message(name: str) -> str:
    """« Demande d'Élodie Leroy refusée. », « Demande de Léa Martin refusée. »"""
    if starts_with_vowel_sound(name):
        return pgettext(
            "before a name starting with a vowel sound", "Request of %(name)s refused."
        ) % {"name": name}
    return _("Request of %(name)s refused.") % {"name": name}

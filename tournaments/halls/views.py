"""The organiser's halls page: the halls (before round 1 is seated), whether players keep their
hall, and each referee's hall."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tarot_club.errors import ServiceError
from tournaments.halls import selectors, services
from tournaments.halls.forms import HallsForm, RefereeHallForm, halls_text
from tournaments.models import StaffMember
from tournaments.views.helpers import add_service_error
from tournaments.views.mixins import StaffTournamentMixin


class HallsView(StaffTournamentMixin, TemplateView):
    template_name = "staff/halls.html"
    organiser_only = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        halls = selectors.halls_of(self.tournament)
        context["halls"] = halls
        context["form"] = kwargs.get("form") or HallsForm(
            initial={
                "halls": halls_text(halls),
                "keep_players": selectors.keeps_players(self.tournament),
            }
        )
        context["seated"] = self.tournament.round_set.exists()
        assigned = selectors.referee_halls(self.tournament)
        context["staff"] = [
            (member, assigned.get(member.pk))
            for member in self.tournament.staff.select_related("user").order_by("role", "pk")
        ]
        return context

    def post(self, request, *args, **kwargs):
        if "staff" in request.POST:
            return self._assign(request)
        form = HallsForm(request.POST)
        if form.is_valid():
            try:
                services.halls_set(
                    tournament=self.tournament,
                    halls=form.cleaned_data["halls"],
                    keep_players=form.cleaned_data["keep_players"],
                )
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Halls saved."))
                return redirect("tournaments:halls", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)

    def _assign(self, request):
        form = RefereeHallForm(request.POST)
        back = redirect("tournaments:halls", slug=self.tournament.slug)
        if not form.is_valid():
            messages.error(request, _("Choose a hall."))
            return back
        staff = StaffMember.objects.filter(
            tournament=self.tournament, pk=form.cleaned_data["staff"]
        ).first()
        halls = {h.pk: h for h in selectors.halls_of(self.tournament)}
        wanted = form.cleaned_data["hall"]
        if staff is None or (wanted is not None and wanted not in halls):
            messages.error(request, _("Choose a hall."))
            return back
        try:
            services.referee_hall_set(staff=staff, hall=halls.get(wanted))
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Referee's hall saved."))
        return back

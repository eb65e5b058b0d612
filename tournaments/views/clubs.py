"""The staff pages of a club: its clubs list (with a new club), the club (its seasons) and a
season (its formula and its tournaments).

Policy (``tournaments/permissions.py``): anonymous → the login page; a club the user does not
organise does not exist for them (404); a new club needs the organiser permission (403).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tarot_club.errors import ServiceError
from tournaments.forms import ClubForm, ClubOrganiserForm, SeasonForm
from tournaments.models import Club, ClubClaim, Player, Season, StaffMember, Tournament
from tournaments.permissions import (
    can_create_tournaments,
    can_manage_club,
    claims_to_answer,
    clubs_for,
    may_export_season,
    registered_by,
)
from tournaments.services import clubs
from tournaments.views.helpers import add_service_error, int_or_none


def answer_claim(request) -> None:
    """« Accept » / « Refuse » on a pending claim (the clubs list and the club page)."""
    claim = claims_to_answer(request.user).filter(pk=int_or_none(request.POST.get("claim")))
    claim = claim.first()
    try:
        if claim is None:
            raise ServiceError(_("Choose one of the claims listed."))
        accept = request.POST.get("action") == "claim-accept"
        clubs.club_claim_answer(claim=claim, user=request.user, accept=accept)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        text = (
            _("%(username)s now organises %(club)s.")
            if accept
            else _("The claim of %(username)s on %(club)s is refused.")
        )
        messages.success(
            request, text % {"username": claim.claimant.get_username(), "club": claim.club.name}
        )


def _own_members(user, club_id: int) -> list:
    """The club's players as the user's own tournaments registered them (one row a player)."""
    rows = registered_by(user).filter(player__club=club_id).order_by("player", "pk")
    latest = {row.player_id: row for row in rows}
    return sorted(latest.values(), key=lambda row: (row.last_name, row.first_name, row.pk))


class ClubListView(LoginRequiredMixin, TemplateView):
    template_name = "staff/clubs.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["clubs"] = clubs_for(user)
        context.setdefault("form", ClubForm())
        context["claims_to_answer"] = claims_to_answer(user)
        # Until a claim is accepted, its club's members are only those the claimant registered.
        waiting = ClubClaim.objects.filter(claimant=user, status=ClubClaim.Status.PENDING)
        context["my_claims"] = [
            (claim, _own_members(user, claim.club_id)) for claim in waiting.select_related("club")
        ]
        return context

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") in ("claim-accept", "claim-refuse"):
            answer_claim(request)
            return redirect("tournaments:clubs")
        form = ClubForm(request.POST)
        if form.is_valid():
            try:
                club = clubs.club_create(organiser=request.user, **form.cleaned_data)
            except ServiceError as error:
                add_service_error(form, error)
            else:
                if isinstance(club, ClubClaim):
                    messages.info(
                        request,
                        _(
                            "%(club)s is already known here: your claim waits for its"
                            " organiser's answer."
                        )
                        % {"club": club.club.name},
                    )
                    return redirect("tournaments:clubs")
                messages.success(request, _("Club page created."))
                return redirect("tournaments:club", slug=club.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)


class ClubMixin:
    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.club = get_object_or_404(Club, slug=kwargs["slug"])
        if not can_manage_club(request.user, self.club):
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["club"] = self.club
        return context


class ClubView(ClubMixin, TemplateView):
    template_name = "staff/club.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["seasons"] = Season.objects.filter(club=self.club).order_by("-start")
        context.setdefault(
            "form", ClubForm(initial={"name": self.club.name, "place": self.club.place})
        )
        context.setdefault("season_form", SeasonForm(prefix="season"))
        context["organisers"] = self.club.organisers.order_by("username")
        context["claims_to_answer"] = claims_to_answer(self.request.user).filter(club=self.club)
        context.setdefault("organiser_form", ClubOrganiserForm(club=self.club, prefix="organiser"))
        # Its members: the player records that name the club (those tournaments share).
        context["members"] = Player.objects.filter(club=self.club).order_by(
            "last_name", "first_name", "pk"
        )
        return context

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action in ("claim-accept", "claim-refuse"):
            answer_claim(request)
            return redirect("tournaments:club", slug=self.club.slug)
        if action == "organiser-add":
            form = ClubOrganiserForm(request.POST, club=self.club, prefix="organiser")
            if form.is_valid():
                user = form.cleaned_data["user"]
                try:
                    clubs.club_organiser_add(club=self.club, user=user)
                except ServiceError as error:
                    add_service_error(form, error)
                else:
                    messages.success(
                        request,
                        _("%(username)s now organises the club.")
                        % {"username": user.get_username()},
                    )
                    return redirect("tournaments:club", slug=self.club.slug)
            return self.render_to_response(self.get_context_data(organiser_form=form), status=422)
        if action == "organiser-remove":
            user = self.club.organisers.filter(pk=int_or_none(request.POST.get("user"))).first()
            try:
                if user is None:
                    raise ServiceError(_("Choose one of the organisers listed."))
                clubs.club_organiser_remove(club=self.club, user=user)
            except ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request,
                    _("%(username)s no longer organises the club.")
                    % {"username": user.get_username()},
                )
                if user == request.user:
                    return redirect("tournaments:clubs")
            return redirect("tournaments:club", slug=self.club.slug)
        if action == "season":
            form = SeasonForm(request.POST, prefix="season")
            if form.is_valid():
                try:
                    season = clubs.season_create(club=self.club, **form.cleaned_data)
                except ServiceError as error:
                    add_service_error(form, error)
                else:
                    messages.success(request, _("Season created."))
                    return redirect("tournaments:season", slug=self.club.slug, season_id=season.pk)
            return self.render_to_response(self.get_context_data(season_form=form), status=422)
        form = ClubForm(request.POST)
        if form.is_valid():
            try:
                clubs.club_update(club=self.club, **form.cleaned_data)
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Club saved."))
                return redirect("tournaments:club", slug=self.club.slug)
        return self.render_to_response(self.get_context_data(form=form), status=422)


class SeasonView(ClubMixin, TemplateView):
    """A season's formula, and its tournaments: the user adds those they organise."""

    template_name = "staff/season.html"

    def _season(self) -> Season:
        return get_object_or_404(Season, club=self.club, pk=self.kwargs["season_id"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        season = self._season()
        context["season"] = season
        context.setdefault("form", SeasonForm(instance=season))
        context["tournaments"] = season.tournaments.order_by("date", "pk")
        user = self.request.user
        organised = Tournament.objects.filter(season=None)
        if not user.is_superuser:
            organised = organised.filter(staff__user=user, staff__role=StaffMember.Role.ORGANISER)
        context["addable"] = organised.order_by("-date")
        context["may_export"] = may_export_season(user, season)
        return context

    def post(self, request, *args, **kwargs):
        season = self._season()
        action = request.POST.get("action", "formula")
        if action in ("add", "remove"):
            tournament = Tournament.objects.filter(
                pk=int_or_none(request.POST.get("tournament"))
            ).first()
            if tournament is None or (action == "remove" and tournament.season_id != season.pk):
                messages.error(request, _("Choose one of the tournaments listed."))
            else:
                try:
                    clubs.tournament_season_set(
                        user=request.user,
                        tournament=tournament,
                        season=season if action == "add" else None,
                    )
                except ServiceError as error:
                    messages.error(request, str(error))
                else:
                    messages.success(request, _("Season's tournaments saved."))
            return redirect("tournaments:season", slug=self.club.slug, season_id=season.pk)
        form = SeasonForm(request.POST, instance=Season.objects.get(pk=season.pk))
        if form.is_valid():
            try:
                clubs.season_update(season=season, **form.cleaned_data)
            except ServiceError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Season saved."))
                return redirect("tournaments:season", slug=self.club.slug, season_id=season.pk)
        return self.render_to_response(self.get_context_data(form=form), status=422)

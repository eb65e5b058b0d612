"""The organiser's pages of a championship: their championships (and a new one), a
championship's stages (and a new stage), a withdrawal and an invitation at a stage's cut."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tarot_club.errors import ServiceError
from tournaments.championships import services
from tournaments.championships.forms import ChampionshipForm, InvitationForm, StageForm
from tournaments.championships.models import Championship, StageGroup
from tournaments.championships.selectors import organised_championship
from tournaments.championships.views import render_close_page, stage_for
from tournaments.models import Player, Registration
from tournaments.permissions import can_create_tournaments, tournaments_for
from tournaments.views.helpers import add_service_error


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def championship_list(request):
    if not can_create_tournaments(request.user):
        raise PermissionDenied
    form = ChampionshipForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        championship = services.championship_create(
            name=form.cleaned_data["name"], created_by=request.user
        )
        return redirect("championships:staff", slug=championship.slug)
    mine = Championship.objects.all()
    if not request.user.is_superuser:
        mine = mine.filter(created_by=request.user)
    return render(
        request,
        "championships/staff_list.html",
        {"championships": list(mine), "form": form},
        status=422 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def championship_staff(request, slug: str):
    championship = organised_championship(request.user, slug)
    free = (
        tournaments_for(request.user)
        .exclude(pk__in=StageGroup.objects.values("tournament_id"))
        .order_by("date", "name")
    )
    form = StageForm(request.POST if request.method == "POST" else None, tournaments=free)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        chosen = list(data["tournaments"])
        try:
            services.stage_add(
                championship=championship,
                name=data["name"],
                tournaments=[(t, t.name[:30] if len(chosen) > 1 else "") for t in chosen],
                cut_mode=data["cut_mode"],
                cut_value=data["cut_value"],
                scope=data["scope"],
                carry=data["carry"],
                seating=data["seating"],
            )
        except ServiceError as error:
            add_service_error(form, error)
        else:
            return redirect("championships:staff", slug=championship.slug)
    stages = list(championship.stages.order_by("number").prefetch_related("groups__tournament"))
    return render(
        request,
        "championships/staff.html",
        {"championship": championship, "stages": stages, "form": form},
        status=422 if form.errors else 200,
    )


@login_required
def stage_withdraw(request, pk: int):
    """A qualifier will not play the next stage (or, again, will)."""
    stage = stage_for(request, pk)  # others: 404 whatever the method
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    registration = get_object_or_404(
        Registration,
        pk=request.POST.get("registration") or 0,
        tournament__stage_group__stage=stage,
    )
    try:
        if request.POST.get("undo"):
            services.withdrawal_remove(stage=stage, registration=registration)
        else:
            services.withdrawal_add(stage=stage, registration=registration)
    except ServiceError as error:
        return render_close_page(request, stage, error=str(error))
    return redirect("championships:stage_close", pk=stage.pk)


@login_required
def stage_invite(request, pk: int):
    """The organiser invites a player by licence (a wildcard, or a seeded player)."""
    stage = stage_for(request, pk)  # others: 404 whatever the method
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = InvitationForm(request.POST)
    if form.is_valid():
        player = Player.objects.filter(licence=form.cleaned_data["licence"].strip()).first()
        if player is None:
            form.add_error("licence", _("No player has this licence."))
        else:
            try:
                services.invitation_add(stage=stage, player=player, kind=form.cleaned_data["kind"])
            except ServiceError as error:
                add_service_error(form, error)
            else:
                return redirect("championships:stage_close", pk=stage.pk)
    return render_close_page(request, stage, invite_form=form)

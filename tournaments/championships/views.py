"""The championship's pages: the public page of the whole championship (phone-friendly), and
the organiser's preview and close of a stage (one all-or-nothing step)."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from tarot_club.errors import ServiceError
from tournaments.championships import selectors, services
from tournaments.championships.forms import InvitationForm
from tournaments.championships.models import Championship, Stage
from tournaments.championships.rules import carried_points
from tournaments.permissions import can_organise


def _fingerprint(qualified: tuple) -> str:
    """What the preview showed, in a few characters: closing refuses if it changed since."""
    return hashlib.sha256(",".join(map(str, qualified)).encode()).hexdigest()[:16]


@require_safe
def championship_page(request, slug):
    championship = get_object_or_404(Championship, slug=slug)
    view = selectors.championship_view(championship)
    went_on = selectors.went_on(
        [state.next_stage for state in view.states if state.next_stage and state.stage.closed_at]
    )
    stages = []
    links = _Links()
    latest = {}  # player id -> their page in the latest stage they played (the final ranking)
    for state in view.states:
        public = all(g.tournament.standings_public for g in state.groups)
        names = {row.player_id: row.name for row in state.rows} | state.invited_names
        slug_of = {g.tournament_id: g.tournament.slug for g in state.groups}
        pages = {
            row.player_id: links.of(slug_of[row.tournament_id], row.registration_id)
            for row in state.rows
        }
        if public:
            latest |= pages
        stages.append(
            {
                "state": state,
                "public": public,
                "cut": selectors.cut_in_words(state.stage) if state.next_stage else "",
                "carry": selectors.carry_in_words(state.stage.carry) if state.next_stage else "",
                "ties": [selectors.tie_in_words(t, names) for t in state.cut.ties],
                "qualified": _qualified(state, names, pages, links, went_on) if public else [],
            }
        )
    final = [(place, name, latest.get(place.id, "")) for place, name in view.final]
    return render(
        request,
        "championships/championship.html",
        {"championship": championship, "stages": stages, "final": final, "public": True},
    )


class _Links:
    """A player's page address in a tournament, one ``reverse`` per tournament."""

    def __init__(self):
        self.prefixes = {}

    def of(self, slug: str, registration_id: int) -> str:
        if slug not in self.prefixes:
            self.prefixes[slug] = reverse("public:player", args=[slug, 1]).removesuffix("1/")
        return f"{self.prefixes[slug]}{registration_id}/"


def _qualified(
    state, names: dict, pages: dict, links: _Links, went_on: dict
) -> list[tuple[str, str]]:
    """Who went on (a closed stage: as registered in the next one), or goes on as things
    stand: (name, their player's page in the stage, or in the next one for an invited
    player)."""
    if state.next_stage is None:
        return []
    if state.stage.closed_at:
        return [
            (name, pages.get(player_id) or links.of(slug, pk))
            for player_id, name, slug, pk in went_on[state.next_stage.pk]
        ]
    return [(names.get(p, ""), pages.get(p, "")) for p in state.cut.qualified]


def stage_for(request, pk: int) -> Stage:
    stage = get_object_or_404(Stage.objects.select_related("championship"), pk=pk)
    groups = list(stage.groups.select_related("tournament"))
    if not groups or not all(can_organise(request.user, g.tournament) for g in groups):
        raise Http404
    return stage


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def stage_close_page(request, pk: int):
    """GET: the preview (who goes on, ties, carried points, the next stage's round 1);
    POST: close, only if the qualifiers are still the ones shown."""
    stage = stage_for(request, pk)
    following = selectors.next_stage_of(stage)
    state = selectors.stage_state(stage, next_stage=following)
    error = ""
    if request.method == "POST":
        shown = request.POST.get("shown", "")
        try:
            if shown != _fingerprint(state.cut.qualified):
                raise ServiceError(
                    _("The standings changed since the preview: look at the qualifiers again.")
                )
            services.stage_close(
                stage=stage, expected=state.cut.qualified, by=request.user.get_username()
            )
        except ServiceError as refusal:
            error = str(refusal)
        else:
            messages.success(request, _("The stage is closed."))
            # Its own page says so (a public page shows no one's messages) and offers the
            # reopening while the next stage has not started.
            return redirect("championships:stage_close", pk=stage.pk)
    return render_close_page(request, stage, state=state, error=error)


@login_required
def stage_reopen(request, pk: int):
    """Reopen the last closed stage while the next one has not started (refused, saying why,
    otherwise)."""
    stage = stage_for(request, pk)  # others: 404 whatever the method
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        services.stage_reopen(stage=stage, by=request.user.get_username())
    except ServiceError as refusal:
        return render_close_page(request, stage, error=str(refusal))
    messages.success(request, _("The stage is open again."))
    return redirect("championships:stage_close", pk=stage.pk)


def render_close_page(request, stage, *, state=None, error: str = "", invite_form=None):
    """The preview page, with a refusal (422) when there is one."""
    if state is None:
        state = selectors.stage_state(stage, next_stage=selectors.next_stage_of(stage))
    following = state.next_stage
    names = {row.player_id: row.name for row in state.rows} | state.invited_names
    rows = {row.player_id: row for row in state.rows}
    withdrawn = [row for row in state.rows if row.declined]
    preview = [
        {
            "name": names.get(player_id, ""),
            "registration": rows[player_id].registration_id if player_id in rows else None,
            "rank": rows[player_id].rank if player_id in rows else None,
            "total": rows[player_id].total if player_id in rows else None,
            "carried": carried_points(rows[player_id].total, stage.carry)
            if player_id in rows
            else 0,
        }
        for player_id in state.cut.qualified
    ]
    return render(
        request,
        "championships/stage_close.html",
        {
            "stage": stage,
            "state": state,
            "following": following,
            "preview": preview,
            "withdrawn": withdrawn,
            "cut": selectors.cut_in_words(stage),
            "carry": selectors.carry_in_words(stage.carry),
            "ties": [selectors.tie_in_words(t, names) for t in state.cut.ties],
            "replaced": [names.get(p, "") for p in state.cut.replaced],
            "shown": _fingerprint(state.cut.qualified),
            "error": error,
            "invite_form": invite_form or InvitationForm(),
            "reopen_problem": selectors.reopen_problem(stage) if stage.closed_at else None,
        },
        status=422 if error or (invite_form is not None and invite_form.errors) else 200,
    )

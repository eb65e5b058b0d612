"""Check-in for the whole list: « tous présents » (asked to confirm first) and its undo.

The ids it marked stay in the session until undone or the next « tous présents », so the players
page offers the undo to whoever did it, on that tournament only.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import TemplateView

from tarot_club.errors import ServiceError
from tournaments import selectors
from tournaments.services import checkin
from tournaments.views.mixins import StaffTournamentMixin


def undo_key(tournament) -> str:
    return f"all_present:{tournament.pk}"


def undo_entry(request, tournament) -> tuple[list[int], int | None]:
    """What « tous présents » left in the session: the ids it marked, and how many rounds were
    seated then (the undo is offered until the next round is seated)."""
    entry = request.session.get(undo_key(tournament)) or {}
    if isinstance(entry, list):  # kept by an earlier version: ids only
        return entry, None
    return list(entry.get("ids", [])), entry.get("rounds")


def can_undo(request, tournament) -> bool:
    ids, rounds = undo_entry(request, tournament)
    return bool(ids) and (rounds is None or tournament.round_set.count() == rounds)


class AllPresentView(StaffTournamentMixin, TemplateView):
    """POST without ``confirm``: the question; with it, everyone still registered is present."""

    template_name = "staff/all_present.html"
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        tournament = self.tournament
        if request.POST.get("confirm") != "1":
            count = selectors.still_registered(tournament)
            return self.render_to_response(self.get_context_data(count=count))
        changed = checkin.registrations_mark_all_present(tournament=tournament)
        request.session[undo_key(tournament)] = {
            "ids": changed,
            "rounds": tournament.round_set.count(),
        }
        messages.success(
            request,
            ngettext("%(n)d player marked present.", "%(n)d players marked present.", len(changed))
            % {"n": len(changed)},
        )
        return redirect("tournaments:players", slug=tournament.slug)


class AllPresentUndoView(StaffTournamentMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        tournament = self.tournament
        ids, rounds = undo_entry(request, tournament)
        request.session.pop(undo_key(tournament), None)
        try:
            back = checkin.registrations_undo_all_present(
                tournament=tournament, ids=ids, rounds_then=rounds
            )
        except ServiceError as error:
            messages.error(request, str(error))
            return redirect("tournaments:players", slug=tournament.slug)
        messages.success(
            request,
            ngettext("%(n)d player back to registered.", "%(n)d players back to registered.", back)
            % {"n": back},
        )
        if back < len(ids):
            messages.warning(
                request,
                _(
                    "Players seated in a round since, or marked otherwise by hand, "
                    "stay as they are."
                ),
            )
        return redirect("tournaments:players", slug=tournament.slug)

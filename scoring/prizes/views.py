"""The prize list's pages: the organiser's page (categories, prizes, the rule), the public
category standings (phones), the prize list (page, PDF, CSV, Excel), and what the standings'
exports and the TV screen add of it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.prizes import services
from scoring.prizes.exports import prize_headers, prize_rows
from scoring.prizes.forms import CategoryForm, PrizeSettingsForm, PrizesForm
from scoring.prizes.models import Category, Prize, PrizeSettings
from scoring.prizes.selectors import categories_of, category_standings, prize_list, scratch_label
from scoring.public_answers import public_page
from scoring.standings import current_standings
from scoring.views.exports import standings_response
from tarot_club.errors import ServiceError
from tournaments.views.helpers import add_service_error, int_or_none
from tournaments.views.mixins import StaffTournamentMixin


def _state(tournament, data) -> str:
    if tournament.finished:
        return _("Final standings")
    return _("Provisional standings")


def _category_key(value: str, tournament) -> str:
    """The category a page shows (``categorie``): a number, or "" for the first one."""
    number = int_or_none(value)
    return str(number) if number is not None and number > 0 else ""


def category_rows_html(tournament, rows) -> SafeString:
    """A category's table body, written in Python: a template loop over the 1,000 women of a
    2,000-player open costs more than the whole ranking (``bench/prizes.py``)."""
    link = reverse("public:player", args=[tournament.slug, 1]).removesuffix("1/")
    parts = []
    for r in rows:
        club = f'<br><small class="muted">{escape(r.club)}</small>' if r.club else ""
        parts.append(
            f'<tr><td class="num">{r.shown_rank}</td><td><a href="{link}{r.id}/">'
            f"{escape(r.name)}</a>{club}</td>"
            f'<td class="num">{escape(str(r.scratch_rank))}</td>'
            f'<td class="num strong">{r.total}</td></tr>'
        )
    return mark_safe("\n".join(parts))  # every text above is escaped


@public_page(uses={"categorie": _category_key})
def categories(request, tournament):
    """One category's standings at a time (a phone reads one; the pills lead to the others),
    and the prize list."""
    if not tournament.standings_public:
        return render(request, "public/hidden.html", {"tournament": tournament, "public": True})
    data = current_standings(tournament)
    every = category_standings(tournament, data)
    wanted = int_or_none(_category_key(request.GET.get("categorie", ""), tournament))
    shown = next((c for c in every if c.key == wanted), every[0] if every else None)
    context = {
        "tournament": tournament,
        "public": True,
        "data": data,
        "categories": every,
        "shown": shown,
        "shown_rows": category_rows_html(tournament, shown.rows) if shown else "",
        "prizes": prize_list(tournament, data),
    }
    return render(request, "public/categories.html", context)


@public_page
def prizes_export(request, tournament, fmt: str):
    """The prize list for the ceremony: PDF (CSV and Excel too), with the rule in words."""
    if not tournament.standings_public:
        raise Http404
    data = current_standings(tournament)
    prizes = prize_list(tournament, data)
    return standings_response(
        fmt,
        name=f"palmares-{tournament.slug}",
        sheet_title=_("Prize list"),
        pdf_title=_("Prize list") + " — " + tournament.name,
        pdf_subtitle=lambda: f"{_state(tournament, data)}. {prizes.rule}",
        headers=prize_headers(),
        rows=prize_rows(prizes),
    )


class PrizesStaffView(StaffTournamentMixin, TemplateView):
    """The organiser sets the categories, the prizes and the rule of the prize list."""

    template_name = "staff/prizes.html"
    organiser_only = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.tournament
        categories = categories_of(tournament)
        settings = PrizeSettings.objects.filter(tournament=tournament).first()
        initial = (
            {"cumulative": settings.cumulative, "scratch_position": settings.scratch_position}
            if settings
            else None
        )
        context["settings_form"] = kwargs.get("settings_form") or PrizeSettingsForm(initial=initial)
        context["category_form"] = kwargs.get("category_form") or CategoryForm(
            tournament=tournament
        )
        context["prizes_form"] = kwargs.get("prizes_form") or PrizesForm(categories=categories)
        context["categories"] = categories
        context["scratch"] = scratch_label()
        context["prizes"] = list(
            Prize.objects.filter(tournament=tournament).select_related("category")
        )
        context["prize_list"] = prize_list(tournament, current_standings(tournament))
        return context

    def post(self, request, *args, **kwargs):
        tournament = self.tournament
        action = request.POST.get("action", "")
        forms = {
            "settings": ("settings_form", PrizeSettingsForm(request.POST)),
            "category": ("category_form", CategoryForm(request.POST, tournament=tournament)),
            "prizes": (
                "prizes_form",
                PrizesForm(request.POST, categories=categories_of(tournament)),
            ),
        }
        try:
            if action == "remove_category":
                services.category_remove(category=self._category(request.POST.get("id")))
                return self._done(_("Category removed, with its prizes."))
            if action == "remove_prize":
                prize = get_object_or_404(
                    Prize, pk=_number(request.POST.get("id")), tournament=tournament
                )
                services.prize_remove(prize=prize)
                return self._done(_("Prize removed."))
        except ServiceError as error:
            messages.error(request, str(error))
            return redirect("tournaments:prizes", slug=tournament.slug)
        if action not in forms:
            raise Http404
        name, form = forms[action]
        if form.is_valid():
            data = form.cleaned_data
            try:
                if action == "settings":
                    services.prize_settings_set(tournament=tournament, **data)
                    return self._done(_("Prize list rule saved."))
                if action == "category":
                    services.category_add(tournament=tournament, **data)
                    return self._done(_("Category added."))
                category = self._category(data["category"]) if data["category"] else None
                services.prizes_add(
                    tournament=tournament,
                    category=category,
                    first_place=data["first_place"],
                    last_place=data["last_place"],
                    description=data["description"],
                )
                return self._done(_("Prizes added."))
            except ServiceError as error:
                add_service_error(form, error)
        return self.render_to_response(self.get_context_data(**{name: form}), status=422)

    def _category(self, value) -> Category:
        return get_object_or_404(Category, pk=_number(value), tournament=self.tournament)

    def _done(self, text: str):
        messages.success(self.request, text)
        return redirect("tournaments:prizes", slug=self.tournament.slug)


def _number(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None

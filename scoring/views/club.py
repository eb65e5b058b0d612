"""A club's public pages (no login): its page (the next tournaments, the current season), a
season's standings, a player's career at the club.

Cached like a tournament's public pages (``public_answers.cached_answer``): the version is the
club's, its seasons' and its tournaments' last change, and the day (an upcoming tournament becomes
a past one at midnight), so a change is never hidden behind a stale copy.
"""

from __future__ import annotations

import functools
from datetime import date

from django.db.models import Count, Max, Q
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.documents.data import StandingsSection
from scoring.public_answers import cached_answer
from scoring.season import (
    current_season,
    current_season_data,
    formula_in_words,
    ordinal,
    tie_break_label,
)
from scoring.views.exports import standings_response
from scoring.views.public import line_chart
from tournaments import championship
from tournaments.models import Club, Player, Registration, Season, SeatRequest, Tournament
from tournaments.ranking import rank_label
from tournaments.views.helpers import int_or_none


def club_page(view):
    @functools.wraps(view)
    @require_safe
    def wrapper(request, slug, **kwargs):
        club = (
            Club.objects.filter(slug=slug)
            .annotate(
                seasons_changed=Max("seasons__changed_at"),
                tournaments_changed=Max("seasons__tournaments__changed_at"),
                tournaments_count=Count("seasons__tournaments", distinct=True),
            )
            .first()
        )
        if club is None:
            raise Http404
        stamps = [
            club.changed_at,
            club.seasons_changed,
            club.tournaments_changed,
        ]
        version = "club-{}-{}-{}-{}-{}".format(
            club.pk,
            "-".join(f"{s.timestamp():.6f}" if s else "0" for s in stamps),
            club.tournaments_count,
            date.today().isoformat(),
            get_language(),
        )
        return cached_answer(request, version, lambda: view(request, club, **kwargs))

    return wrapper


def _seasons(club: Club) -> list[Season]:
    return list(Season.objects.filter(club=club).order_by("-start", "name"))


def _season_context(club: Club, season: Season) -> dict:
    data = current_season_data(season)
    career_url = _url_maker("public:career", club.slug, suffix=f"?saison={season.pk}")
    rows = [
        {
            "rank": s.rank,
            "tied": s.tied,
            "player": s.player,
            "url": career_url(s.player),
            "name": s.name,
            "points": s.points,
            "played": s.played,
            "tie_break": s.tie_break,
            "tie_break_label": tie_break_label(s.tie_break),
        }
        for s in data.standings()
    ]
    home_url = _url_maker("public:home")
    # Once per field size: a catalogue lookup costs a fraction of a ms, a season has 40 rows.
    players = functools.cache(lambda n: ngettext("%(n)s player", "%(n)s players", n) % {"n": n})
    played = [
        {
            "tournament": t.tournament,
            "url": home_url(t.tournament.slug),
            "counted": t.counted,
            "winners": t.winners,
            "players": players(t.field),
        }
        for t in data.tournaments
        if t.played
    ]
    return {
        "season": season,
        "data": data,
        "rows": rows,
        "formula_words": formula_in_words(data.formula),
        "played": played,
        "places_formula": data.formula.kind == "places",
    }


def _url_maker(name: str, *args, suffix: str = ""):
    """``reverse(name, args=[*args, last]) + suffix`` for many values of ``last`` (an id or a
    slug), reversed once: a reverse is not free (``bench/figures.md``), and a season page
    links each of its players and tournaments. ``last`` is put in place of a marker both
    converters accept."""
    marker = "987654321987654321"
    pattern = reverse(name, args=[*args, marker])
    before, after = pattern.rsplit(marker, 1)
    return lambda last: f"{before}{last}{after}{suffix}"


@club_page
def club_home(request, club):
    seasons = _seasons(club)
    season = current_season(seasons)
    today = date.today()
    upcoming = list(
        Tournament.objects.filter(season__club=club, date__gte=today, finished=False)
        .annotate(
            taken=Count(
                "registrations",
                filter=~Q(registrations__status=Registration.Status.WITHDRAWN),
                distinct=True,
            ),
            pending=Count(
                "seat_requests",
                filter=Q(seat_requests__status=SeatRequest.Status.PENDING),
                distinct=True,
            ),
            started=Count("round_set", distinct=True),
        )
        .order_by("date", "pk")
    )
    for tournament in upcoming:
        # Registered players and pending requests hold seats (tournaments.services.seat_requests).
        tournament.seats_left = (
            max(0, tournament.capacity - tournament.taken - tournament.pending)
            if tournament.capacity
            else None
        )
        tournament.open_for_requests = bool(tournament.capacity) and not tournament.started
    # Every season, the current one first, then the others from the latest.
    listed = [season, *(s for s in seasons if s != season)] if season is not None else seasons
    context = {"club": club, "public": True, "seasons": listed, "upcoming": upcoming}
    if season is not None:
        context.update(_season_context(club, season))
        context["rows"] = context["rows"][:10]
    return render(request, "club/home.html", context)


@club_page
def season_standings(request, club, season_id: int):
    seasons = _seasons(club)
    season = next((s for s in seasons if s.pk == season_id), None)
    if season is None:
        raise Http404
    context = {"club": club, "public": True, "seasons": seasons, **_season_context(club, season)}
    return render(request, "club/season.html", context)


@club_page
def career(request, club, player_id: int):
    player = Player.objects.filter(pk=player_id).select_related("club").first()
    if player is None:
        raise Http404
    seasons = _seasons(club)
    played_in = set(
        Registration.objects.filter(player=player, tournament__season__club=club).values_list(
            "tournament__season_id", flat=True
        )
    )
    if not played_in and player.club_id != club.pk:
        raise Http404  # neither a member nor a player of the club's seasons
    chosen = int_or_none(request.GET.get("saison"))
    shown = [s for s in seasons if s.pk in played_in]
    parts = []
    every = []
    home_url = _url_maker("public:home")
    for season in shown:
        data = current_season_data(season)
        mine = data.results_of(player.pk)
        standing = data.standing_of(player.pk)
        names = {t.tournament.pk: t for t in data.tournaments}
        lines = championship.player_lines(data.formula, mine)
        rows = [
            {
                "tournament": names[line.result.tournament].tournament,
                "url": home_url(names[line.result.tournament].tournament.slug),
                "result": line.result,
                "points": line.points,
                "counted": line.counted,
                "provisional": False,
            }
            for line in lines
        ]
        # Tournaments played but not closed: their place as it stands, marked, not counted.
        rows += [
            {
                "tournament": names[result.tournament].tournament,
                "url": home_url(names[result.tournament].tournament.slug),
                "result": result,
                "points": None,
                "counted": False,
                "provisional": True,
            }
            for result in data.provisional_results_of(player.pk)
        ]
        rows.sort(key=lambda row: (row["tournament"].date, row["tournament"].pk))
        parts.append(
            {
                "season": season,
                "standing": standing,
                "rows": rows,
                "chart": _chart(
                    [names[r.tournament].tournament for r in mine],
                    championship.progression(data.formula, mine),
                ),
                "formula_words": formula_in_words(data.formula),
            }
        )
        every.extend(mine)
    if chosen is not None:
        parts.sort(key=lambda p: p["season"].pk != chosen)
    figures = championship.Career(tuple(every))
    return render(
        request,
        "club/career.html",
        {
            "club": club,
            "public": True,
            "player": player,
            "figures": figures,
            "best_place": ordinal(figures.best_place) if figures.best_place else "",
            "parts": parts,
        },
    )


def _chart(tournaments: list[Tournament], points: list[int]) -> dict | None:
    """Season points after each tournament: points ``(x, y, n, name, date, season points)``."""
    if not points:
        return None
    extras = [
        (i + 1, t.name, t.date, p) for i, (t, p) in enumerate(zip(tournaments, points, strict=True))
    ]
    return line_chart(points, extras)


def season_table(data) -> tuple[list[str], list[list]]:
    """The season standings as export rows: rank (``2=`` when shared), player, points, played,
    then each counted tournament's points (in brackets when not among the results counted)."""
    counted = data.counted
    headers = [
        str(_("Rank")),
        str(_("Player")),
        str(_("Points")),
        str(pgettext("number of tournaments played", "Played")),
        *(f"{t.tournament.name} ({t.tournament.date:%d/%m/%Y})" for t in counted),
    ]
    column = {t.tournament.pk: index for index, t in enumerate(counted)}
    rows = []
    for standing in data.standings():
        cells: list = [None] * len(counted)
        for line in standing.lines:
            cells[column[line.result.tournament]] = (
                line.points if line.counted else f"({line.points})"
            )
        rows.append(
            [
                rank_label(standing.rank, standing.tied),
                standing.name,
                standing.points,
                standing.played,
                *cells,
            ]
        )
    return headers, rows


@club_page
def season_export(request, club, season_id: int, fmt: str):
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise Http404
    data = current_season_data(season)
    headers, rows = season_table(data)
    words = formula_in_words(data.formula)
    provisional = _provisional_words(data)
    formula = StandingsSection(
        title=str(_("How the season is ranked")),
        headers=[str(_("Formula"))],
        rows=[[line] for line in [*words, *([provisional] if provisional else [])]],
    )
    title = f"{club.name} — {season.name}"
    return standings_response(
        fmt,
        name=f"saison-{club.slug}-{season.pk}",
        sheet_title=str(_("Season standings")),
        pdf_title=title,
        pdf_subtitle=lambda: " ".join([*([provisional] if provisional else []), *words]),
        headers=headers,
        rows=rows,
        more=[formula],
        pdf_more=(),
    )


def _provisional_words(data) -> str:
    count = len(data.provisional)
    if not count:
        return ""
    return ngettext(
        "Provisional: %(n)d tournament played is not closed yet and does not count.",
        "Provisional: %(n)d tournaments played are not closed yet and do not count.",
        count,
    ) % {"n": count}

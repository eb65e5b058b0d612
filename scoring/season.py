"""A club's season from the database: its tournaments' final results, then the pure
championship code (``tournaments.championship``).

Only closed, final tournaments count: marked finished by their organiser, every round seated
closed. A tournament of the season already played but not closed is shown as provisional and
adds nothing. The season's data takes a fixed number of queries whatever the number of
tournaments and players (``standings_data_of``), and is kept per process for the season's
version (its own last change and that of each of its tournaments), like ``current_standings``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.models import FinalResults
from scoring.standings import standings_data_of
from tournaments import championship, ranking
from tournaments.models import Round, Season, Tournament


@dataclass(frozen=True)
class SeasonTournament:
    tournament: Tournament
    counted: bool  # closed and final: its results are in the championship
    played: bool  # a round was seated
    field: int  # players ranked
    winners: tuple[str, ...]  # first place (shared when tied)


@dataclass(frozen=True)
class SeasonData:
    season: Season
    formula: championship.Formula
    tournaments: list[SeasonTournament]  # by date
    results: list[championship.Result]  # of the counted tournaments, by date
    # Of the tournaments played but not closed whose standings are public, as they stand now:
    # shown as provisional on a player's career page, never counted.
    provisional_results: list[championship.Result] = field(default_factory=list)
    computed: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def provisional(self) -> list[SeasonTournament]:
        """Played but not closed: shown as provisional, not counted."""
        return [t for t in self.tournaments if t.played and not t.counted]

    @property
    def counted(self) -> list[SeasonTournament]:
        return [t for t in self.tournaments if t.counted]

    def standings(self) -> list[championship.SeasonStanding]:
        if "standings" not in self.computed:
            self.computed["standings"] = championship.season_standings(self.results, self.formula)
        return self.computed["standings"]

    def standing_of(self, player_id: int) -> championship.SeasonStanding | None:
        return next((s for s in self.standings() if s.player == player_id), None)

    def results_of(self, player_id: int) -> list[championship.Result]:
        return [r for r in self.results if r.player == player_id]

    def provisional_results_of(self, player_id: int) -> list[championship.Result]:
        return [r for r in self.provisional_results if r.player == player_id]


def season_version(season: Season) -> tuple:
    """What the season's data depends on: its own last change and its tournaments' (one query)."""
    found = Tournament.objects.filter(season=season).aggregate(
        latest=Max("changed_at"), count=Count("pk")
    )
    return (season.changed_at, found["latest"], found["count"])


def season_data(season: Season) -> SeasonData:
    """A fixed number of queries whatever the number of tournaments and players.

    A closed tournament's final standings are read as stored (``FinalResults``) while they are
    of the tournament's current version; the others (in progress, changed since, never read)
    are ranked from their seats in the same four queries (``standings_data_of``), and the
    closed ones among them are stored for the next reading.
    """
    tournaments = list(
        Tournament.objects.filter(season=season)
        .annotate(
            open_rounds=Count("round_set", filter=~Q(round_set__status=Round.Status.CLOSED)),
            seated_rounds=Count("round_set"),
        )
        .order_by("date", "pk")
    )
    for tournament in tournaments:
        tournament.counted = (
            tournament.finished and tournament.seated_rounds > 0 and not tournament.open_rounds
        )
    index = {t.pk: t for t in tournaments}
    stored = {
        final.tournament_id: final.standings
        for final in FinalResults.objects.filter(
            tournament__in=[t.pk for t in tournaments if t.counted]
        )
        if final.version == index[final.tournament_id].changed_at
    }
    ranked = [t for t in tournaments if t.pk not in stored and t.seated_rounds > 0]
    data_of = standings_data_of(ranked) if ranked else {}
    computed = {}
    for tournament in ranked:
        standings = ranking.rank(
            data_of[tournament.pk].entries, tie_breaks=tournament.tie_break_list
        )
        player_ids = data_of[tournament.pk].player_ids
        # A championship's stage counts each player's own points there: its rank may include
        # the points carried in from the stage before, the season's total does not.
        computed[tournament.pk] = [
            [player_ids[s.entry.id], s.entry.name, s.rank, s.total - s.entry.carried, s.tied]
            for s in standings
        ]
    _store_final_results([t for t in ranked if t.counted], computed)
    stored.update(computed)
    listed, results, provisional = [], [], []
    for tournament in tournaments:
        standings = stored.get(tournament.pk, [])
        shown = tournament.counted or (tournament.seated_rounds > 0 and tournament.standings_public)
        if shown:
            for player, name, place, total, tied in standings:
                (results if tournament.counted else provisional).append(
                    championship.Result(
                        tournament=tournament.pk,
                        player=player,
                        name=name,
                        place=place,
                        total=total,
                        field=len(standings),
                        tied=tied,
                    )
                )
        listed.append(
            SeasonTournament(
                tournament=tournament,
                counted=tournament.counted,
                played=tournament.seated_rounds > 0,
                field=len(standings),
                winners=tuple(name for _p, name, place, _t, _d in standings if place == 1)
                if tournament.standings_public
                else (),
            )
        )
    return SeasonData(
        season=season,
        formula=season.formula,
        tournaments=listed,
        results=results,
        provisional_results=provisional,
    )


def _store_final_results(tournaments: list[Tournament], standings: dict[int, list]) -> None:
    """Keep the final standings of closed tournaments just ranked, for the next reading (two
    queries). Another request storing the same at the same moment is harmless: whichever
    wins, both stored the same standings of the same version."""
    if not tournaments:
        return
    try:
        with transaction.atomic():
            FinalResults.objects.filter(tournament__in=[t.pk for t in tournaments]).delete()
            FinalResults.objects.bulk_create(
                FinalResults(tournament=t, version=t.changed_at, standings=standings[t.pk])
                for t in tournaments
            )
    except IntegrityError:
        pass  # stored meanwhile by another request


_recent: OrderedDict[int, tuple[tuple, SeasonData]] = OrderedDict()
_recent_lock = threading.Lock()
KEEP = 8


def current_season_data(season: Season, version: tuple | None = None) -> SeasonData:
    """The season's data as of its version, computed once per process and version."""
    version = season_version(season) if version is None else version
    with _recent_lock:
        known, data = _recent.get(season.pk, (None, None))
        if data is not None and known == version:
            _recent.move_to_end(season.pk)
            return data
    data = season_data(season)
    with _recent_lock:
        _recent[season.pk] = (version, data)
        _recent.move_to_end(season.pk)
        while len(_recent) > KEEP:
            _recent.popitem(last=False)
    return data


def forget_seasons() -> None:
    with _recent_lock:
        _recent.clear()


def current_season(seasons: list[Season], today: date | None = None) -> Season | None:
    """The season under way today, else the latest that has begun, else the next one."""
    today = today or date.today()
    under_way = [s for s in seasons if s.start <= today <= s.end]
    if under_way:
        return max(under_way, key=lambda s: s.start)
    begun = [s for s in seasons if s.start <= today]
    if begun:
        return max(begun, key=lambda s: s.start)
    return min(seasons, key=lambda s: s.start, default=None)


def formula_in_words(formula: championship.Formula) -> list[str]:
    """The formula as sentences, in the user's language: every page and export that ranks a
    season prints them."""
    lines = [_("Only closed, final tournaments count.")]
    if formula.kind == "totals":
        lines.append(
            _(
                "Each tournament counts its total: the points scored at the tables, "
                "penalties included."
            )
        )
        lines.append(
            _(
                "A championship's stage counts the points scored in it, not the points "
                "carried in from the stage before."
            )
        )
    else:
        table = ", ".join(
            _("%(place)s %(points)d") % {"place": ordinal(i + 1), "points": p}
            for i, p in enumerate(formula.place_points)
        )
        lines.append(
            _(
                "Each tournament gives points by place: %(table)s; any place after the "
                "%(last)s: 0. Tied players share the place and its points."
            )
            % {"table": table, "last": ordinal(len(formula.place_points))}
        )
        if formula.scale_to:
            lines.append(
                _(
                    "Scaled by the number of players: points × players ÷ %(k)d, "
                    "rounded to the nearest point."
                )
                % {"k": formula.scale_to}
            )
    if formula.best:
        lines.append(
            ngettext(
                "Only each player's best result counts.",
                "Only each player's %(n)d best results count.",
                formula.best,
            )
            % {"n": formula.best}
        )
    else:
        lines.append(_("Every result counts."))
    if formula.attendance_bonus:
        lines.append(
            ngettext(
                "Plus %(n)d point for each tournament played.",
                "Plus %(n)d points for each tournament played.",
                formula.attendance_bonus,
            )
            % {"n": formula.attendance_bonus}
        )
    if formula.tie_breaks:
        names = [str(TIE_BREAK_LABELS[t]) for t in formula.tie_breaks]
        lines.append(
            _("Equal points: %(tie_breaks)s (the club's choice).")
            % {"tie_breaks": _(", then ").join(names)}
        )
    else:
        lines.append(_("Equal points share the rank."))
    return lines


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th... 21st (French: 1er, 2e, 3e...)."""
    if number == 1:
        return _("1st")
    if number % 100 in (11, 12, 13):
        return _("%(n)dth") % {"n": number}
    suffix = {1: _("%(n)dst"), 2: _("%(n)dnd"), 3: _("%(n)drd")}.get(number % 10)
    return (suffix or _("%(n)dth")) % {"n": number}


def tie_break_label(name: str) -> str:
    return str(TIE_BREAK_LABELS[name]) if name else ""


TIE_BREAK_LABELS = {
    "best_place": gettext_lazy("better best place"),
    "played": gettext_lazy("more tournaments played"),
}

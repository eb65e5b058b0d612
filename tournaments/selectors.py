"""The reads of the tournaments app: what pages, documents and services look up, writing nothing.

Seating history and present players, a round's quality and a swap's warnings, the players
page and search, PIN slips, likely duplicates.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, OuterRef, Subquery
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.documents import data as doc
from tarot_club.errors import ServiceError
from tournaments import folding, long_work, seating
from tournaments.messages import repeats_sentence, seating_error
from tournaments.models import (
    Registration,
    Round,
    Seat,
    Tournament,
)
from tournaments.names import clean_name, in_alphabetical_order
from tournaments.seating import bounds


def seating_history(tournament: Tournament, before: int | None = None) -> list[list[list[int]]]:
    """Earlier rounds as lists of tables of registration ids, in round order."""
    seats = Seat.objects.filter(round__tournament=tournament)
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    rounds: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for round_number, table_number, registration_id in seats.order_by(
        "round__number", "table__number", "position"
    ).values_list("round__number", "table__number", "registration_id"):
        rounds[round_number][table_number].append(registration_id)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def teams_of(tournament: Tournament) -> dict[int, int] | None:
    if not tournament.is_team_event:
        return None
    return dict(
        Registration.objects.filter(tournament=tournament, team__isnull=False).values_list(
            "pk", "team_id"
        )
    )


def present_registrations(tournament: Tournament) -> list[int]:
    return list(
        Registration.objects.filter(
            tournament=tournament, status=Registration.Status.PRESENT
        ).values_list("pk", flat=True)
    )


def seating_is_long(tournament: Tournament, round_number: int) -> bool:
    """Whether seating round ``round_number`` of the present players is a job
    (``long_work.seating_in_background``): the seat and seat-again views ask it."""
    players = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.PRESENT
    ).count()
    return long_work.seating_in_background(players, round_number)


def next_round_check(tournament: Tournament) -> None:
    """Raise ServiceError when the next round cannot be seated, saying why — before trying."""
    rounds = list(tournament.round_set.order_by("number"))
    if tournament.finished:
        raise ServiceError(_("The tournament is finished: reopen it first to seat another round."))
    if len(rounds) >= tournament.rounds:
        raise ServiceError(
            ngettext(
                "The tournament's only round is seated.",
                "All %(rounds)d rounds are seated.",
                tournament.rounds,
            )
            % {"rounds": tournament.rounds}
        )
    if rounds and rounds[-1].status != Round.Status.CLOSED:
        raise ServiceError(
            _("Close round %(number)d before seating the next one.") % {"number": rounds[-1].number}
        )
    players = present_registrations(tournament)
    try:
        seating.check_feasible(players, teams_of(tournament), tournament.odd_tables)
    except seating.SeatingError as error:
        raise seating_error(error) from None


def round_tables(round_: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = defaultdict(list)
    for table_number, reg_id in round_.seats.order_by("table__number", "position").values_list(
        "table__number", "registration_id"
    ):
        tables[table_number].append(reg_id)
    return [tables[n] for n in sorted(tables)]


@dataclass(frozen=True)
class RoundQuality:
    sizes: list[int]
    repeats: list[tuple[str, str, int]]  # names, and how often they had met before
    teammates_together: list[tuple[str, str]]
    odd_table_unfair: list[str]
    #: One sentence saying how many repeats no seating could avoid ("" without a repeat).
    explanation: str = ""

    @property
    def repeat_count(self) -> int:
        return len(self.repeats)


def round_quality(round_: Round) -> RoundQuality:
    tournament = round_.tournament
    tables = round_tables(round_)
    history = seating_history(tournament, before=round_.number)
    teams = teams_of(tournament)
    quality = seating.quality_of(tables, history, teams, tournament.odd_tables)
    names = {r.pk: r.full_name for r in Registration.objects.filter(tournament=tournament)}
    return RoundQuality(
        sizes=quality["sizes"],
        repeats=[(names[a], names[b], times) for a, b, times in quality["repeats"]],
        teammates_together=[(names[a], names[b]) for a, b in quality["teammate_pairs"]],
        odd_table_unfair=[names[p] for p in quality["odd_table_unfair"]],
        explanation=repeats_sentence(
            bounds.explain_round(tables, history, teams), round_.seats_changed
        ),
    )


@dataclass(frozen=True)
class SwapWarnings:
    repeats: list[str]
    teammates: list[str]

    @property
    def all(self) -> list[str]:
        return self.teammates + self.repeats


def swap_warnings(*, round_: Round, first: Registration, second: Registration) -> SwapWarnings:
    """What swapping two players would cause: new repeated meetings, team-mates together."""
    tables = round_tables(round_)
    swapped = [
        [second.pk if r == first.pk else first.pk if r == second.pk else r for r in table]
        for table in tables
    ]
    history = seating_history(round_.tournament, before=round_.number)
    teams = teams_of(round_.tournament)
    before = seating.quality_of(tables, history, teams)
    after = seating.quality_of(swapped, history, teams)
    names = {r.pk: r.full_name for r in Registration.objects.filter(tournament=round_.tournament)}
    warnings = SwapWarnings(repeats=[], teammates=[])
    old_repeats = {frozenset((a, b)) for a, b, _ in before["repeats"]}
    for a, b, times in after["repeats"]:
        if frozenset((a, b)) not in old_repeats:
            warnings.repeats.append(
                ngettext(
                    "%(a)s and %(b)s have already played at one table (once).",
                    "%(a)s and %(b)s have already played at one table (%(times)d times).",
                    times,
                )
                % {"a": names[a], "b": names[b], "times": times}
            )
    old_clashes = {frozenset(p) for p in before["teammate_pairs"]}
    for a, b in after["teammate_pairs"]:
        if frozenset((a, b)) not in old_clashes:
            warnings.teammates.append(
                _("%(a)s and %(b)s are team-mates: they must not share a table.")
                % {"a": names[a], "b": names[b]}
            )
    return warnings


SEARCH_RESULTS = 20


def registrations_matching(tournament: Tournament, query: str) -> list[Registration]:
    """The registrations whose name (first and last, any order) holds every word of ``query``,
    ignoring case and accents, or whose licence is ``query``: at most :data:`SEARCH_RESULTS`,
    by name. Two queries whatever the field; the typed text never reaches the database."""
    folded = folding.fold(query)
    if len(folded) < 2:
        return []
    found = [
        pk
        for pk, first_name, last_name, licence in Registration.objects.filter(
            tournament=tournament
        ).values_list("pk", "first_name", "last_name", "licence")
        if folding.matches(folded, first_name, last_name)
        or (licence and folding.fold(licence) == folded)
    ]
    return list(Registration.objects.filter(pk__in=found[:SEARCH_RESULTS]))


def registrations_for_page(tournament: Tournament):
    """The registrations of a tournament with what the players page shows, in one query,
    by last name (explicitly: a counted query drops the model's default ordering).

    ``waiting_round`` / ``waiting_table``: where the player is seated in a round seated but
    not started, if anywhere (a player withdrawn or absent there must be swapped or the round
    seated again)."""
    waiting = Seat.objects.filter(
        registration=OuterRef("pk"), round__status=Round.Status.SEATED
    ).order_by("-round__number")
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("team")
        .annotate(
            seat_count=Count("seats"),
            waiting_round=Subquery(waiting.values("round__number")[:1]),
            waiting_table=Subquery(waiting.values("table__number")[:1]),
        )
        .order_by("last_name", "first_name", "pk")
    )


def pin_slips(tournament: Tournament, registrations=None) -> doc.PinSlips:
    """The plain data of the PIN slips: one per registration (every registration of the
    tournament when ``registrations`` is None), by last name. The only document with PINs."""
    if registrations is None:
        registrations = Registration.objects.filter(tournament=tournament)
    rows = in_alphabetical_order(registrations.select_related("team"))
    return doc.PinSlips(
        tournament=tournament.name,
        tournament_date=tournament.date,
        slips=tuple(
            doc.PinSlip(
                name=r.full_name,
                pin=r.pin,
                club=r.club_name,
                team=r.team.name if r.team else "",
            )
            for r in rows
        ),
    )


def name_key(first_name: str, last_name: str) -> str:
    """A name as duplicates are found: case, accents and punctuation ignored."""
    return folding.fold(clean_name(f"{first_name} {last_name}"))


def likely_duplicates(registrations) -> dict[int, list[Registration]]:
    """For each registration that is likely the same person as another of the list (the same
    licence, or the same name ignoring case and accents), those others. No query: the caller
    reads the registrations once (the players page does)."""
    groups: dict[tuple[str, str], list[Registration]] = defaultdict(list)
    for r in registrations:
        groups[("name", name_key(r.first_name, r.last_name))].append(r)
        if r.licence:
            groups[("licence", r.licence)].append(r)
    found: dict[int, list[Registration]] = defaultdict(list)
    for group in groups.values():
        for r in group:
            for other in group:
                if other.pk != r.pk and other not in found[r.pk]:
                    found[r.pk].append(other)
    return {pk: others for pk, others in found.items() if others}


def duplicates_of(registration: Registration) -> list[Registration]:
    """The other registrations of its tournament that are likely the same person."""
    others = Registration.objects.filter(tournament_id=registration.tournament_id)
    return likely_duplicates(list(others)).get(registration.pk, [])


# --- the end of the tournament (tournaments.services.ending) ---------------------------------

FINISHED = "finished"
REOPENED = "reopened"


def still_registered(tournament: Tournament) -> int:
    """How many players « tous présents » would mark present (tournaments.services.checkin)."""
    return tournament.registrations.filter(status=Registration.Status.REGISTERED).count()


def finish_problem(tournament: Tournament) -> str | None:
    """Why the tournament cannot be finished now, in a sentence; None when it can."""
    if tournament.finished:
        return _("The tournament is already finished.")
    open_rounds = list(
        tournament.round_set.exclude(status=Round.Status.CLOSED).values_list("number", flat=True)
    )
    if not tournament.round_set.exists():
        return _("No round has been played yet.")
    if open_rounds:
        return _(
            "Every round must be closed first: round %(n)d is not closed yet on its round page."
        ) % {"n": open_rounds[0]}
    return None


@dataclass(frozen=True)
class Ending:
    """One line of the tournament's end history."""

    action: str  # FINISHED or REOPENED
    by: str
    at: datetime | None
    reason: str

    @property
    def finished(self) -> bool:
        return self.action == FINISHED


def tournament_endings(tournament: Tournament) -> list[Ending]:
    """The ends and reopenings of the tournament, oldest first."""
    return [
        Ending(
            action=str(entry.get("action", "")),
            by=str(entry.get("by", "")),
            at=parse_datetime(str(entry.get("at", ""))),
            reason=str(entry.get("reason", "")),
        )
        for entry in tournament.finish_log
        if isinstance(entry, dict)
    ]

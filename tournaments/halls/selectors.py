"""The halls' reads: a tournament's halls, the hall a page asks for (``?salle=<slug>``), each
player's last hall, the players of a hall in a round, a referee's hall."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.halls.models import Hall, HallPlan, HallReferee
from tournaments.models import Round, Seat, Tournament
from tournaments.seating import halls as rule

#: ``?salle=toutes``: every hall, even for a referee assigned to one.
ALL_HALLS = "toutes"


def halls_of(tournament: Tournament) -> list[Hall]:
    return list(Hall.objects.filter(tournament=tournament).order_by("first_table"))


def keeps_players(tournament: Tournament) -> bool:
    plan = HallPlan.objects.filter(tournament=tournament).first()
    return True if plan is None else plan.keep_players


def hall_named(tournament: Tournament, slug: str) -> Hall | None:
    """The hall of ``?salle=<slug>``, or None (no such hall: every hall). ``tournament`` may be
    a public page's stamp (only its ``pk`` is read)."""
    if not slug or slug == ALL_HALLS:
        return None
    return Hall.objects.filter(tournament_id=tournament.pk, slug=slug).first()


def hall_slug(text: str, tournament: Tournament) -> str:
    """``?salle=`` normalised for a cache key: a hall's slug, or "" for every hall."""
    hall = hall_named(tournament, text.strip().lower()[:40])
    return hall.slug if hall else ""


def referee_hall(tournament: Tournament, user) -> Hall | None:
    """The hall ``user`` works in for this tournament, if the organiser assigned one."""
    if not getattr(user, "is_authenticated", False):
        return None
    found = (
        HallReferee.objects.filter(staff__tournament=tournament, staff__user=user)
        .select_related("hall")
        .first()
    )
    return found.hall if found else None


def referee_halls(tournament: Tournament) -> dict[int, int]:
    """Staff member id -> hall id, for the halls page."""
    return dict(
        HallReferee.objects.filter(staff__tournament=tournament).values_list("staff_id", "hall_id")
    )


def previous_halls(tournament: Tournament, *, before: int, halls: list[rule.Hall]) -> dict:
    """Each registration's hall at its last seat before round ``before`` (one query)."""
    out: dict[int, str] = {}
    seats = (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .order_by("round__number")
        .values_list("registration_id", "table__number")
    )
    for registration_id, number in seats:
        key = rule.hall_of_table(halls, number)
        if key is None:
            out.pop(registration_id, None)
        else:
            out[registration_id] = key
    return out


def hall_registrations(round_: Round, hall: Hall) -> set[int]:
    """The registrations seated in ``hall`` in ``round_`` (one query)."""
    return set(
        Seat.objects.filter(
            round=round_,
            table__number__gte=hall.first_table,
            table__number__lte=hall.last_table,
        ).values_list("registration_id", flat=True)
    )


def hall_change_warnings(round_: Round, first_id: int, second_id: int) -> list[str]:
    """The sentence warning that a swap moves two players across halls (none when it does
    not)."""
    halls = halls_of(round_.tournament)
    if not halls:
        return []
    seats = dict(
        Seat.objects.filter(round=round_, registration_id__in=[first_id, second_id]).values_list(
            "registration_id", "table__number"
        )
    )
    if len(seats) != 2:
        return []
    rules = [h.rule for h in halls]
    first, second = (
        rule.hall_of_table(rules, seats[first_id]),
        rule.hall_of_table(rules, seats[second_id]),
    )
    if first == second:
        return []
    names = {h.slug: h.name for h in halls}
    return [
        _("This swap moves each player to the other's hall (%(first)s, %(second)s).")
        % {
            "first": names.get(first, "?"),
            "second": names.get(second, "?"),
        }
    ]

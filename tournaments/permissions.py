"""Who may do what on a tournament: one place for every role check.

Policy: a tournament a staff member does not work on does not exist for them (404), so nothing
leaks about other tournaments; anonymous visitors of staff pages are sent to the login page.
"""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Club, StaffMember, Tournament

ORGANISER_PERMISSION = "tournaments.add_tournament"


def can_create_tournaments(user) -> bool:
    return user.is_authenticated and user.has_perm(ORGANISER_PERMISSION)


def staff_role(user, tournament: Tournament) -> str | None:
    """'organiser', 'referee' or None. Superusers organise everything."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return StaffMember.Role.ORGANISER
    cache = getattr(user, "_tournament_roles", None)
    if cache is None:
        cache = dict(StaffMember.objects.filter(user=user).values_list("tournament_id", "role"))
        user._tournament_roles = cache
    return cache.get(tournament.pk)


def can_run(user, tournament: Tournament) -> bool:
    """Referees and organisers run the day: check-in, seating, deal entry, signatures."""
    return staff_role(user, tournament) is not None


def can_organise(user, tournament: Tournament) -> bool:
    """Organisers also change the tournament itself, its players and its referees."""
    return staff_role(user, tournament) == StaffMember.Role.ORGANISER


def tournaments_for(user) -> QuerySet[Tournament]:
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(staff__user=user).distinct()


def can_manage_club(user, club: Club) -> bool:
    """A club's organisers manage the club, its seasons and their formula (superusers too).
    They gain no right on a tournament: its staff (above) keep those."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cache = getattr(user, "_organised_clubs", None)
    if cache is None:
        cache = set(user.organised_clubs.values_list("pk", flat=True))
        user._organised_clubs = cache
    return club.pk in cache


def clubs_for(user) -> QuerySet[Club]:
    if user.is_superuser:
        return Club.objects.exclude(slug=None)
    return Club.objects.filter(organisers=user).exclude(slug=None)


def may_export_season(user, season) -> bool:
    """A season's archive holds its tournaments' archives (players' PINs included): a club
    organiser who also organises every tournament of the season (superusers too)."""
    if not can_manage_club(user, season.club):
        return False
    return all(can_organise(user, t) for t in season.tournaments.all())

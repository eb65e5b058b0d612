"""Who may do what on a tournament: one place for every role check.

Policy: a tournament a staff member does not work on does not exist for them (404), so nothing
leaks about other tournaments; anonymous visitors of staff pages are sent to the login page.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Club, ClubClaim, Registration, StaffMember, Tournament

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


def registered_by(user):
    """The registrations made in the tournaments ``user`` organises."""
    return Registration.objects.filter(
        tournament__staff__user=user, tournament__staff__role=StaffMember.Role.ORGANISER
    )


def claims_to_answer(user) -> QuerySet[ClubClaim]:
    """The pending claims ``user`` answers: on a club they organise, or on a club nobody
    organises whose players they registered (superusers: every one). Never their own."""
    pending = ClubClaim.objects.filter(status=ClubClaim.Status.PENDING).exclude(claimant=user)
    pending = pending.select_related("club", "claimant")
    if user.is_superuser:
        return pending
    unorganised = Club.objects.filter(organisers=None).filter(
        pk__in=registered_by(user).values("player__club")
    )
    return pending.filter(Q(club__organisers=user) | Q(club__in=unorganised)).distinct()

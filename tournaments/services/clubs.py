"""Clubs and their seasons: the services behind the club's staff pages and the demo season.

A club's organisers manage the club and its seasons (``permissions.can_manage_club``); putting
a tournament in a season also needs its organiser's right on that tournament, so nobody reaches
a tournament through a club. Every change marks the club changed (its public pages are cached
on it), and a season's changes are kept in its history.
"""

from __future__ import annotations

from datetime import date as date_type

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments import championship
from tournaments.models import Club, ClubClaim, Player, Season, Tournament
from tournaments.names import clean_name
from tournaments.permissions import (
    can_create_tournaments,
    can_manage_club,
    can_organise,
    claims_to_answer,
    registered_by,
)

FORMULA_MESSAGES = {
    "kind": lambda: (_("Choose a formula."), "kind"),
    "best": lambda: (_("Count between 0 and 1000 best results."), "best"),
    "place_points.count": lambda: (
        _("Give the points of 1 to %(n)d places.") % {"n": championship.MAX_PLACES},
        "place_points",
    ),
    "place_points.range": lambda: (
        _("Points by place go from 0 to %(n)d.") % {"n": championship.MAX_POINTS},
        "place_points",
    ),
    "place_points.order": lambda: (
        _("A place cannot be worth more than the place before it."),
        "place_points",
    ),
    "scale_to": lambda: (_("Scale to between 0 and 10,000 players."), "scale_to"),
    "attendance_bonus": lambda: (
        _("The attendance bonus goes from 0 to %(n)d.") % {"n": championship.MAX_POINTS},
        "attendance_bonus",
    ),
    "tie_breaks": lambda: (_("Unknown tie-break."), "tie_breaks"),
}


def _unknown_formula_error() -> tuple[str, None]:
    return _("This formula cannot rank the season: check its numbers."), None


def _touch(club_id: int) -> None:
    Club.objects.filter(pk=club_id).update(changed_at=timezone.now())


def _unique_club_slug(name: str) -> str:
    base = slugify(name)[:70] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _clean(instance) -> None:
    try:
        instance.full_clean()
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise ServiceError(messages[0], field=None if field == "__all__" else field) from error


def _known_elsewhere(club: Club, user) -> bool:
    """Whether the club has an organiser, or members the user did not register themselves."""
    if club.organisers.exists():
        return True
    own = registered_by(user).filter(player__club=club).values("player")
    return Player.objects.filter(club=club).exclude(pk__in=own).exists()


@transaction.atomic
def club_create(
    *, name: str, place: str = "", organiser=None, ask: bool = True
) -> Club | ClubClaim:
    """A club page for a club (an existing club of the player register keeps its members).

    A club that already has an organiser, or members registered in other organisers'
    tournaments, is not taken: the organiser's claim waits for an answer (the pending
    :class:`ClubClaim` is returned) and the club stays as it is until then. ``ask=False``: a
    command run on the server (``import_season`` told to merge, the demo season)."""
    name = clean_name(name)
    club = Club.objects.select_for_update().filter(name=name).first()
    if club is not None and ask and organiser is not None and not organiser.is_superuser:
        if club.organisers.filter(pk=organiser.pk).exists():
            raise ServiceError(_("You already organise this club."), field="name")
        if _known_elsewhere(club, organiser):
            pending = ClubClaim.objects.filter(club=club, status=ClubClaim.Status.PENDING)
            if pending.filter(claimant=organiser).exists():
                raise ServiceError(
                    _("Your claim on this club is already waiting for an answer."), field="name"
                )
            return ClubClaim.objects.create(club=club, claimant=organiser, place=place)
    if club is not None and club.slug:
        raise ServiceError(_("This club already has a page."), field="name")
    if club is None:
        club = Club(name=name)
    club.slug = _unique_club_slug(name)
    club.place = place
    _clean(club)
    club.save()
    if organiser is not None:
        club.organisers.add(organiser)
        organiser.__dict__.pop("_organised_clubs", None)  # permissions' per-request cache
    return club


@transaction.atomic
def club_update(*, club: Club, **changes) -> Club:
    club = Club.objects.select_for_update().get(pk=club.pk)
    for field, value in changes.items():
        setattr(club, field, clean_name(value) if field == "name" else value)
    _clean(club)
    club.save()
    return club


def _check_formula(season: Season) -> None:
    try:
        formula = season.formula
    except ValueError as error:
        raise ServiceError(
            _("Write whole numbers separated by commas, e.g. 100, 90, 80."), field="place_points"
        ) from error
    try:
        formula.check()
    except championship.FormulaError as error:
        # A code without its sentence still gets one: a refusal, never a server error.
        message, field = FORMULA_MESSAGES.get(error.code, _unknown_formula_error)()
        raise ServiceError(message, field=field) from error
    season.place_points = ",".join(str(p) for p in formula.place_points)


SEASON_FIELDS = (
    "name",
    "start",
    "end",
    "kind",
    "best",
    "place_points",
    "scale_to",
    "attendance_bonus",
    "tie_breaks",
)


@transaction.atomic
def season_create(*, club: Club, name: str, start: date_type, end: date_type, **formula) -> Season:
    season = Season(club=club, name=clean_name(name), start=start, end=end, **formula)
    _check_formula(season)
    _clean(season)
    season.save()
    _touch(club.pk)
    return season


@transaction.atomic
def season_update(*, season: Season, **changes) -> Season:
    """Change a season's dates or formula (kept in its history); its standings follow."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    for field, value in changes.items():
        if field not in SEASON_FIELDS:
            raise ValueError(field)
        setattr(season, field, clean_name(value) if field == "name" else value)
    _check_formula(season)
    _clean(season)
    season.save()
    _touch(season.club_id)
    return season


@transaction.atomic
def tournament_season_set(*, user, tournament: Tournament, season: Season | None) -> Tournament:
    """Put a tournament in a season (or take it out). The user organises the tournament and
    the club of the season (the old one's too, when moving it); ``user=None`` is a command run
    on the server (the demo season)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None and not can_organise(user, tournament):
        raise ServiceError(_("Only the tournament's organiser can do this."))
    old = tournament.season
    for changed in (old, season):
        if user is not None and changed is not None and not can_manage_club(user, changed.club):
            raise ServiceError(_("Only the club's organisers can change its season."))
    tournament.season = season
    tournament.save()  # bumps changed_at
    for changed in {s.club_id for s in (old, season) if s is not None}:
        _touch(changed)
    for changed in (old, season):
        if changed is not None:
            Season.objects.filter(pk=changed.pk).update(changed_at=timezone.now())
    return tournament


@transaction.atomic
def club_organiser_add(*, club: Club, user) -> Club:
    """Make an account one of the club's organisers: it may create tournaments (the organiser
    permission) and is active. It gains no right on any tournament."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    if not user.is_active or not can_create_tournaments(user):
        raise ServiceError(_("Only an active organiser account can organise a club."), field="user")
    if club.organisers.filter(pk=user.pk).exists():
        raise ServiceError(
            _("%(username)s already organises this club.") % {"username": user.get_username()},
            field="user",
        )
    club.organisers.add(user)
    user.__dict__.pop("_organised_clubs", None)
    return club


@transaction.atomic
def club_organiser_remove(*, club: Club, user) -> Club:
    """Take an account off the club's organisers; the club keeps at least one."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    if not club.organisers.filter(pk=user.pk).exists():
        raise ServiceError(_("Choose one of the organisers listed."))
    if club.organisers.count() <= 1:
        raise ServiceError(_("A club keeps at least one organiser: add another one first."))
    club.organisers.remove(user)
    user.__dict__.pop("_organised_clubs", None)
    return club


@transaction.atomic
def club_claim_answer(*, claim: ClubClaim, user, accept: bool) -> ClubClaim:
    """Accept or refuse a pending claim: the claimant then organises the club (which gets its
    page if it had none) and sees all its members. The claim keeps who answered, and when."""
    claim = ClubClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != ClubClaim.Status.PENDING:
        raise ServiceError(_("This claim has already been answered."))
    if not claims_to_answer(user).filter(pk=claim.pk).exists():
        raise ServiceError(_("Only the club's organisers can answer this claim."))
    claim.status = ClubClaim.Status.ACCEPTED if accept else ClubClaim.Status.REFUSED
    claim.decided_by, claim.decided_at = user, timezone.now()
    claim.save()
    if accept:
        club = Club.objects.select_for_update().get(pk=claim.club_id)
        if not club.slug:
            club.slug = _unique_club_slug(club.name)
            club.place = club.place or claim.place
            club.save()
        club.organisers.add(claim.claimant)
        claim.claimant.__dict__.pop("_organised_clubs", None)
        _touch(club.pk)
    return claim

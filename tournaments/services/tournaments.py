"""Services for the tournament itself and its staff: create, change, delete, name referees.

Like every module of :mod:`tournaments.services`: keyword-only arguments, validation before any
write, one ``transaction.atomic`` block, and a :class:`ServiceError` with a translated message
when the user asked for something impossible — in which case nothing was written.
:func:`tournament_touch` is the one mark of a change that every cached page depends on.
"""

from __future__ import annotations

import random
from datetime import date as date_type

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import RULE_SETS
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import (
    Registration,
    Round,
    StaffMember,
    Tournament,
)
from tournaments.rows import check_length


def _unique_slug(name: str, day: date_type) -> str:
    base = slugify(f"{name}-{day:%Y-%m-%d}")[:70] or "tournoi"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def tournament_create(
    *,
    created_by: AbstractBaseUser | None,
    name: str,
    date: date_type,
    place: str = "",
    format: str = Tournament.Format.INDIVIDUAL,
    rounds: int = 5,
    deals_per_round: int = 4,
    passed_deals_count: bool = False,
    timed_rounds: bool = False,
    rule_set: str = "fft",
    visibility: str = Tournament.Visibility.DURING_PLAY,
    tie_breaks: str = "",
    seed: int | None = None,
    odd_tables: str = Tournament.OddTables.FIVE,
    seating_priority: str = Tournament.SeatingPriority.REPEATS,
    verify_url: str = "",
    homologation: str = "",
    series_list: str = limits.DEFAULT_SERIES,
) -> Tournament:
    if rule_set not in RULE_SETS:
        raise ServiceError(_("Unknown rule set."), field="rule_set")
    tournament = Tournament(
        slug=_unique_slug(name, date),
        name=name,
        date=date,
        place=place,
        format=format,
        rounds=rounds,
        deals_per_round=deals_per_round,
        passed_deals_count=passed_deals_count,
        timed_rounds=timed_rounds,
        rule_set=rule_set,
        visibility=visibility,
        tie_breaks=tie_breaks,
        odd_tables=odd_tables,
        seating_priority=seating_priority,
        verify_url=verify_url,
        homologation=homologation,
        series_list=series_list,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 10**6),
        created_by=created_by,
    )
    tournament.full_clean()
    tournament.save()
    if created_by is not None:
        StaffMember.objects.create(
            tournament=tournament, user=created_by, role=StaffMember.Role.ORGANISER
        )
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament) -> None:
    """Delete a tournament and everything in it (results first: registrations are protected
    against deletion while any result refers to them). Players stay in the register."""
    Round.objects.filter(tournament=tournament).delete()  # tables, seats, sheets, deals...
    Registration.objects.filter(tournament=tournament).delete()
    tournament.delete()


LOCKED_ONCE_SEATED = (
    "format",
    "deals_per_round",
    "passed_deals_count",
    "timed_rounds",
    "rule_set",
)


@transaction.atomic
def tournament_update(*, tournament: Tournament, **changes) -> Tournament:
    """Change a tournament's settings; what the seated rounds depend on is locked once seated."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    seated = tournament.round_set.count()
    for field, value in changes.items():
        if field in LOCKED_ONCE_SEATED and seated and getattr(tournament, field) != value:
            raise ServiceError(_("This setting cannot change once a round is seated."), field=field)
        setattr(tournament, field, value)
    if tournament.rounds < seated:
        raise ServiceError(
            ngettext("%(n)d round is already seated.", "%(n)d rounds are already seated.", seated)
            % {"n": seated},
            field="rounds",
        )
    tournament.full_clean()
    tournament.save()  # bumps changed_at: public pages show the new settings at once
    return tournament


@transaction.atomic
def referee_add(
    *, tournament: Tournament, username: str, password: str = "", role: str = "referee"
) -> StaffMember:
    """Name a referee (or co-organiser): an existing account, or a new one with a password."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        if not password:
            raise ServiceError(
                _("No account named “%(username)s”: give a password to create it.")
                % {"username": username},
                field="password",
            )
        user = User(username=username)
        _validate_new_account(user, password)
        user.set_password(password)
        user.save()
    staff, created = StaffMember.objects.get_or_create(
        tournament=tournament, user=user, defaults={"role": role}
    )
    if not created:
        raise ServiceError(
            _("%(username)s is already on this tournament's staff.") % {"username": username},
            field="username",
        )
    return staff


def _validate_new_account(user, password: str) -> None:
    """Django's username and password validators (settings.AUTH_PASSWORD_VALIDATORS): a new
    account's name is letters, digits and @ . + - _ only, its password is not "1"."""
    check_length(password, limits.PASSWORD, "password")
    username_field = user._meta.get_field(user.USERNAME_FIELD)
    try:
        username_field.clean(user.get_username(), user)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages), field="username") from None
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages), field="password") from None


def tournament_touch(*, tournament_id: int) -> None:
    """Mark the tournament as changed: the public pages, the TV screen and the documents are
    cached on its ``changed_at``, so every service that changes what they show calls this,
    inside its transaction (the one definition, for both apps)."""
    Tournament.objects.filter(pk=tournament_id).update(changed_at=timezone.now())

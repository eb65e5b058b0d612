"""The project's own services: what ``make club`` writes (tarot_club.room_accounts reads)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.management.commands.setup_demo import organiser_group
from tarot_club.room_accounts import KNOWN_PASSWORDS


def first_organiser_create(*, username: str, password: str):
    """The club's organiser account. Raises ``ValidationError`` (in the user's language) for a
    taken or empty user name, a known password or one the password validators refuse."""
    User = get_user_model()
    username = username.strip()
    if not username:
        raise ValidationError(_("Type a user name."))
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError(_("The account « %(name)s » exists already.") % {"name": username})
    if password in KNOWN_PASSWORDS:
        raise ValidationError(_("This password is the demo's: anybody can read it."))
    validate_password(password, User(username=username))
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password)
        user.groups.add(organiser_group())
    return user

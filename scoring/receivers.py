"""Scoring's answers to the tournament services' signals (:mod:`tournaments.signals`).

Connected when the app is ready (:class:`scoring.apps.ScoringConfig`).
"""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet, SheetSeal, TrustedKey
from scoring.sealing import installation_name, installation_public_key
from scoring.services import round_close_check
from tarot_club.errors import ServiceError
from tournaments.signals import registration_correcting, round_closing, round_seated


@receiver(round_seated, dispatch_uid="scoring.sheets_for_seated_round")
def sheets_for_seated_round(sender, *, round_, tables, **kwargs) -> None:
    """Every table of a round just seated gets its score sheet (and its private link)."""
    ScoreSheet.objects.bulk_create([ScoreSheet(table=table) for table in tables])


@receiver(round_closing, dispatch_uid="scoring.sheets_signed_before_closing")
def sheets_signed_before_closing(sender, *, round_, reason, **kwargs) -> None:
    """A round closes once every sheet is signed, or with the referee's reason."""
    round_close_check(round_=round_, reason=reason)


@receiver(registration_correcting, dispatch_uid="scoring.signed_names_stay")
def signed_names_stay(sender, *, registration, **kwargs) -> None:
    """The name, club and licence on a signed sheet are sealed: they never change."""
    if SheetSeal.objects.filter(sheet__table__seats__registration=registration).exists():
        raise ServiceError(
            _(
                "%(name)s has signed score sheets: the name, club and licence they signed "
                "cannot change."
            )
            % {"name": registration.full_name}
        )


@receiver(post_save, sender=SheetSeal, dispatch_uid="scoring.own_key_trusted")
def own_key_trusted(sender, *, instance, created, raw=False, **kwargs) -> None:
    """A seal made with this installation's key keeps that key trusted (scoring.trust), even
    once the key is lost and replaced."""
    if created and not raw and instance.public_key == installation_public_key():
        TrustedKey.objects.get_or_create(
            public_key=instance.public_key,
            defaults={"own": True, "name": installation_name()[:100]},
        )

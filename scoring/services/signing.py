"""Signing a complete sheet: each player with their PIN on the table's device (a PIN mistyped
too often locks that player out for a while), or the referee for a paper sheet; once every
player has signed, the sheet is sealed (its canonical content kept, signed with this
installation's key: :mod:`scoring.sealing`)."""

from __future__ import annotations

import hmac
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.documents.fingerprint import verification_code
from scoring.models import PinAttempt, ScoreSheet, SheetEvent, SheetSeal, Signature
from scoring.sealing import seal_fields
from scoring.selectors import current_canonical
from scoring.services.sheets import Actor, lock_sheet, log_event, refresh_status
from tarot_club.errors import ServiceError
from tournaments.models import Registration
from tournaments.services import tournament_touch

PIN_ATTEMPTS_ALLOWED = 5


PIN_LOCKOUT = timedelta(minutes=5)


def _signable(sheet: ScoreSheet) -> None:
    if sheet.status not in (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.AMENDED):
        raise ServiceError(_("The sheet can be signed once every deal is entered."))
    if sheet.paper_mode and sum(sheet.paper_totals) != 0:
        raise ServiceError(_("The round totals do not sum to zero."))


def _pin_locked(sheet: ScoreSheet, registration: Registration) -> bool:
    """Whether this player's PIN was mistyped too often on this sheet lately. Keyed on the
    PIN being tried, not on an address: behind a proxy every phone has the same one, and a
    guesser changing address gains nothing."""
    since = timezone.now() - PIN_LOCKOUT
    return (
        PinAttempt.objects.filter(sheet=sheet, registration=registration, at__gte=since).count()
        >= PIN_ATTEMPTS_ALLOWED
    )


def sheet_sign_with_pin(
    *, sheet: ScoreSheet, registration: Registration, pin: str, client: str, actor: Actor
) -> Signature:
    """A player confirms the sheet with their personal PIN on the table's device.

    ``client``: the device's address (:func:`tarot_club.network.client_address`), kept with a
    wrong PIN for the record; the lock is the player's on this sheet, from any device."""
    with transaction.atomic():
        sheet = lock_sheet(sheet.pk)
        if not sheet.table.seats.filter(registration=registration).exists():
            raise ServiceError(_("This player does not sit at this table."))
        if _pin_locked(sheet, registration):
            raise ServiceError(
                _(
                    "Too many wrong PINs for %(name)s: wait %(minutes)d minutes, or ask the "
                    "referee to record the signatures of the paper sheet."
                )
                % {"name": registration.full_name, "minutes": PIN_LOCKOUT.seconds // 60}
            )
        _signable(sheet)
        if not hmac.compare_digest(pin.strip().encode(), registration.pin.encode()):
            PinAttempt.objects.create(sheet=sheet, registration=registration, client=client[:64])
            # The failed attempt must survive the refusal: commit it, then refuse.
            wrong = True
        else:
            wrong = False
    if wrong:
        raise ServiceError(_("Wrong PIN for %(name)s.") % {"name": registration.full_name})
    with transaction.atomic():
        sheet = lock_sheet(sheet.pk)
        _signable(sheet)
        if sheet.signatures.filter(registration=registration, superseded_at__isnull=True).exists():
            raise ServiceError(_("%(name)s has already signed.") % {"name": registration.full_name})
        signature = Signature.objects.create(
            sheet=sheet, registration=registration, method=Signature.Method.PIN
        )
        log_event(
            sheet, actor, SheetEvent.Action.SIGNED, player=registration.full_name, method="pin"
        )
        _complete_signing(sheet)
    return signature


def sheet_sign_on_paper(*, sheet: ScoreSheet, actor: Actor) -> None:
    """The referee records that every player signed the paper sheet."""
    if actor.is_table:
        raise ServiceError(_("Only a referee records a paper signature."))
    with transaction.atomic():
        sheet = lock_sheet(sheet.pk)
        _signable(sheet)
        signed = set(
            sheet.signatures.filter(superseded_at__isnull=True).values_list(
                "registration_id", flat=True
            )
        )
        for seat in sheet.table.seats.all():
            if seat.registration_id not in signed:
                Signature.objects.create(
                    sheet=sheet,
                    registration_id=seat.registration_id,
                    method=Signature.Method.PAPER,
                    recorded_by=actor.user,
                )
        log_event(sheet, actor, SheetEvent.Action.SIGNED, method="paper")
        _complete_signing(sheet)


def _complete_signing(sheet: ScoreSheet) -> None:
    seated = set(sheet.table.seats.values_list("registration_id", flat=True))
    signed = set(
        sheet.signatures.filter(superseded_at__isnull=True).values_list(
            "registration_id", flat=True
        )
    )
    if seated <= signed:
        sheet.status = ScoreSheet.Status.SIGNED
        sheet.signed_at = timezone.now()
        sheet.save()
        sheet.fingerprint = _seal(sheet)
        refresh_status(sheet)
        tournament_touch(tournament_id=sheet.table.round.tournament_id)


def _seal(sheet: ScoreSheet) -> str:
    """Fingerprint the sheet as stored now, and keep its canonical content as a seal signed
    with this installation's key (scoring.sealing)."""
    fp, content = current_canonical(sheet)
    if not SheetSeal.objects.filter(fingerprint=fp).exists():
        SheetSeal.objects.create(
            sheet=sheet,
            fingerprint=fp,
            code=verification_code(fp),
            content=content,
            **seal_fields(content),
        )
    return fp

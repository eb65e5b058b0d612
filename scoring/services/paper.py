"""A table's paper sheet (the referee types each player's round total) and the referee's
penalties: each a service in one short transaction, logged on the sheet."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import Penalty, ScoreSheet, SheetEvent
from scoring.services.sheets import (
    Actor,
    amend,
    change_voids_signatures,
    lock_sheet,
    log_event,
    refresh_status,
    signatures_stand,
    write_paper_score_rows,
)
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Registration
from tournaments.services import check_length, tournament_touch


def paper_totals_record(
    *, sheet: ScoreSheet, totals: list[int], actor: Actor, reason: str = ""
) -> ScoreSheet:
    """A table that kept a paper sheet: the referee types each player's round total."""
    if actor.is_table:
        raise ServiceError(_("Only a referee enters the totals of a paper sheet."))
    with transaction.atomic():
        sheet = lock_sheet(sheet.pk)
        size = sheet.table.seats.count()
        voids_signatures = change_voids_signatures(sheet, actor, reason)
        if sheet.deals.exists():
            raise ServiceError(_("Deals are already entered for this table: correct them instead."))
        if len(totals) != size:
            raise ServiceError(_("Enter one total per player."))
        if sum(totals) != 0:
            raise ServiceError(
                _("The round totals must sum to zero; they sum to %(sum)d. Check the sheet.")
                % {"sum": sum(totals)},
                field="totals",
            )
        before = list(sheet.paper_totals)
        sheet.paper_mode = True
        sheet.paper_totals = list(totals)
        write_paper_score_rows(sheet, totals)
        if voids_signatures:
            amend(sheet)
        log_event(
            sheet,
            actor,
            SheetEvent.Action.PAPER_TOTALS,
            reason=reason,
            before=before,
            after=list(totals),
        )
        refresh_status(sheet)
        tournament_touch(tournament_id=sheet.table.round.tournament_id)
    return sheet


def penalty_add(
    *, sheet: ScoreSheet, registration: Registration, amount: int, reason: str, actor: Actor
) -> Penalty:
    if actor.is_table:
        raise ServiceError(_("Only a referee gives a penalty."))
    if not reason.strip():
        raise ServiceError(_("A penalty needs a reason."), field="reason")
    check_length(reason, limits.REASON, "reason")
    if amount == 0:
        raise ServiceError(_("A penalty of 0 points changes nothing."), field="amount")
    if amount > 0:  # the FFT rules know penalties only: points taken away, never given
        raise ServiceError(
            _(
                "A penalty takes points away: type −%(amount)s. The rules give no bonus points; "
                "a wrong score is corrected on its deal."
            )
            % {"amount": amount},
            field="amount",
        )
    with transaction.atomic():
        sheet = lock_sheet(sheet.pk)
        if not sheet.table.seats.filter(registration=registration).exists():
            raise ServiceError(_("This player does not sit at this table."), field="registration")
        # The sheet the players signed showed no such penalty: their signatures no longer
        # stand (the sealed fingerprint covers penalties) and a signed sheet shows 'amended'.
        if signatures_stand(sheet):
            amend(sheet)
            refresh_status(sheet)
        penalty = Penalty.objects.create(
            sheet=sheet,
            registration=registration,
            amount=amount,
            reason=reason.strip(),
            referee=actor.user,
        )
        log_event(
            sheet,
            actor,
            SheetEvent.Action.PENALTY,
            reason=reason,
            player=registration.full_name,
            amount=amount,
        )
        tournament_touch(tournament_id=sheet.table.round.tournament_id)
    return penalty

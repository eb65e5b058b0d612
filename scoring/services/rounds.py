"""What the sheets say about their round: closing it is refused while a sheet is unsigned
(without a reason), and calling time on a timed round stops every table where it is."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ScoreSheet, SheetEvent
from scoring.scores import counted
from scoring.services.sheets import Actor, log_event, refresh_status, refuse_if_closed, sheet_seats
from tarot_club.errors import ServiceError
from tournaments.models import Round, Table
from tournaments.services import lock_round, tournament_touch


def lock_round_sheets(round_: Round) -> list[ScoreSheet]:
    """Lock every sheet of a round being closed (or timed...), by id, after the round itself:
    no sheet service is then half-way through, and none starts before the round's change is
    committed (they wait on the round, then see it)."""
    return list(ScoreSheet.objects.select_for_update().filter(table__round=round_).order_by("pk"))


def round_close_check(*, round_: Round, reason: str) -> None:
    """Closing a round is refused while a sheet is unsigned, unless the referee gives a reason.
    ``round_`` is locked; its sheets are locked here (by id) before they are read."""
    lock_round_sheets(round_)
    unsigned = list(
        Table.objects.filter(round=round_)
        .exclude(sheet__status=ScoreSheet.Status.SIGNED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unsigned and not reason.strip():
        raise ServiceError(
            ngettext(
                "Table %(tables)s has not signed its sheet. Give a reason to close the round "
                "anyway.",
                "Tables %(tables)s have not signed their sheet. Give a reason to close the round "
                "anyway.",
                len(unsigned),
            )
            % {"tables": ", ".join(str(n) for n in unsigned)},
            field="reason",
        )


def round_call_time(*, round_: Round, actor: Actor) -> Round:
    """A timed round: the referee calls time and every table stops where it is. Each sheet is
    then complete with the deals it has (the players sign it as usual); no new deal can be
    entered, corrections still can. The round is locked first, then its sheets by id."""
    if actor.is_table:
        raise ServiceError(_("Only a referee can call time."))
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        refuse_if_closed(round_)
        tournament = round_.tournament
        if not tournament.timed_rounds:
            raise ServiceError(_("This tournament does not play timed rounds."))
        if round_.time_called_at is not None:
            raise ServiceError(_("Time was already called on this round."))
        round_.time_called_at = timezone.now()
        round_.save(update_fields=["time_called_at"])
        for sheet in lock_round_sheets(round_):
            if sheet.status not in (ScoreSheet.Status.NOT_STARTED, ScoreSheet.Status.IN_PROGRESS):
                continue  # finished before time was called: nothing changes
            sheet.table.round = round_
            status_before = sheet.status
            seats = sheet_seats(sheet)
            deals = list(sheet.deals.all())
            if not sheet.paper_mode:
                log_event(
                    sheet, actor, SheetEvent.Action.TIME_CALLED, played=counted(deals, tournament)
                )
            refresh_status(sheet, seats, deals, status_before=status_before)
        tournament_touch(tournament_id=tournament.pk)
    return round_

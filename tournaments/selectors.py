"""Reads of tournaments for pages and printed documents."""

from __future__ import annotations

from django.db.models import Prefetch
from django.urls import reverse

from scoring.documents import data as doc
from tournaments.models import Round, Seat, Table

SEAT_LETTERS = ["N", "E", "S", "O", "5"]


def round_tables(round_: Round) -> list[Table]:
    """Tables of a round with their seats, players and sheet: 2 queries."""
    return list(
        Table.objects.filter(round=round_)
        .select_related("sheet")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related(
                    "registration__player__club", "registration__team"
                ).order_by("position"),
            )
        )
        .order_by("number")
    )


def seating_plan(round_: Round, *, request=None, with_pins: bool = False) -> doc.SeatingPlan:
    """The plain data of the seating plan and table cards (PINs only on table cards)."""
    tournament = round_.tournament
    tables = []
    for table in round_tables(round_):
        url = ""
        if request is not None and hasattr(table, "sheet"):
            url = request.build_absolute_uri(reverse("table_sheet", args=[table.sheet.token]))
        tables.append(
            doc.SeatingTable(
                number=table.number,
                players=tuple(
                    doc.SheetPlayer(
                        seat=SEAT_LETTERS[seat.position],
                        name=seat.registration.player.full_name,
                        club=seat.registration.player.club.name
                        if seat.registration.player.club
                        else "",
                        licence=seat.registration.player.licence,
                        pin=seat.registration.pin if with_pins else "",
                    )
                    for seat in table.seats.all()
                ),
                sheet_url=url if with_pins else "",
            )
        )
    return doc.SeatingPlan(
        tournament=tournament.name,
        tournament_date=tournament.date,
        round_number=round_.number,
        tables=tuple(tables),
    )

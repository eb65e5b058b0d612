"""A lived-in tournament for the tests that visit every page type (accessibility, small screens).

Built through the real services, so every kind of sheet a referee meets is there:

- a team event (teams of 2), round 1 played, signed and closed;
- round 2 in progress: table 1 signed then corrected by the referee with a reason (amended),
  table 2 kept on paper (round totals, paper signatures), table 3 one deal in, a referee's
  ruling and a penalty (never signed), the last table not started; the rounds are timed;
- a club with a season of two played tournaments, the next one open for online registration
  with a request waiting for the organiser.

``build_scene()`` returns a :class:`Scene` with what the tests open; it is dumped and reloaded
between tests (seating takes seconds; the live server's tests empty the database each time).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model

from scoring.demo import create_demo, create_demo_season
from scoring.engine import Contract, Deal, get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.engine.table import active_positions
from scoring.management.commands.setup_demo import organiser_group
from scoring.models import ScoreSheet, SheetSeal
from scoring.services import (
    Actor,
    deal_record,
    paper_totals_record,
    penalty_add,
    sheet_sign_on_paper,
    sheet_sign_with_pin,
)
from tournaments import services
from tournaments.models import Round, Table, Tournament
from tournaments.services import seat_requests

ORGANISER = ("organisatrice", "tarot-2026-Accessible")
REFEREE = ("arbitre1", "tarot-2026-Arbitre")


@dataclass(frozen=True)
class Scene:
    slug: str
    amended_table: int  # table ids (staff URLs use them)
    paper_table: int
    penalty_table: int
    token: str  # the table link of the amended table
    registration: int  # a player's public page
    verification_code: str
    search: str  # a name that the "me" search finds
    club: str  # the club's slug
    season: int
    member: int  # a club member's career page (a Player id)
    upcoming: str  # the next tournament's slug, open for online registration


def _play(sheet: ScoreSheet, rng: random.Random, count: int, actor: Actor) -> None:
    size = sheet.table.seats.count()
    rules = get_rule_set(sheet.table.round.tournament.rule_set)
    for number in range(1, count + 1):
        players = len(active_positions(size, 0))
        deal_record(
            sheet=ScoreSheet.objects.get(pk=sheet.pk),
            number=number,
            kind="played",
            deal=random_legal_deal(rng, players, rules),
            actor=actor,
        )


def build_scene() -> Scene:
    rng = random.Random(15)
    User = get_user_model()
    organiser = User.objects.create_user(ORGANISER[0], password=ORGANISER[1])
    organiser.groups.add(organiser_group())
    tournament = create_demo(
        players=18, rounds=3, deals=3, teams=2, seed=15, play_rounds=1, created_by=organiser
    ).tournament
    Tournament.objects.filter(pk=tournament.pk).update(
        visibility=Tournament.Visibility.DURING_PLAY, timed_rounds=True
    )
    services.referee_add(tournament=tournament, username=REFEREE[0], password=REFEREE[1])
    referee = Actor.staff(User.objects.get(username=REFEREE[0]), page="scene")
    table_link = Actor.table(page="scene")

    round_ = services.round_seat_next(tournament=tournament, seed=1502)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    amended, paper, penalised = tables[0], tables[1], tables[2]

    # Table 1: played, signed with PINs, then corrected by the referee with a reason.
    size = amended.seats.count()
    _play(amended.sheet, rng, tournament.deals_at_table(size), table_link)
    for seat in amended.seats.select_related("registration"):
        sheet_sign_with_pin(
            sheet=ScoreSheet.objects.get(pk=amended.sheet.pk),
            registration=seat.registration,
            pin=seat.registration.pin,
            client="scene",
            actor=table_link,
        )
    sheet = ScoreSheet.objects.get(pk=amended.sheet.pk)
    code = SheetSeal.objects.filter(sheet=sheet).values_list("code", flat=True).first()
    first = sheet.deals.get(number=1)
    players = len(active_positions(size, first.dealer))
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=Deal(players=players, taker=0, contract=Contract.GARDE, oudlers=2, points=Decimal(45)),
        actor=referee,
        version=first.version,
        reason="Erreur de comptage des points",
    )

    # Table 2: a paper sheet, totals typed and signed on paper.
    seats = paper.seats.count()
    totals = [30 * (i + 1) for i in range(seats - 1)]
    paper_totals_record(sheet=paper.sheet, totals=[*totals, -sum(totals)], actor=referee, reason="")
    sheet_sign_on_paper(sheet=ScoreSheet.objects.get(pk=paper.sheet.pk), actor=referee)

    # Table 3: one deal, a referee's ruling, then a penalty; never signed.
    _play(penalised.sheet, rng, 1, table_link)
    ruled = len(active_positions(penalised.seats.count(), 0))
    deal_record(
        sheet=ScoreSheet.objects.get(pk=penalised.sheet.pk),
        number=2,
        kind="ruling",
        deal=None,
        ruling=[10 * (ruled - 1)] + [-10] * (ruled - 1),
        note="Donne mal distribuée",
        actor=referee,
    )
    player = penalised.seats.select_related("registration").first().registration
    penalty_add(
        sheet=ScoreSheet.objects.get(pk=penalised.sheet.pk),
        registration=player,
        amount=-20,
        reason="Retard à la table",
        actor=referee,
    )
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PLAYING)

    season = create_demo_season(tournaments=2, players=8, seed=15, organiser=organiser)
    seat_requests.request_seat(
        tournament=season.upcoming,
        last_name="Nouvelle",
        first_name="Joueuse",
        club=season.club.name,
        email="joueuse@example.org",
        client="scene",
    )
    return Scene(
        slug=tournament.slug,
        amended_table=amended.pk,
        paper_table=paper.pk,
        penalty_table=penalised.pk,
        token=ScoreSheet.objects.get(pk=amended.sheet.pk).token,
        registration=player.pk,
        verification_code=code or "",
        search=player.last_name,
        club=season.club.slug,
        season=season.season.pk,
        member=season.club.player_set.order_by("pk").first().pk,
        upcoming=season.upcoming.slug,
    )


def finish_table(table: Table, seed: int = 3) -> None:
    """The table enters its remaining deals through its link."""
    tournament = table.round.tournament
    rng = random.Random(seed)
    size = table.seats.count()
    rules = get_rule_set(tournament.rule_set)
    sheet = ScoreSheet.objects.get(table=table)
    for number in range(sheet.deals.count() + 1, tournament.deals_at_table(size) + 1):
        deal_record(
            sheet=ScoreSheet.objects.get(pk=sheet.pk),
            number=number,
            kind="played",
            deal=random_legal_deal(rng, len(active_positions(size, 0)), rules),
            actor=Actor.table(page="test"),
        )

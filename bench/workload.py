"""The benchmark's workload: tournaments built once per database and reused.

Two ways to play a tournament:

- ``service`` — :func:`scoring.demo.create_demo`, i.e. ``manage.py demo_tournament``: every
  deal through ``scoring.services.deal_record`` and every signature through
  ``sheet_sign_with_pin``. Realistic but slow (~20-40 deals/s on this machine).
- ``fast`` — :func:`play_fast`, the benchmark's own builder: the *same* tournament (same random
  generator, same calls in the same order, so the same players, seats and deals for a given
  seed), through the real services for everything except deal entry and signing, which are
  written with ``bulk_create``: the deal inputs and scores come from the real service code
  (``deal_slot`` + ``_apply_inputs`` + ``deal_scores``), the ``Score`` rows exactly as
  ``_write_scores`` writes them, the history rows with ``bulk_history_create``, the event log
  as ``_log`` writes it, and each sheet's signing is finished by the real
  ``_complete_signing`` (status, fingerprint, seal). :func:`compare` checks that a fast-built
  tournament equals a service-built one row for row (run on the club event every time).
"""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils import timezone

from scoring import services as scoring_services
from scoring.archive import DEAL_FIELDS
from scoring.demo import CLUBS, FIRST_NAMES, LAST_NAMES, create_demo
from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.engine.table import active_positions
from scoring.models import Deal, Score, ScoreSheet, SheetEvent, SheetSeal, Signature
from scoring.selectors import round_tables
from scoring.services import Actor
from tournaments import selectors, services
from tournaments.models import Registration, Round, Seat, Tournament


@dataclass(frozen=True)
class Spec:
    key: str
    name: str
    players: int
    rounds: int
    deals: int
    teams: int
    seed: int
    builder: str  # "fast" or "service"


def specs(smoke: bool) -> list[Spec]:
    """The tournaments of the workload."""
    if smoke:
        return [
            Spec("national", "Bench national (smoke)", 32, 2, 5, 0, 11, "fast"),
            Spec("teams", "Bench teams (smoke)", 32, 2, 5, 4, 12, "fast"),
            Spec("club", "Bench club (smoke)", 32, 2, 5, 0, 13, "service"),
            Spec("club_fast", "Bench club fast twin (smoke)", 32, 2, 5, 0, 13, "fast"),
        ]
    return [
        Spec("national", "Bench championnat national (1000 joueurs)", 1000, 8, 5, 0, 11, "fast"),
        Spec(
            "teams", "Bench championnat par équipes de 4 (1000 joueurs)", 1000, 8, 5, 4, 12, "fast"
        ),
        Spec("club", "Bench tournoi de club (32 joueurs)", 32, 8, 5, 0, 13, "service"),
        Spec(
            "club_fast",
            "Bench tournoi de club, jumeau rapide (32 joueurs)",
            32,
            8,
            5,
            0,
            13,
            "fast",
        ),
    ]


def find(spec: Spec) -> Tournament | None:
    """The finished tournament of this spec, or None (a half-built one is deleted)."""
    t = Tournament.objects.filter(name=spec.name).first()
    if t is None:
        return None
    closed = Round.objects.filter(tournament=t, status=Round.Status.CLOSED).count()
    if closed == spec.rounds:
        return t
    services.tournament_delete(tournament=t)
    return None


def build(spec: Spec, builder: str | None = None) -> dict:
    builder = builder or spec.builder
    began = time.perf_counter()
    began_cpu = time.process_time()
    if builder == "service":
        result = create_demo(
            players=spec.players,
            rounds=spec.rounds,
            deals=spec.deals,
            teams=spec.teams,
            seed=spec.seed,
            name=spec.name,
        )
        info = {"repeat_meetings": result.repeat_meetings, "deals": result.deals}
    else:
        info = play_fast(spec)
    info.update(
        builder=builder,
        seconds=round(time.perf_counter() - began, 2),
        cpu_seconds=round(time.process_time() - began_cpu, 2),
    )
    return info


# ---------------------------------------------------------------------------------------------
# The fast builder: create_demo's steps, with deal entry and signing written in bulk
# ---------------------------------------------------------------------------------------------


def register(spec: Spec, rng: random.Random, *, name: str, rounds: int, deals: int) -> Tournament:
    """create_demo's first half, unchanged: tournament, players (or teams) through services."""
    fmt = {
        0: Tournament.Format.INDIVIDUAL,
        2: Tournament.Format.TEAMS_OF_2,
        4: Tournament.Format.TEAMS_OF_4,
    }[spec.teams]
    tournament = services.tournament_create(
        created_by=None,
        name=name,
        date=date.today(),
        place="Salle des fêtes",
        format=fmt,
        rounds=rounds,
        deals_per_round=deals,
        seed=spec.seed,
    )
    rows = [
        services.PlayerRow(
            last_name=rng.choice(LAST_NAMES),
            first_name=rng.choice(FIRST_NAMES),
            club=rng.choice(CLUBS),
            licence=f"D{spec.seed % 1000:03d}{i:05d}",
        )
        for i in range(spec.players)
    ]
    with transaction.atomic():
        if spec.teams:
            for start in range(0, spec.players - spec.players % spec.teams, spec.teams):
                services.team_register(
                    tournament=tournament,
                    name=f"Équipe {start // spec.teams + 1}",
                    members=rows[start : start + spec.teams],
                    present=True,
                )
        else:
            for row in rows:
                services.player_register(tournament=tournament, row=row, present=True)
    return tournament


def play_fast(spec: Spec) -> dict:
    rng = random.Random(spec.seed)
    t0 = time.perf_counter()
    tournament = register(spec, rng, name=spec.name, rounds=spec.rounds, deals=spec.deals)
    info: dict = {"register_seconds": round(time.perf_counter() - t0, 2)}
    seat_seconds, play_seconds, repeats, clashes, played = [], [], 0, 0, 0
    for number in range(1, spec.rounds + 1):
        t0 = time.perf_counter()
        round_ = services.round_seat_next(tournament=tournament, seed=spec.seed * 100 + number)
        seat_seconds.append(round(time.perf_counter() - t0, 3))
        quality = selectors.round_quality(round_)
        repeats += quality.repeat_count
        clashes += len(quality.teammates_together)
        t0 = time.perf_counter()
        played += play_round_fast(round_, rng)
        services.round_close(round_=round_)
        play_seconds.append(round(time.perf_counter() - t0, 2))
    info.update(
        deals=played,
        repeat_meetings=repeats,
        teammates_together=clashes,
        seat_round_seconds=seat_seconds,
        play_round_seconds=play_seconds,
    )
    return info


def _deal_objects(table, rng, rules, rule_set: str) -> list[Deal]:
    """The deals create_demo's play_round enters at this table, built by the service code."""
    sheet = table.sheet
    size = len(table.seats.all())
    deals: list[Deal] = []
    number = 1
    while scoring_services.next_deal_number(sheet, deals, size) is not None:
        players = len(active_positions(size, 0))
        if rng.random() < 0.03:
            kind, engine_deal = Deal.Kind.PASSED, None
        else:
            kind, engine_deal = Deal.Kind.PLAYED, random_legal_deal(rng, players, rules)
        slot = scoring_services.deal_slot(sheet, number, deals, size)
        target = Deal(sheet=sheet, number=number)
        target.kind = kind
        target.dealer = slot.dealer
        target.note = ""
        scoring_services._apply_inputs(target, engine_deal, slot, rule_set, size)
        target.version = 1
        target._change_reason = "created"
        target._history_user = None
        deals.append(target)
        number += 1
    return deals


def play_round_fast(round_: Round, rng: random.Random) -> int:
    tournament = round_.tournament
    rules = get_rule_set(tournament.rule_set)
    actor = Actor.table(page="demo")
    tables = round_tables(round_)
    for table in tables:  # next_deal_number reads sheet.table.round.tournament
        table.sheet.table = table
        table.round = round_
    with transaction.atomic():
        per_table = [
            (table, _deal_objects(table, rng, rules, tournament.rule_set)) for table in tables
        ]
        all_deals = [d for _, deals in per_table for d in deals]
        Deal.objects.bulk_create(all_deals, batch_size=500)
        Deal.history.bulk_history_create(all_deals, batch_size=500, default_change_reason="created")
        scores, events, signatures = [], [], []
        for table, deals in per_table:
            sheet = table.sheet
            seats = {s.position: s.registration_id for s in table.seats.all()}
            for deal in deals:
                active = set(active_positions(len(seats), deal.dealer))
                played = deal.kind != Deal.Kind.PASSED
                won = played and deal.points >= rules.thresholds[deal.oudlers]
                scores += [
                    Score(
                        sheet=sheet,
                        deal=deal,
                        registration_id=registration_id,
                        round_number=round_.number,
                        points=deal.scores[position],
                        played=played and position in active,
                        took=played and position == deal.taker,
                        made=won and position == deal.taker,
                    )
                    for position, registration_id in seats.items()
                ]
                events.append(
                    SheetEvent(
                        sheet=sheet,
                        actor=actor.user,
                        actor_label=actor.label,
                        action="deal_created",
                        page=actor.page[:200],
                        reason="",
                        data={
                            "deal": deal.number,
                            "before": None,
                            "after": scoring_services._snapshot(deal),
                        },
                    )
                )
        Score.objects.bulk_create(scores, batch_size=1000)
        for table, _deals in per_table:
            scoring_services.seat_results_store(table.sheet)
        # The sheet after each deal (what _refresh_status saves): a history row when its
        # status moves (first deal: in progress; last deal: complete).
        sheets = [table.sheet for table, _ in per_table]
        counts = {table.sheet.pk: len(deals) for table, deals in per_table}
        for step in range(1, max(counts.values(), default=0) + 1):
            stepping = [s for s in sheets if counts[s.pk] >= step]
            for sheet in stepping:
                sheet.version = 1 + step
                sheet.status = (
                    ScoreSheet.Status.COMPLETE
                    if step == counts[sheet.pk]
                    else ScoreSheet.Status.IN_PROGRESS
                )
                sheet.updated_at = timezone.now()
            moved = [s for s in stepping if step in (1, counts[s.pk])]
            ScoreSheet.history.bulk_history_create(moved, batch_size=500, update=True)
        ScoreSheet.objects.bulk_update(sheets, ["version", "status", "updated_at"], batch_size=500)
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.PLAYING)
        # Signing: each player with their PIN, then the real end of signing for the sheet.
        for table, _deals in per_table:
            for seat in table.seats.all():
                signatures.append(
                    Signature(
                        sheet=table.sheet,
                        registration_id=seat.registration_id,
                        method=Signature.Method.PIN,
                    )
                )
                events.append(
                    SheetEvent(
                        sheet=table.sheet,
                        actor=actor.user,
                        actor_label=actor.label,
                        action="signed",
                        page=actor.page[:200],
                        reason="",
                        data={"player": seat.registration.full_name, "method": "pin"},
                    )
                )
        # Events in the order the services log them: a sheet's deals, then its signatures.
        events.sort(key=lambda e: (e.sheet.pk, e.action != "deal_created"))
        SheetEvent.objects.bulk_create(events, batch_size=1000)
        Signature.objects.bulk_create(signatures, batch_size=1000)
        for table, _deals in per_table:
            sheet = scoring_services._lock_sheet(table.sheet.pk)
            scoring_services._complete_signing(sheet)
    return sum(len(deals) for _, deals in per_table)


# ---------------------------------------------------------------------------------------------
# Checking that the fast builder writes what the services write
# ---------------------------------------------------------------------------------------------


def _snapshot_of(tournament: Tournament) -> dict:
    """Everything that must be equal between two builds, with ids replaced by licences."""
    licence = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "licence"))
    out: dict = {}
    out["registrations"] = sorted(
        Registration.objects.filter(tournament=tournament).values_list(
            "licence",
            "last_name",
            "first_name",
            "club_name",
            "status",
        )
    )
    out["seats"] = sorted(
        (r, t, p, licence[g])
        for r, t, p, g in Seat.objects.filter(round__tournament=tournament).values_list(
            "round__number", "table__number", "position", "registration_id"
        )
    )
    out["rounds"] = list(
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", "status", "seed")
    )
    deal_fields = [
        "sheet__table__round__number",
        "sheet__table__number",
        *DEAL_FIELDS,  # the fields an archive keeps for every deal
    ]
    out["deals"] = sorted(
        map(
            repr,
            Deal.objects.filter(sheet__table__round__tournament=tournament).values_list(
                *deal_fields
            ),
        )
    )
    out["deal_history"] = sorted(
        map(
            repr,
            Deal.history.filter(sheet__table__round__tournament=tournament).values_list(
                "sheet__table__round__number",
                "sheet__table__number",
                "number",
                "history_type",
                "history_change_reason",
                "scores",
                "version",
            ),
        )
    )
    out["scores"] = sorted(
        (r, t, n, licence[g], p, pl, tk, md)
        for r, t, n, g, p, pl, tk, md in Score.objects.filter(
            sheet__table__round__tournament=tournament
        ).values_list(
            "round_number",
            "sheet__table__number",
            "deal__number",
            "registration_id",
            "points",
            "played",
            "took",
            "made",
        )
    )
    out["seat_results"] = sorted(
        (r, t, licence[g], p, pl, tk, md)
        for r, t, g, p, pl, tk, md in Seat.objects.filter(round__tournament=tournament).values_list(
            "round__number",
            "table__number",
            "registration_id",
            "points",
            "deals_played",
            "deals_taken",
            "deals_made",
        )
    )
    sheets = ScoreSheet.objects.filter(table__round__tournament=tournament)
    out["sheets"] = sorted(
        sheets.values_list(
            "table__round__number", "table__number", "status", "paper_mode", "version"
        )
    )
    out["sheet_history"] = sorted(
        Counter(
            ScoreSheet.history.filter(table__round__tournament=tournament).values_list(
                "table__round__number", "table__number", "status", "version", "history_type"
            )
        ).items()
    )
    out["fingerprints_set"] = sorted(
        (r, t, bool(f))
        for r, t, f in sheets.values_list("table__round__number", "table__number", "fingerprint")
    )
    out["seals"] = sorted(
        Counter(
            SheetSeal.objects.filter(sheet__table__round__tournament=tournament).values_list(
                "sheet__table__round__number", "sheet__table__number"
            )
        ).items()
    )
    out["signatures"] = sorted(
        (r, t, licence[g], m, s is None)
        for r, t, g, m, s in Signature.objects.filter(
            sheet__table__round__tournament=tournament
        ).values_list(
            "sheet__table__round__number",
            "sheet__table__number",
            "registration_id",
            "method",
            "superseded_at",
        )
    )
    events: dict = defaultdict(list)
    for r, t, action, label, page, reason, data in (
        SheetEvent.objects.filter(sheet__table__round__tournament=tournament)
        .order_by("at", "pk")
        .values_list(
            "sheet__table__round__number",
            "sheet__table__number",
            "action",
            "actor_label",
            "page",
            "reason",
            "data",
        )
    ):
        events[(r, t)].append(repr((action, label, page, reason, data)))
    out["events"] = sorted(events.items())
    return out


def compare(a: Tournament, b: Tournament) -> dict:
    """Differences between two tournaments' data (names, ids and times aside)."""
    sa, sb = _snapshot_of(a), _snapshot_of(b)
    differences = {}
    for key in sa:
        if sa[key] != sb[key]:
            left = [x for x in sa[key] if x not in sb[key]][:2]
            right = [x for x in sb[key] if x not in sa[key]][:2]
            differences[key] = {"service_only": repr(left)[:400], "fast_only": repr(right)[:400]}
    return {
        "identical": not differences,
        "compared": {k: len(v) for k, v in sa.items()},
        "differences": differences,
    }

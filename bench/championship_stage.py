"""Benchmark of a championship's stage: ``python bench/championship_stage.py`` prints JSON.

A stage of 2,000 players (one round of two deals, written by the benchmark's fast builder
``bench/workload.py``; players and seating through the real services) whose top half goes on
to the next stage. Measured, on SQLite and on PostgreSQL (a throw-away database
``tarot_bench_stage``):

- the preview (the stage's standings, the cut, ties at the cut): for information;
- closing the stage: the 1,000 qualifiers registered in the next stage with their carried
  points, round 1 seated by previous rank in a snake, all in one transaction (rolled back
  between runs): target under 5 s.

Options: ``--db sqlite|postgres|both`` (default both), ``--players 2000``, ``--runs 3``.
Figures are saved in ``bench/out/championship_stage.json``; see ``bench/figures.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402

OUT = ROOT / "bench" / "out"
PG_NAME = "tarot_bench_stage"
TARGETS = {"close_s": 5.0}


class _Rollback(Exception):
    pass


def stage_figures(players: int, runs: int) -> dict:
    from django.db import transaction

    from bench.timing import figure
    from bench.workload import play_round_fast
    from scoring.demo import CLUBS, FIRST_NAMES, LAST_NAMES
    from scoring.standings import forget_standings
    from tournaments import services
    from tournaments.championships import selectors
    from tournaments.championships import services as championship_services
    from tournaments.championships.models import Stage

    rng = random.Random(7)
    began = time.perf_counter()
    first = services.tournament_create(
        created_by=None, name="Open 2 000", date=date(2026, 4, 4), rounds=1, deals_per_round=2
    )
    with transaction.atomic():
        for i in range(players):
            services.player_register(
                tournament=first,
                row=services.PlayerRow(
                    last_name=rng.choice(LAST_NAMES),
                    first_name=rng.choice(FIRST_NAMES),
                    club=rng.choice(CLUBS),
                    licence=f"S{i:06d}",
                ),
                present=True,
            )
    round_ = services.round_seat_next(tournament=first, seed=3)
    play_round_fast(round_, rng)
    services.round_close(round_=round_)
    second = services.tournament_create(
        created_by=None, name="Demi-finale", date=date(2026, 4, 5), rounds=1, deals_per_round=2
    )
    championship = championship_services.championship_create(name="Bench", seed=1)
    stage = championship_services.stage_add(
        championship=championship,
        name="Qualification",
        tournaments=[(first, "")],
        cut_mode=Stage.CutMode.PERCENT,
        cut_value=50,
        carry=Stage.Carry.HALF,
        seating=Stage.Seating.SNAKE,
    )
    championship_services.stage_add(
        championship=championship, name="Demi-finale", tournaments=[(second, "")]
    )
    built = round(time.perf_counter() - began, 1)

    previews, closes = [], []
    for _ in range(runs):
        forget_standings()
        t0 = time.perf_counter()
        state = selectors.stage_state(stage)
        previews.append(time.perf_counter() - t0)
        forget_standings()
        try:
            with transaction.atomic():
                t0 = time.perf_counter()
                championship_services.stage_close(stage=stage, expected=state.cut.qualified)
                closes.append(time.perf_counter() - t0)
                raise _Rollback
        except _Rollback:
            pass
    close = sorted(closes)[len(closes) // 2]
    return {
        "built_seconds": built,
        "players": players,
        "qualified": len(state.cut.qualified),
        "preview_s": {"value": round(sorted(previews)[len(previews) // 2], 3)},
        "close_s": figure(
            round(close, 3), TARGETS["close_s"], "s", runs=[round(c, 3) for c in closes]
        ),
    }


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    print(json.dumps(stage_figures(args.players, args.runs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    command = [sys.executable, __file__, "--worker", "--players", str(args.players)]
    command += ["--runs", str(args.runs)]
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    figures = {
        db: run_in_throwaway_db(db, command, pg_name=PG_NAME, sqlite_name="stage.sqlite3")
        for db in dbs
    }
    OUT.mkdir(exist_ok=True)
    (OUT / "championship_stage.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Benchmark of seating in halls: ``python bench/halls.py`` prints JSON figures.

An open of 2,000 players in two halls (« Salle Pourny » tables 1–260, « Salle des Capucins »
261–520), registered and seated through the real services (``round_seat_next``: the pure rule
of ``tournaments/seating/halls.py``, the tables, seats and score sheets written), on SQLite and
on PostgreSQL (a throw-away database ``tarot_bench_halls``):

- round 1 (the halls filled in order);
- round 2 with players keeping their hall (each hall seated on its own);
- round 2 with everyone moving (another tournament, the same field): the whole field seated,
  its tables filling the halls in order.

Target: each seating under 2 s. Options: ``--db sqlite|postgres|both`` (default both),
``--players 2000``. Figures are saved in ``bench/out/halls.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402

OUT = ROOT / "bench" / "out"
PG_NAME = "tarot_bench_halls"
TARGET_SECONDS = 2.0


def build(players: int, keep: bool):
    from tournaments import services
    from tournaments.halls.services import HallRow, halls_set

    tournament = services.tournament_create(
        created_by=None,
        name=f"Open des salles ({'salle gardée' if keep else 'tout le monde bouge'})",
        date=date(2026, 5, 1),
        rounds=6,
        deals_per_round=1,
        seed=7,
    )
    for i in range(players):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:05d}", first_name="Ana"),
            present=True,
        )
    half = (players // 4 + 1) // 2 + 10  # tables per hall: room for the whole field, and more
    halls_set(
        tournament=tournament,
        halls=[
            HallRow("Salle Pourny", "pourny", 1, half),
            HallRow("Salle des Capucins", "capucins", half + 1, 2 * half),
        ],
        keep_players=keep,
    )
    return tournament


def timed(action) -> tuple[float, object]:
    start = time.perf_counter()
    result = action()
    return round(time.perf_counter() - start, 3), result


def figures(players: int) -> dict:
    from tournaments import services

    out: dict = {"players": players, "target_seconds": TARGET_SECONDS}
    warm = build(12, True)  # the first seating of a process loads what every later one uses
    services.round_seat_next(tournament=warm)
    for keep in (True, False):
        built, tournament = timed(lambda keep=keep: build(players, keep))
        first, round_1 = timed(lambda t=tournament: services.round_seat_next(tournament=t))
        services.round_close(round_=round_1, reason="bench")
        second, round_2 = timed(lambda t=tournament: services.round_seat_next(tournament=t))
        pourny = round_2.seats.filter(table__number__lte=tournament.halls.first().last_table)
        label = "keep" if keep else "move"
        out[f"build_{label}_seconds"] = built
        out[f"seat_round_1_{label}_seconds"] = first
        out[f"seat_round_2_{label}_seconds"] = second
        out[f"players_in_pourny_round_2_{label}"] = pourny.count()
    worst = max(v for k, v in out.items() if k.startswith("seat_"))
    out["worst_seating_seconds"] = worst
    out["ok"] = worst < TARGET_SECONDS
    return out


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    print(json.dumps(figures(args.players)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    command = [sys.executable, __file__, "--worker", "--players", str(args.players)]
    results = {
        db: run_in_throwaway_db(db, command, pg_name=PG_NAME, sqlite_name="halls.sqlite3")
        for db in dbs
    }
    OUT.mkdir(exist_ok=True)
    (OUT / "halls.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

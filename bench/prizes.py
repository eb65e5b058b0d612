"""Benchmark of the categories and the prize list: ``python bench/prizes.py`` prints JSON.

An open of 2,000 players (one round played: the categories' cost grows with the players, not
the rounds), each with a sex, a year of birth and a série, with the categories of a national
open (Dames, Jeunes under 18, Seniors from 60, and the five default séries) and prizes for the
first 10 scratch places and the first 3 of each category, on SQLite and on PostgreSQL (a
throw-away database ``tarot_bench_prizes``). Then, through the real view:

- the category standings page cold (page cache and the process's standings dropped before
  each run: the standings' queries, the categories' three queries, every category and the
  prize list computed and rendered): target under 250 ms, as the standings page's;
- the categories and prize list alone, from standings already computed (what they add to a
  page whose standings are known): for information;
- the number of queries of the cold page;
- for comparison, the scratch standings page cold, on the same field and machine.

The page shows one category at a time (the largest, Dames, about a third of the field) and
the prize list; the TV the first 30 places of each.

Options: ``--db sqlite|postgres|both`` (default both), ``--players 2000``, ``--runs 10``.
Figures are saved in ``bench/out/prizes.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402

OUT = ROOT / "bench" / "out"
PG_NAME = "tarot_bench_prizes"
TARGETS = {"categories_cold_ms": 250}


def build_open(players: int, seed: int):
    """The open: players registered through the services, round 1 seated and played by the
    benchmark's fast builder, details given in bulk, categories and prizes by their services."""
    from django.db import transaction

    from bench.workload import Spec, play_round_fast, register
    from scoring.prizes import services as prizes
    from tournaments import services
    from tournaments.models import Registration, Tournament

    spec = Spec("prizes", "Open des catégories", players, 1, 4, 0, seed, "fast")
    rng = random.Random(seed)
    tournament = register(spec, rng, name=spec.name, rounds=1, deals=4)
    Tournament.objects.filter(pk=tournament.pk).update(date=date(2026, 4, 5))
    tournament.refresh_from_db()
    series = ["Open", "1re série", "2e série", "3e série", "Promotion"]
    with transaction.atomic():
        registrations = list(Registration.objects.filter(tournament=tournament))
        for registration in registrations:
            registration.sex = rng.choice("FMM")
            registration.birth_year = rng.randint(1935, 2015)
            registration.series = rng.choice(series)
        Registration.objects.bulk_update(registrations, ["sex", "birth_year", "series"])
    round_ = services.round_seat_next(tournament=tournament, seed=seed)
    play_round_fast(round_, rng)
    services.round_close(round_=round_)
    kinds = [("women", None, ""), ("youth", 18, ""), ("senior", 60, "")]
    kinds += [("series", None, name) for name in series]
    for position, (kind, age, name) in enumerate(kinds, start=1):
        category = prizes.category_add(
            tournament=tournament, kind=kind, age=age, series=name, position=position
        )
        prizes.prizes_add(tournament=tournament, category=category, first_place=1, last_place=3)
    prizes.prizes_add(tournament=tournament, category=None, first_place=1, last_place=10)
    return Tournament.objects.get(pk=tournament.pk)


def prize_figures(runs: int, players: int) -> dict:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from scoring.prizes.selectors import category_standings, prize_list
    from scoring.standings import forget_standings, standings_data

    began = time.perf_counter()
    tournament = build_open(players, seed=29)
    built = round(time.perf_counter() - began, 1)
    gc.collect()
    gc.freeze()  # as tarot_club/wsgi.py does once the server's process has loaded the app
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    url = reverse("public:categories", args=[tournament.slug])
    scratch_url = reverse("public:standings", args=[tournament.slug])
    cold, alone, scratch = [], [], []
    queries = 0
    for _ in range(runs):
        cache.clear()
        forget_standings()
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            response = client.get(url)
            cold.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, response.status_code
        queries = len(captured)
        cache.clear()
        forget_standings()
        t0 = time.perf_counter()
        client.get(scratch_url)
        scratch.append((time.perf_counter() - t0) * 1000)
        data = standings_data(tournament)
        data.standings()
        t0 = time.perf_counter()
        category_standings(tournament, data)
        prize_list(tournament, data)
        alone.append((time.perf_counter() - t0) * 1000)
    value = round(statistics.median(cold), 1)
    return {
        "players": players,
        "build_seconds": built,
        "categories_cold_ms": {
            "value": value,
            "target": TARGETS["categories_cold_ms"],
            "pass": value < TARGETS["categories_cold_ms"],
        },
        "categories_and_prizes_alone_ms": round(statistics.median(alone), 1),
        "categories_cold_queries": queries,
        # For comparison, on the same machine and field: the scratch standings page cold.
        "scratch_standings_cold_ms": round(statistics.median(scratch), 1),
    }


def worker(args) -> None:
    sys.path.insert(0, str(ROOT))
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # served as in production
    print(json.dumps(prize_figures(args.runs, args.players)))


def run_db(db: str, args) -> dict:
    command = [
        sys.executable,
        __file__,
        "--worker",
        "--runs",
        str(args.runs),
        "--players",
        str(args.players),
    ]
    return run_in_throwaway_db(db, command, pg_name=PG_NAME, sqlite_name="prizes.sqlite3")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    figures = {db: run_db(db, args) for db in dbs}
    OUT.mkdir(exist_ok=True)
    (OUT / "prizes.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

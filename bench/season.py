"""Benchmark of a club's season: ``python bench/season.py`` prints JSON figures.

A season of 40 tournaments of 60 players each (drawn from 80 club members, 2 rounds of 2
deals), and a season of 4 such tournaments, built through the real services (registration,
seating, closing; deals and signatures written by the benchmark's fast builder,
``bench/workload.py``), on SQLite and on PostgreSQL (a throw-away database
``tarot_bench_season``). Then, through the real views:

- the season standings page cold (page cache and the process's season data dropped before
  each run; the closed tournaments' final standings stored, as after the season's first
  reading since their close): target under 100 ms, with the same number of queries for 4 and
  40 tournaments; and, for information, that first reading (every tournament ranked from its
  seats, then stored);
- the same page cached: under 10 ms;
- a player's career page (the season data kept by the process, the page cache dropped): under
  50 ms; and fully cold, for information.

Options: ``--db sqlite|postgres|both`` (default both), ``--tournaments 40``, ``--players 60``,
``--runs 20``. Figures are saved in ``bench/out/season.json``. ``bench/run.py`` runs the same
measures (``season_figures``) on its own databases.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402

OUT = ROOT / "bench" / "out"
PG_NAME = "tarot_bench_season"
TARGETS = {"season_cold_ms": 100, "season_cached_ms": 10, "career_ms": 50}


def build_season(name: str, tournaments: int, players: int, seed: int):
    """A club season played through the services (fast deal entry and signing)."""
    from bench.workload import play_round_fast
    from scoring.demo import FIRST_NAMES, LAST_NAMES
    from tournaments import services
    from tournaments.models import Club, Season
    from tournaments.services import clubs

    club = Club.objects.filter(name=name).first()
    if club is not None and club.slug:
        season = Season.objects.filter(club=club).first()
        if season is not None and season.tournaments.filter(finished=True).count() == tournaments:
            return club, season
        raise SystemExit(f"{name}: a half-built season is in the database; use a fresh one")
    rng = random.Random(seed)
    club = clubs.club_create(name=name)
    first_day = date(2025, 9, 6)
    season = clubs.season_create(
        club=club,
        name="Saison 2025-2026",
        start=first_day,
        end=first_day + timedelta(days=300),
        kind="places",
        best=max(1, tournaments * 3 // 4),
        scale_to=40,
        attendance_bonus=5,
        tie_breaks="best_place,played",
    )
    pool = [
        services.PlayerRow(
            last_name=f"{LAST_NAMES[i % len(LAST_NAMES)]}{i}",
            first_name=FIRST_NAMES[i % len(FIRST_NAMES)],
            club=name,
            licence=f"B{seed:02d}{i:05d}",
        )
        for i in range(players + players // 3)
    ]
    for index in range(tournaments):
        tournament = services.tournament_create(
            created_by=None,
            name=f"{name} n° {index + 1}",
            date=first_day + timedelta(days=7 * index),
            rounds=2,
            deals_per_round=2,
            seed=seed * 1000 + index,
        )
        clubs.tournament_season_set(user=None, tournament=tournament, season=season)
        for row in rng.sample(pool, players):
            services.player_register(tournament=tournament, row=row, present=True)
        for number in (1, 2):
            round_ = services.round_seat_next(tournament=tournament, seed=seed * 100 + number)
            play_round_fast(round_, rng)
            services.round_close(round_=round_)
        services.tournament_update(tournament=tournament, finished=True)
    return club, Season.objects.get(pk=season.pk)


def season_figures(runs: int, tournaments: int = 40, players: int = 60) -> dict:
    """Build (once) the two seasons, then measure the pages (Django set up by the caller)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from bench.timing import figure, sample
    from scoring.models import FinalResults
    from scoring.season import forget_seasons, season_data
    from scoring.standings import forget_standings

    began = time.perf_counter()
    big_club, big = build_season("Bench saison", tournaments, players, seed=41)
    small_club, small = build_season("Bench petite saison", 4, players, seed=42)
    built = round(time.perf_counter() - began, 1)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")

    def cold():
        cache.clear()
        forget_seasons()
        forget_standings()

    def queries(url) -> tuple[int, int]:
        """At the first reading since the close, then at a later cold one."""
        FinalResults.objects.all().delete()
        counts = []
        for _ in range(2):
            cold()
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured.captured_queries))
        return tuple(counts)

    big_url = reverse("public:season", args=[big_club.slug, big.pk])
    small_url = reverse("public:season", args=[small_club.slug, small.pk])
    counts = {"4": queries(small_url), str(tournaments): queries(big_url)}

    def first_reading():
        cold()
        FinalResults.objects.all().delete()

    first_page = sample(lambda: client.get(big_url), runs=runs, before=first_reading)
    cold_page = sample(lambda: client.get(big_url), runs=runs, before=cold)
    client.get(big_url)
    cached_page = sample(lambda: client.get(big_url), runs=runs)
    leader = season_data(big).standings()[0].player
    career_url = reverse("public:career", args=[big_club.slug, leader])
    client.get(big_url)  # the process keeps the season's data, as after any season page
    career = sample(lambda: client.get(career_url), runs=runs, before=cache.clear)
    career_cold = sample(lambda: client.get(career_url), runs=runs, before=cold)
    return {
        "built_seconds": built,
        "season": {"tournaments": tournaments, "players_per_tournament": players},
        "season_cold_ms": figure(
            cold_page["median_ms"], TARGETS["season_cold_ms"], "ms", detail=cold_page
        ),
        "season_first_reading_ms": {"value": first_page["median_ms"], "detail": first_page},
        "season_queries_same_for_4_and_40": figure(
            counts["4"] == counts[str(tournaments)], True, "", le=False, queries=counts
        ),
        "season_cached_ms": figure(
            cached_page["median_ms"], TARGETS["season_cached_ms"], "ms", detail=cached_page
        ),
        "career_ms": figure(career["median_ms"], TARGETS["career_ms"], "ms", detail=career),
        "career_cold_ms": {"value": career_cold["median_ms"], "detail": career_cold},
    }


def worker(args) -> None:
    sys.path.insert(0, str(ROOT))
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # served as in production
    print(json.dumps(season_figures(args.runs, args.tournaments, args.players)))


def run_db(db: str, args) -> dict:
    command = [
        sys.executable,
        __file__,
        "--worker",
        "--runs",
        str(args.runs),
        "--tournaments",
        str(args.tournaments),
        "--players",
        str(args.players),
    ]
    return run_in_throwaway_db(db, command, pg_name=PG_NAME, sqlite_name="season.sqlite3")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--tournaments", type=int, default=40)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    figures = {db: run_db(db, args) for db in dbs}
    OUT.mkdir(exist_ok=True)
    (OUT / "season.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Benchmark of a table's deal POST on a large field: ``python bench/deal_post.py`` prints JSON.

The field is built as ``bench/scale.py``'s ``prepare`` builds it (players registered and
present, round 1 seated, 4 deals a table), once with 300 players and once with 3,000, in a
throw-away database (``tarot_bench_deal_post`` on PostgreSQL). Two tables play their four deals
first (templates, caches and connections warm). Then, through the table's page
(``table_sheet``, the form North's phone posts, ``bench.measures.deal_post_data``) and the
Django test client, on ``--runs`` other tables:

- deal 1 of 4 (the sheet does not count yet) and deal 4 of 4 (the sheet is complete: the
  standings change): wall and CPU time of the POST, and its queries;
- the page the POST redirects to (the sheet again, as the phone reads it next);
- on PostgreSQL, a deal POSTed while another table's deal is being saved (that sheet locked
  for ``--hold`` ms in another connection, as every sheet service first does): how long the
  POST took. It used to wait for the other table (every deal of a round locked the round's
  row for update); it shares the round's lock now.

The load average is printed with the figures: on this shared machine it says as much as they do.
Options: ``--db sqlite|postgres|both`` (default both), ``--players 300,3000``, ``--runs 10``,
``--hold 300``. Figures are saved in ``bench/out/deal_post.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402
from bench.timing import load  # noqa: E402

OUT = ROOT / "bench" / "out"
PG_NAME = "tarot_bench_deal_post"


def _summary(values: list[float]) -> dict:
    return {
        "median": round(statistics.median(values), 1),
        "max": round(max(values), 1),
        "min": round(min(values), 1),
    }


def field(players: int):
    """The tournament of ``bench/scale.py``'s prepare: registered, present, round 1 seated."""
    import random

    from bench import workload
    from scoring.selectors import round_tables
    from tournaments import services

    spec = workload.Spec("scale", f"Bench deal POST ({players})", players, 1, 4, 0, 28, "fast")
    tournament = workload.register(spec, random.Random(28), name=spec.name, rounds=1, deals=4)
    round_ = services.round_seat_next(tournament=tournament, seed=28)
    tables = [t for t in round_tables(round_) if len(t.seats.all()) == 4]
    return tournament, tables


def deal_figures(players: int, runs: int, hold_ms: int) -> dict:
    import random

    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from bench.measures import deal_post_data
    from scoring.engine import get_rule_set
    from scoring.services.sheets import lock_sheet

    began = time.perf_counter()
    tournament, tables = field(players)
    build_seconds = round(time.perf_counter() - began, 1)
    rules = get_rule_set(tournament.rule_set)
    rng = random.Random(6)
    client = Client()

    def url(table) -> str:
        return reverse("table_sheet", args=[table.sheet.token])

    def post(table, number: int) -> dict:
        data = deal_post_data(rng, rules, number)
        with CaptureQueriesContext(connection) as ctx:
            wall, cpu = time.perf_counter(), time.process_time()
            response = client.post(url(table), data)
            cpu = (time.process_time() - cpu) * 1000
            wall = (time.perf_counter() - wall) * 1000
        assert response.status_code == 302, response.status_code
        return {"ms": wall, "cpu_ms": cpu, "queries": len(ctx.captured_queries)}

    def get(table) -> dict:
        with CaptureQueriesContext(connection) as ctx:
            wall = time.perf_counter()
            response = client.get(url(table))
            wall = (time.perf_counter() - wall) * 1000
        assert response.status_code == 200, response.status_code
        return {"ms": wall, "queries": len(ctx.captured_queries)}

    for table in tables[:2]:  # warm
        for number in range(1, 5):
            post(table, number)
            get(table)
    measured = tables[2 : 2 + runs]
    by_deal: dict[int, list[dict]] = {1: [], 4: []}
    pages: list[dict] = []
    for number in range(1, 5):
        for table in measured:
            figures = post(table, number)
            if number in by_deal:
                by_deal[number].append(figures)
            if number == 1:
                pages.append(get(table))
    out: dict = {"players": players, "tables": len(tables), "build_seconds": build_seconds}
    for number, rows in by_deal.items():
        out[f"deal_{number}_of_4"] = {
            "ms": _summary([r["ms"] for r in rows]),
            "cpu_ms": _summary([r["cpu_ms"] for r in rows]),
            "queries": sorted({r["queries"] for r in rows}),
        }
    out["redirect_target_get"] = {
        "ms": _summary([p["ms"] for p in pages]),
        "queries": sorted({p["queries"] for p in pages}),
    }
    if connection.vendor == "postgresql":
        busy, other = tables[2 + runs], tables[3 + runs]
        post(busy, 1)  # the round has started: the sheets share its lock
        locked, release = threading.Event(), threading.Event()

        def hold() -> None:
            try:
                with transaction.atomic():
                    lock_sheet(busy.sheet.pk)
                    locked.set()
                    release.wait(hold_ms / 1000)
            finally:
                connection.close()

        holder = threading.Thread(target=hold)
        holder.start()
        assert locked.wait(30)
        figures = post(other, 1)
        release.set()
        holder.join(30)
        out["deal_while_another_table_saves"] = {
            "ms": round(figures["ms"], 1),
            "other_table_held_ms": hold_ms,
        }
    return out


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # served as in production
    sizes = [int(p) for p in args.players.split(",")]
    result = {"load_before": load()}
    result["fields"] = [deal_figures(players, args.runs, args.hold) for players in sizes]
    result["load_after"] = load()
    print(json.dumps(result))


def run_db(db: str, args) -> dict:
    command = [sys.executable, __file__, "--worker", "--players", args.players]
    command += ["--runs", str(args.runs), "--hold", str(args.hold)]
    return run_in_throwaway_db(
        db,
        command,
        pg_name=PG_NAME,
        sqlite_name="deal_post.sqlite3",
        extra_env={"DJANGO_ALLOWED_HOSTS": "testserver"},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--players", default="300,3000")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--hold", type=int, default=300)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    figures = {db: run_db(db, args) for db in dbs}
    OUT.mkdir(exist_ok=True)
    (OUT / "deal_post.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Performance benchmark: a national championship (1,000 players) on one small server.

    .venv/bin/python bench/run.py [--db sqlite|postgres|both] [--smoke] [--rebuild] [--profile]

Builds the workload once per database (cached: ``bench/out/bench.sqlite3`` and the PostgreSQL
database ``tarot_bench`` on 127.0.0.1, rebuilt only when absent or with ``--rebuild``), then
prints every figure of the performance issue as JSON on stdout: ``value``, ``target`` and
``pass`` for each, per database, plus build times and the load average. Progress goes to
stderr; the JSON is also saved under ``bench/out/``.

``--smoke``: 32 players and 2 rounds (its own cached databases), short load tests: checks that
the benchmark runs, in well under a minute once built. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))

from bench.djsetup import worker_env  # noqa: E402
from bench.timing import figure, load  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432/{name}"
CSRF = "benchcsrf0123456789abcdefghijklm"  # 32 letters/digits: cookie and form token of wrk


def log(*parts) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}]", *parts, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Orchestrator: one worker process per database (Django settings are per process)
# ---------------------------------------------------------------------------------------------


def db_env(db: str, smoke: bool) -> dict:
    env = worker_env(DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost,testserver")
    suffix = "_smoke" if smoke else ""
    if db == "postgres":
        env["DATABASE_URL"] = PG.format(name=f"tarot_bench{suffix}")
    else:
        env["SQLITE_PATH"] = str(OUT / f"bench{suffix}.sqlite3")
    return env


def pg_prepare(name: str, rebuild: bool) -> None:
    assert name.startswith("tarot_bench"), name  # never anything else
    base = ["-h", "127.0.0.1", "-U", "postgres"]
    exists = subprocess.run(
        [
            "psql",
            *base,
            "-d",
            "postgres",
            "-tAc",
            f"SELECT 1 FROM pg_database WHERE datname='{name}'",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if exists and rebuild:
        subprocess.run(["dropdb", *base, "--force", name], check=True)
        exists = ""
    if not exists:
        subprocess.run(["createdb", *base, name], check=True)


def sqlite_prepare(path: Path, rebuild: bool) -> None:
    if rebuild:
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)


def seating_figures(smoke: bool) -> dict:
    """tournaments.seating.seat_round for 1000 players, round by round over 8 rounds."""
    from bench.seating import repeated_meetings
    from tournaments.seating import seat_round

    n, rounds = (32, 2) if smoke else (1000, 8)
    players = list(range(n))
    done, times = [], []
    for r in range(rounds):
        began = time.perf_counter()
        done.append(seat_round(players, history=done, rounds_left=rounds - r, seed=1))
        times.append(round(time.perf_counter() - began, 3))
    teams = {p: p // 4 for p in players}
    done_t, times_t = [], []
    for r in range(rounds):
        began = time.perf_counter()
        done_t.append(
            seat_round(players, teams=teams, history=done_t, rounds_left=rounds - r, seed=1)
        )
        times_t.append(round(time.perf_counter() - began, 3))
    return {
        "seat_round_worst_seconds": figure(
            max(times), 2, "s", per_round=times, players=n, rounds=rounds
        ),
        "repeated_meetings_8_rounds": figure(repeated_meetings(done), 0, "pairs"),
        "teams_of_4": {
            "worst_seconds": max(times_t),
            "per_round": times_t,
            "repeated_meetings": repeated_meetings(done_t),
        },
    }


def orchestrate(args) -> dict:
    OUT.mkdir(parents=True, exist_ok=True)
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    result: dict = {
        "benchmark": "smoke (32 players, 2 rounds)"
        if args.smoke
        else "national (1000 players, 8 rounds)",
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_start": load(),
        },
    }
    log("seating benchmark (pure Python, once)")
    try:
        result["seating"] = seating_figures(args.smoke)
    except Exception:
        result["seating"] = {"error": traceback.format_exc()}
    static = tempfile.mkdtemp(prefix="tarot-bench-static-")
    try:
        for db in dbs:
            run_worker(args, db, static, result)
    finally:
        shutil.rmtree(static, ignore_errors=True)
    result["machine"]["load_average_end"] = load()
    result["summary"] = summary(result, dbs)
    return result


def run_worker(args, db: str, static: str, result: dict) -> None:
    """Prepare the database, collect static files (production storage), run the worker."""
    env = db_env(db, args.smoke)
    env["DJANGO_STATIC_ROOT"] = static
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    if db == "postgres":
        pg_prepare(env["DATABASE_URL"].rsplit("/", 1)[1], args.rebuild)
    else:
        sqlite_prepare(Path(env["SQLITE_PATH"]), args.rebuild)
    out = OUT / f"worker-{db}{'-smoke' if args.smoke else ''}.json"
    out.unlink(missing_ok=True)
    command = [sys.executable, str(Path(__file__)), "--worker", db, "--out", str(out)]
    if args.builder:
        command += ["--builder", args.builder]
    for flag in ("smoke", "profile", "skip_web", "skip_docs"):
        if getattr(args, flag):
            command.append("--" + flag.replace("_", "-"))
    if args.runs:
        command += ["--runs", str(args.runs)]
    log(f"{db}: worker starts")
    began = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT)
    if out.exists():
        result[db] = json.loads(out.read_text())
    else:
        result[db] = {"error": f"worker exited with {done.returncode}"}
    result[db]["worker_seconds"] = round(time.perf_counter() - began, 1)


def _walk(node, path=""):
    if isinstance(node, dict):
        if "pass" in node and "target" in node:
            yield path, node
            return
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}" if path else key)


def summary(result: dict, dbs: list[str]) -> dict:
    rows = {}
    for path, node in _walk({k: result.get(k) for k in ["seating", *dbs]}):
        rows[path] = {"value": node["value"], "target": node["target"], "pass": node["pass"]}
    failed = [p for p, r in rows.items() if r["pass"] is False]
    return {"figures": rows, "failed": failed, "all_pass": not failed}


# ---------------------------------------------------------------------------------------------
# Worker: everything for one database
# ---------------------------------------------------------------------------------------------


_SAVE = None  # (path, result) of the worker: saved after every section


def section(store: dict, name: str, fn) -> None:
    log(f"{name} ...")
    began = time.perf_counter()
    try:
        store[name] = fn()
    except Exception:
        store[name] = {"error": traceback.format_exc()}
        log(f"{name} FAILED:\n{store[name]['error']}")
    log(f"{name} done in {time.perf_counter() - began:.1f}s")
    if _SAVE is not None:
        _SAVE[0].write_text(json.dumps(_SAVE[1], indent=2, default=str))


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command
    from django.db import connection

    from bench import measures, workload

    db = args.worker
    smoke = args.smoke
    runs = args.runs or (5 if smoke else 30)
    res: dict = {"database": connection.vendor, "load_average_start": load()}
    global _SAVE
    _SAVE = (Path(args.out), res)
    call_command("migrate", verbosity=0, interactive=False)

    # --- workload ------------------------------------------------------------------------
    builds_path = OUT / f"builds-{db}{'-smoke' if smoke else ''}.json"
    builds = json.loads(builds_path.read_text()) if builds_path.exists() else {}
    tournaments = {}
    for spec in workload.specs(smoke):
        t = workload.find(spec)
        if t is None:
            log(
                f"building {spec.key}: {spec.players} players, {spec.rounds} rounds "
                f"({args.builder or spec.builder})"
            )
            info = workload.build(spec, args.builder if spec.key in ("national", "teams") else None)
            info["load_average"] = load()
            info["built_at"] = time.strftime("%Y-%m-%d %H:%M:%S")
            builds[spec.key] = info
            builds_path.write_text(json.dumps(builds, indent=2))
            t = workload.find(spec)
            log(f"built {spec.key} in {info['seconds']}s")
        tournaments[spec.key] = t
    res["build"] = builds
    # Planner statistics, as a live database has them: autovacuum (PostgreSQL) analyses a
    # table after enough changes, but a bulk-built workload is measured minutes after its
    # load. Without them PostgreSQL joins 8,000 seats by nested loops (seats query 47 -> 25 ms).
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    club = builds.get("club", {})
    if club.get("deals") and club.get("seconds"):
        rate = club["deals"] / club["seconds"]
        res["build"]["service_path_estimate"] = {
            "deals_per_second_through_services": round(rate, 1),
            "estimated_minutes_for_10000_deals": round(10000 / rate / 60, 1),
            "note": "create_demo (every deal through deal_record, every signature with a PIN) "
            "measured on the 32-player club event; the 1000-player tournaments use the fast "
            "builder (see builder_check)",
        }
    section(
        res,
        "builder_check",
        lambda: workload.compare(tournaments["club"], tournaments["club_fast"]),
    )

    national, teams = tournaments["national"], tournaments["teams"]
    figures: dict = {}
    res["figures"] = figures

    def standings():
        return measures.standings_figures(national, tournaments["club"], teams, runs)

    section(figures, "standings", standings)

    def season():
        from bench.season import season_figures

        return season_figures(runs, tournaments=4 if smoke else 40, players=12 if smoke else 60)

    section(figures, "season", season)
    entry_players = 200 if smoke else 1000  # 200: enough open sheets for a 2 s load test
    entry, entry_info = measures.entry_tournament(entry_players)
    res["entry_tournament"] = entry_info
    section(figures, "deal_entry", lambda: measures.entry_figures(entry, runs))

    if not args.skip_docs:
        section(figures, "documents", lambda: documents(national, runs, args.profile, db))
    if not args.skip_web:
        connection.close()
        section(figures, "throughput", lambda: throughput(national, entry, smoke))
    if args.profile:
        section(res, "profiles", lambda: profiles(national, entry, db))
    res["load_average_end"] = load()
    Path(args.out).write_text(json.dumps(res, indent=2, default=str))


def documents(national, runs: int, profile: bool, db: str) -> dict:
    env = dict(os.environ)

    def measure(what: str, n: int, profile_to: str = "") -> dict:
        command = [
            sys.executable,
            str(ROOT / "bench" / "docs_measure.py"),
            "--tournament",
            str(national.pk),
            "--what",
            what,
            "--runs",
            str(n),
        ]
        if profile_to:
            command += ["--profile", profile_to]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        return json.loads(done.stdout.strip().splitlines()[-1])

    one = measure("pdf_table", max(runs, 5))
    pdf = measure("pdf_all", 1)
    xlsx = measure("xlsx_all", 1)
    out = {
        "pdf_one_table_ms": figure(round(one["median_s"] * 1000, 1), 50, "ms", stats=one),
        "pdf_whole_tournament_s": figure(pdf["median_s"], 30, "s", stats=pdf),
        "xlsx_whole_tournament_s": figure(xlsx["median_s"], 20, "s", stats=xlsx),
        "peak_memory_mb": {
            "value": {
                "pdf_whole_tournament": pdf["peak_rise_mb"],
                "xlsx_whole_tournament": xlsx["peak_rise_mb"],
            },
            "process_peak_rss_mb": {"pdf": pdf["peak_rss_mb"], "xlsx": xlsx["peak_rss_mb"]},
            "note": "rise of the process's peak RSS (ru_maxrss) while rendering, "
            "in a fresh process",
        },
    }
    if profile:
        out["profiles"] = {}
        for what in ("pdf_all", "xlsx_all"):
            path = OUT / f"profile-{db}-{what}.txt"
            measure(what, 1, str(path))
            out["profiles"][what] = str(path.relative_to(ROOT))
    return out


def throughput(national, entry, smoke: bool) -> dict:
    """Public standings and deal entry under gunicorn with 2, 3 and 4 sync workers (the issue
    allows 2-4); each figure is the best of them, every run is kept in ``by_workers``."""
    from django.db import connection
    from django.urls import reverse

    from bench import measures, serve

    seconds = 2 if smoke else 10
    env = dict(os.environ)
    out: dict = {"load_average_before": load(), "by_workers": {}}
    standings_path = reverse("public:standings", args=[national.slug])
    for workers in (3,) if smoke else (2, 3, 4):
        # A fresh round to enter (it seats one), then close the connection for the server.
        items, seat_seconds = measures.wrk_entry_plan(entry, deals_per_sheet=entry.deals_per_round)
        tables: dict = {}
        for path, _ in items:
            tables.setdefault(path, len(tables))
        items_file = serve.write_items(items, tables)
        connection.close()
        with serve.Server(env, workers=workers) as server:
            server.wait(standings_path, timeout=120)
            server.warm(standings_path)
            if not smoke:
                serve.wrk(server.url(standings_path), seconds=2)  # warm-up, not reported
            get = serve.wrk(server.url(standings_path), seconds=seconds)
            # Phones ask for gzip: the same page, compressed once per version.
            packed = serve.wrk(
                server.url(standings_path), seconds=seconds, headers={"Accept-Encoding": "gzip"}
            )
            post = serve.wrk(
                server.url("/"),
                seconds=seconds,
                # One connection per wrk thread and each thread its own tables: a table's next
                # deal leaves only once the previous one was answered (as on a phone).
                threads=6,
                connections=6,
                script=serve.post_script(),
                args=[str(items_file), "6", CSRF],
            )
        items_file.unlink(missing_ok=True)
        out["by_workers"][workers] = {
            "standings": get,
            "standings_gzip": packed,
            "deal_entry": post,
            "planned_deals": len(items),
            "entry_after_load": measures.entry_check(entry),
            "entry_round_seat_seconds": round(seat_seconds, 2),
        }
    runs = out["by_workers"]

    def best(kind: str, target: int, **extra) -> dict:
        """The best run of ``kind`` over the worker counts, as a figure (req/s)."""
        workers, run = max(runs.items(), key=lambda item: item[1][kind]["requests_per_s"])
        wrk_run = run[kind]
        return figure(
            wrk_run["requests_per_s"],
            target,
            "req/s",
            le=False,
            errors=wrk_run["errors"],
            workers=workers,
            per_workers={w: r[kind]["requests_per_s"] for w, r in runs.items()},
            bytes_per_response=round(wrk_run["bytes"] / max(1, wrk_run["requests"])),
            p50_ms=wrk_run["p50_ms"],
            p99_ms=wrk_run["p99_ms"],
            **extra,
        )

    out["standings_requests_per_s"] = best(
        "standings",
        300,
        url="GET " + standings_path,
        note="wrk sends no Accept-Encoding: the 550 kB page uncompressed",
    )
    out["standings_gzip_requests_per_s"] = best(
        "standings_gzip", 300, note="as phones ask for it (Accept-Encoding: gzip)"
    )
    out["standings_errors"] = figure(
        sum(r[k]["errors"] for r in runs.values() for k in ("standings", "standings_gzip")),
        0,
        "errors",
    )
    out["deal_entry_requests_per_s"] = best(
        "deal_entry",
        100,
        exhausted=max(r["deal_entry"]["exhausted"] for r in runs.values()),
        note="POST /table/<token>/ of a fresh round; 302 = saved. 'exhausted' > 0: every "
        "planned deal was posted before the end (the rate is then a lower bound and the "
        "replayed last deals count as errors)",
    )
    out["deal_entry_errors"] = figure(
        sum(r["deal_entry"]["errors"] for r in runs.values()), 0, "errors"
    )
    out.update(during_play(entry, env, seconds))
    out["load_average_after"] = load()
    return out


# Several times a national event's pace: 250 tables, a deal every 5 to 8 minutes each, is
# under one deal a second.
DURING_PLAY_DEALS_PER_S = 5


def during_play(entry, env: dict, seconds: int) -> dict:
    """The issue's play: phones read the standings of the tournament whose deals a referee
    team is entering, so every deal changes the page they ask for (3 workers)."""
    from django.db import connection
    from django.urls import reverse

    from bench import measures, serve

    items, _ = measures.wrk_entry_plan(entry, deals_per_sheet=entry.deals_per_round)
    path = reverse("public:standings", args=[entry.slug])
    connection.close()
    with serve.Server(env, workers=3) as server:
        server.wait(path, timeout=120)
        server.warm(path)
        poster = serve.DealPoster(server, items, DURING_PLAY_DEALS_PER_S, CSRF)
        poster.start()
        try:
            get = serve.wrk(server.url(path), seconds=seconds, headers={"Accept-Encoding": "gzip"})
        finally:
            poster.stop.set()
            poster.join(timeout=60)
    deals = poster.report()
    return {
        "standings_during_play_requests_per_s": figure(
            get["requests_per_s"],
            300,
            "req/s",
            le=False,
            errors=get["errors"],
            p50_ms=get["p50_ms"],
            p99_ms=get["p99_ms"],
            deals=deals,
            note=f"GET (gzip) the standings of the tournament being entered, while deals go in "
            f"at {DURING_PLAY_DEALS_PER_S}/s: every deal is a new version of the page",
        ),
        "during_play_errors": figure(
            get["errors"]
            + deals["non_302"]
            + bool(deals["failed"])
            + deals["ran_out_of_deals"],  # the load outlasted the plan: not "during play"
            0,
            "errors",
        ),
    }


def profiles(national, entry, db: str) -> dict:
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse
    from pyinstrument import Profiler

    from bench import measures
    from tournaments.models import Registration

    client = Client()
    paths = {}

    def run(name, fn, repeat):
        fn()
        profiler = Profiler(interval=0.001)
        profiler.start()
        for _ in range(repeat):
            fn()
        profiler.stop()
        path = OUT / f"profile-{db}-{name}.txt"
        path.write_text(profiler.output_text(unicode=True, color=False))
        paths[name] = str(path.relative_to(ROOT))

    url = reverse("public:standings", args=[national.slug])

    def cold(u):
        cache.clear()
        measures.forget_standings()
        client.get(u)

    run("standings_page_cold", lambda: cold(url), 3)
    regs = Registration.objects.filter(tournament=national).order_by("pk")
    reg = regs[regs.count() // 2]
    run(
        "player_page_cold", lambda: cold(reverse("public:player", args=[national.slug, reg.pk])), 10
    )
    import random

    from scoring.engine import get_rule_set
    from scoring.selectors import round_tables

    round_, _ = measures.fresh_round(entry)
    rules = get_rule_set(entry.rule_set)
    rng = random.Random(9)
    jobs = iter([(t.sheet.token, n) for t in round_tables(round_) for n in range(1, 6)])

    def post():
        token, number = next(jobs)
        client.post(
            reverse("table_sheet", args=[token]), measures.deal_post_data(rng, rules, number)
        )

    run("deal_entry_post", post, 40)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--smoke", action="store_true", help="32 players, 2 rounds, short runs")
    parser.add_argument("--rebuild", action="store_true", help="drop and rebuild the workload")
    parser.add_argument("--profile", action="store_true", help="also write pyinstrument profiles")
    parser.add_argument("--runs", type=int, default=0, help="timed runs per figure (default 30)")
    parser.add_argument("--skip-web", action="store_true", help="no gunicorn/wrk throughput")
    parser.add_argument("--skip-docs", action="store_true", help="no PDF/Excel documents")
    parser.add_argument(
        "--builder",
        choices=["fast", "service"],
        help="how to build the 1000-player tournaments (default fast; service = create_demo)",
    )
    parser.add_argument("--worker", choices=["sqlite", "postgres"], help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if not args.skip_web and shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk (or pass --skip-web)")
    began = time.perf_counter()
    result = orchestrate(args)
    result["total_seconds"] = round(time.perf_counter() - began, 1)
    text = json.dumps(result, indent=2, default=str)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (OUT / f"results-{'smoke-' if args.smoke else ''}{stamp}.json").write_text(text)
    print(text)


if __name__ == "__main__":
    main()

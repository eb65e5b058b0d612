"""Document jobs on a large tournament: the whole tournament's score sheets (750 tables x 2
rounds = 1,500 signed sheets) as PDF, drawn cold and then with the signed sheets' pages kept
(``scoring/documents/pdf/pages.py``), a round's PDF from the kept pages, and the workbook.

    .venv/bin/python bench/scale_documents.py [--db sqlite|postgres] [--tables 750] [--rounds 2]
        [--redis redis://127.0.0.1:6379/12] [--rebuild]

The tournament is built once per database with the benchmark's fast builder
(``bench/workload.py``: real services, deals and signatures written in bulk) and kept
(``bench/out/scale_documents.sqlite3`` or the PostgreSQL database ``tarot_bench_docs``). Each
figure is measured in a fresh process (``--measure``), as ``render_sheets`` runs inside a
job's worker: wall and CPU seconds, pages per second, the process's peak memory before and
after. With ``--redis``, the kept pages also go to Redis (Django's cache) instead of the
folder, to compare the two stores. Prints JSON and writes it to
``bench/out/scale_documents-<db>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import worker_env  # noqa: E402
from bench.timing import load  # noqa: E402

OUT = ROOT / "bench" / "out"
PG = "postgres://postgres@127.0.0.1:5432/{name}"
PG_NAME = "tarot_bench_docs"
NAME = "Bench documents ({tables} tables)"


def rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


# --- in a worker process ---------------------------------------------------------------------


def build(args) -> dict:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench.workload import Spec, play_fast
    from tournaments.models import Tournament

    name = NAME.format(tables=args.tables)
    if Tournament.objects.filter(name=name).exists():
        return {"built": False}
    began = time.perf_counter()
    info = play_fast(Spec("docs", name, args.tables * 4, args.rounds, 5, 0, 21, "fast"))
    return {"built": True, "seconds": round(time.perf_counter() - began, 1), **info}


class CachePageStore:
    """The kept pages in Django's cache (Redis with REDIS_URL): the store compared."""

    def get_many(self, keys):
        from django.core.cache import cache

        return cache.get_many(list(keys))

    def set_many(self, pages):
        from django.core.cache import cache

        cache.set_many(pages, timeout=None)


def measure(args) -> dict:
    from django.utils import translation

    import scoring.documents.pdf  # imports and fonts, not timed
    import scoring.documents.xlsx  # noqa: F401
    from scoring import sheet_documents
    from scoring.sheet_documents import render_sheets, tables_in_scope
    from tournaments.models import Tournament

    if args.store == "redis":
        sheet_documents.sheet_pages = CachePageStore
    tournament = Tournament.objects.get(name=NAME.format(tables=args.tables))
    round_number = 1 if args.what == "pdf_round" else None
    scope = tables_in_scope(tournament, round_number=round_number)
    fmt = "xlsx" if args.what == "xlsx" else "pdf"
    sheets = scope.count()
    before = rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    with translation.override("fr"):
        output = render_sheets(tournament, scope, fmt=fmt)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "sheets": sheets,
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "pages_per_second": round(sheets / wall, 1),
        "bytes": len(output),
        "peak_rss_mb_before": before,
        "peak_rss_mb_after": rss_mb(),
    }


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    result = build(args) if args.build else measure(args)
    print(json.dumps(result))


# --- the orchestrator -------------------------------------------------------------------------


def run(args, env: dict, *extra: str) -> dict:
    command = [sys.executable, __file__, "--tables", str(args.tables), "--rounds", str(args.rounds)]
    done = subprocess.run(
        command + list(extra), env=env, stdout=subprocess.PIPE, text=True, check=True, cwd=ROOT
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def kept_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--tables", type=int, default=750)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--redis", default="")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--what", default="", help=argparse.SUPPRESS)
    parser.add_argument("--store", default="folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build or args.what:
        worker(args)
        return

    OUT.mkdir(parents=True, exist_ok=True)
    jobs = Path(tempfile.mkdtemp(prefix="tarot-bench-docs-"))
    env = worker_env(DJANGO_JOBS_DIR=str(jobs))
    base = ["-h", "127.0.0.1", "-U", "postgres"]
    if args.db == "postgres":
        env["DATABASE_URL"] = PG.format(name=PG_NAME)
        exists = subprocess.run(
            ["psql", *base, "-lqt"], stdout=subprocess.PIPE, text=True, check=True
        ).stdout
        if args.rebuild or PG_NAME not in {
            line.split("|")[0].strip() for line in exists.splitlines()
        }:
            subprocess.run(["dropdb", *base, "--if-exists", PG_NAME], check=True)
            subprocess.run(["createdb", *base, PG_NAME], check=True)
    else:
        path = OUT / f"scale_documents-{args.tables}x{args.rounds}.sqlite3"
        if args.rebuild:
            for suffix in ("", "-wal", "-shm"):
                Path(str(path) + suffix).unlink(missing_ok=True)
        env["SQLITE_PATH"] = str(path)
    result: dict = {
        "benchmark": f"{args.tables} tables x {args.rounds} rounds, signed sheets ({args.db})",
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "load_average_start": load(),
        "cpus": os.cpu_count(),
    }
    try:
        result["build"] = run(args, env, "--build")
        pages = jobs / "pages"
        steps = [
            ("pdf_no_kept_pages", "pdf", {"DJANGO_SHEET_PAGES_MB": "0"}),
            ("pdf_cold", "pdf", {}),  # draws every page and keeps the signed ones
            ("pdf_kept_pages", "pdf", {}),
            ("pdf_round_kept_pages", "pdf_round", {}),
            ("xlsx", "xlsx", {}),
        ]
        for label, what, extra in steps:
            result[label] = run(args, {**env, **extra}, "--what", what)
            print(label, result[label], file=sys.stderr, flush=True)
            if label == "pdf_cold":
                result["kept_pages"] = {
                    "files": sum(1 for p in pages.rglob("*") if p.is_file()),
                    "bytes": kept_bytes(pages),
                }
        if args.redis:
            import redis

            redis.Redis.from_url(args.redis).flushdb()
            renv = {**env, "REDIS_URL": args.redis, "REDIS_KEY_PREFIX": "bench-docs"}
            for label in ("pdf_cold_redis", "pdf_kept_pages_redis"):
                result[label] = run(args, renv, "--what", "pdf", "--store", "redis")
                print(label, result[label], file=sys.stderr, flush=True)
            redis.Redis.from_url(args.redis).flushdb()
        cold, kept = result["pdf_no_kept_pages"]["seconds"], result["pdf_kept_pages"]["seconds"]
        result["speed_up_kept_pages"] = round(cold / kept, 1) if kept else None
    finally:
        shutil.rmtree(jobs, ignore_errors=True)
    result["load_average_end"] = load()
    result["uptime"] = subprocess.run(["uptime"], stdout=subprocess.PIPE, text=True).stdout.strip()
    out = OUT / f"scale_documents-{args.db}.json"
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

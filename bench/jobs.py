"""Background jobs under load: the whole tournament's PDF (2,000 score sheets) made as a job by
``manage.py jobs_worker`` while phones read the public standings from gunicorn.

    .venv/bin/python bench/jobs.py [--db sqlite|postgres] [--smoke] [--players N] [--rounds R]

A throw-away database (SQLite file in a temporary folder, or the PostgreSQL database
``tarot_bench_jobs``) gets a played tournament of ``players`` x ``rounds`` (1,000 x 8 = 2,000
sheets, one deal each; ``--smoke``: 32 x 2). Then one gunicorn (3 processes, ``make serve``'s
flags) and one worker start; phones (4 threads) read the standings for a few seconds (the
baseline p99), then the job is started and they go on reading until the job is ready. Printed
as JSON (last line): time to ready, progress updates seen by a page polling every 2 s, the
public page's p99 before and during the job, the slowest public request, the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402
from bench.timing import figure, load, percentile  # noqa: E402


class Phones(threading.Thread):
    """``threads`` phones reading ``url`` in a loop; latencies kept per phase."""

    def __init__(self, url: str, threads: int = 4):
        super().__init__(daemon=True)
        self.url, self.threads = url, threads
        self.phase = "baseline"
        self.latencies: dict[str, list[float]] = {"baseline": [], "job": []}
        self.errors = 0
        self.stopped = threading.Event()

    def read(self) -> None:
        while not self.stopped.is_set():
            phase = self.phase
            began = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=60) as response:
                    response.read()
            except Exception:
                self.errors += 1
                continue
            self.latencies[phase].append((time.perf_counter() - began) * 1000)

    def run(self) -> None:
        readers = [threading.Thread(target=self.read, daemon=True) for _ in range(self.threads)]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench.serve import OUT, Server
    from scoring.demo import create_demo
    from scoring.jobs.models import Job
    from scoring.jobs.services import job_start

    call_command("collectstatic", interactive=False, verbosity=0)
    OUT.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    tournament = create_demo(
        players=args.players, rounds=args.rounds, deals=1, seed=3, name="Championnat"
    ).tournament
    built = time.perf_counter() - began
    print(f"built in {built:.0f} s", file=sys.stderr, flush=True)
    env = {**os.environ, "DJANGO_JOBS_DIR": str(Path(os.environ["DJANGO_STATIC_ROOT"]).parent)}
    os.environ["DJANGO_JOBS_DIR"] = env["DJANGO_JOBS_DIR"]
    from django.conf import settings

    settings.JOBS_DIR = env["DJANGO_JOBS_DIR"]
    with Server(env, workers=3) as server:
        path = f"/t/{tournament.slug}/classement/"
        server.wait(path)
        server.warm(path)
        jobs = subprocess.Popen(
            [sys.executable, "manage.py", "jobs_worker", "-v", "0", "--no-startup-delay"],
            cwd=ROOT,
            env=env,
        )
        phones = Phones(server.url(path))
        phones.start()
        try:
            time.sleep(args.baseline)
            phones.phase = "job"
            started = time.perf_counter()
            job = job_start(
                kind=Job.Kind.SHEETS_PDF,
                user=None,
                tournament=tournament,
                params={"language": "fr"},
            )
            seen, first_progress = set(), None
            while True:
                time.sleep(2)  # as the page polls
                job.refresh_from_db()
                if job.done and first_progress is None:
                    first_progress = time.perf_counter() - started
                seen.add(job.done)
                if job.finished:
                    break
            ready = time.perf_counter() - started
        finally:
            phones.stopped.set()
            phones.join(timeout=60)
            jobs.terminate()
            jobs.wait(timeout=30)
    base, during = phones.latencies["baseline"], phones.latencies["job"]
    result = {
        "sheets": job.total,
        "status": job.status,
        "error": job.error,
        "build_seconds": round(built, 1),
        "pdf_job_ready_seconds": figure(round(ready, 1), 60, "s"),
        "first_progress_seconds": round(first_progress or 0, 1),
        "progress_values_seen_every_2s": len(seen),
        "public_p99_ms_before": round(percentile(base, 99), 1) if base else None,
        "public_p99_ms_during_job": figure(
            round(percentile(during, 99), 1) if during else None, 50, "ms"
        ),
        "public_slowest_ms_during_job": figure(
            round(max(during), 1) if during else None, 2000, "ms"
        ),
        "public_requests_during_job": len(during),
        "errors": phones.errors,
        "load": load(),
    }
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--baseline", type=float, default=5.0, help="seconds before the job")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.smoke:
        args.players, args.rounds, args.baseline = 32, 2, 2.0
    if args.worker:
        worker(args)
        return
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--players",
        str(args.players),
        "--rounds",
        str(args.rounds),
        "--baseline",
        str(args.baseline),
    ]
    result = run_in_throwaway_db(
        args.db, command, pg_name="tarot_bench_jobs", sqlite_name="jobs.sqlite3"
    )
    result = {"db": args.db, **result}
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"jobs-{args.db}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

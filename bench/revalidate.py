"""What a phone's "did my page change?" costs the server: the CPU time of one conditional
request answered 304, through the WSGI application as gunicorn calls it, with the early
revalidation (``scoring/public_answers.py``) and without it (the whole middleware stack).

    python bench/revalidate.py                    # SQLite, 300 players
    python bench/revalidate.py --postgres --players 3000

It prints, per page (a player's own page, the standings at a reader's place, the TV), the
median CPU milliseconds of a 304 both ways, with the load average. 3,000 phones asking every
4 s make 750 such requests a second (issue 28): at 2 ms each they need 1.5 of this machine's
2 cores; the figure says how much of a core they need now.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.timing import load  # noqa: E402


def _environ(path: str, tag: str) -> dict:
    target, _, query = path.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": target,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "HTTP_HOST": "127.0.0.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_ACCEPT_ENCODING": "gzip",
        "HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9",
        "HTTP_IF_NONE_MATCH": tag,
        "wsgi.input": io.BytesIO(b""),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "SERVER_PROTOCOL": "HTTP/1.1",
    }


def _call(app, path: str, tag: str = "") -> tuple[str, dict]:
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["status"], seen["headers"] = status, dict(headers)

    body = app(_environ(path, tag), start_response)
    for _ in body:
        pass
    if hasattr(body, "close"):
        body.close()
    return seen["status"], seen["headers"]


def measure(app, path: str, runs: int) -> dict:
    status, headers = _call(app, path)
    tag = headers.get("ETag", "")
    status, _ = _call(app, path, tag)
    if not status.startswith("304"):
        raise SystemExit(f"{path}: expected 304 with {tag}, got {status}")
    cpus = []
    for _ in range(runs):
        began = time.process_time()
        _call(app, path, tag)
        cpus.append((time.process_time() - began) * 1000)
    return {"cpu_median_ms": round(statistics.median(cpus), 3), "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    base = ["-h", "127.0.0.1", "-U", "postgres"]
    name = f"bench_revalidate_{os.getpid()}"
    folder = tempfile.TemporaryDirectory()
    if args.postgres:
        subprocess.run(["createdb", *base, name], check=True)
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    else:
        os.environ["SQLITE_PATH"] = str(Path(folder.name) / "bench.sqlite3")
    os.environ["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ["DJANGO_STATIC_ROOT"] = str(Path(folder.name) / "static")
    try:
        result = _run(args)
    finally:
        if args.postgres:
            from django.db import connections

            connections.close_all()
            subprocess.run(["dropdb", *base, "--if-exists", name], check=False)
        folder.cleanup()
    print(json.dumps(result, indent=2, ensure_ascii=False))


def _run(args) -> dict:
    from bench.djsetup import setup

    setup()
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.test.utils import override_settings
    from django.urls import reverse

    from bench import workload
    from tournaments import services

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    spec = workload.Spec("reval", "Bench revalidate", args.players, 1, 4, 0, 28, "fast")
    tournament = workload.register(spec, random.Random(28), name=spec.name, rounds=1, deals=4)
    services.round_seat_next(tournament=tournament, seed=28)
    registration = tournament.registrations.order_by("pk").first().pk
    pages = {
        "player": reverse("public:player", args=[tournament.slug, registration]),
        "standings?joueur": reverse("public:standings", args=[tournament.slug])
        + f"?joueur={registration}",
        "tv": reverse("public:tv", args=[tournament.slug]),
    }
    early = "scoring.public_answers.RevalidateFirstMiddleware"
    stack = [m for m in settings.MIDDLEWARE if m != early]
    began = load()
    figures = {}
    with_early = WSGIHandler()
    with override_settings(MIDDLEWARE=stack):
        without = WSGIHandler()
    for page, path in pages.items():
        figures[page] = {
            "early_304": measure(with_early, path, args.runs),
            "through_the_stack": measure(without, path, args.runs),
        }
    return {
        "database": "postgresql" if args.postgres else "sqlite",
        "players": args.players,
        "load_before": began,
        "load_after": load(),
        "pages": figures,
    }


if __name__ == "__main__":
    main()

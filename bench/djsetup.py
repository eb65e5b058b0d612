"""Django set-up for benchmark processes: the database comes from the environment that
``bench/run.py`` prepares (``DATABASE_URL`` for PostgreSQL, ``SQLITE_PATH`` for SQLite)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_club.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")
    os.environ.setdefault("DJANGO_SECURE", "0")
    import django

    django.setup()


def worker_env(**overrides: str) -> dict:
    """The environment of a benchmark's worker process: this one's, without its database, with
    the settings a benchmark runs with (no secret to type, plain HTTP, not the test settings);
    ``overrides`` add or replace variables."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    env.update(
        DJANGO_SETTINGS_MODULE="tarot_club.settings",
        DJANGO_SECRET_KEY="bench-only-not-a-secret",
        DJANGO_SECURE="0",
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_TESTING="0",
        PYTHONPATH=str(ROOT),
    )
    env.update(overrides)
    return env


def run_in_throwaway_db(
    db: str, command: list[str], *, pg_name: str, sqlite_name: str, extra_env: dict | None = None
) -> dict:
    """Run ``command`` (a benchmark's worker process) on a database of its own, made for it and
    dropped after: the PostgreSQL database ``pg_name`` on this machine's server, or a SQLite
    file ``sqlite_name`` in a temporary folder; static files are collected there too. The
    worker prints its figures as JSON on its last line of output; they are returned."""
    import json
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        env = worker_env(DJANGO_STATIC_ROOT=str(Path(folder) / "static"), **(extra_env or {}))
        base = ["-h", "127.0.0.1", "-U", "postgres"]
        if db == "postgres":
            subprocess.run(["dropdb", *base, "--if-exists", pg_name], check=True)
            subprocess.run(["createdb", *base, pg_name], check=True)
            env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{pg_name}"
        else:
            env["SQLITE_PATH"] = str(Path(folder) / sqlite_name)
        try:
            done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=True)
        finally:
            if db == "postgres":
                subprocess.run(["dropdb", *base, "--if-exists", pg_name], check=False)
        return json.loads(done.stdout.strip().splitlines()[-1])

"""The club room's server, as ``make club`` starts it, on the test database.

``RoomServer(port).start()`` runs ``manage.py serve_club`` in its own process group, with the
environment the Makefile gives it (``DJANGO_LOCAL_SERVER=1``, no secret key, no debug), on the
database of the running test (committed data: the tests use ``transaction=True``). ``stop()``
ends the whole group, as Ctrl+C in the referee's terminal would; ``start()`` again restarts it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.db import connection

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_environment() -> dict[str, str]:
    """Environment variables that point a new process at the test database."""
    settings = connection.settings_dict
    if "sqlite" in settings["ENGINE"]:
        return {"SQLITE_PATH": str(settings["NAME"]), "DATABASE_URL": ""}
    user = settings.get("USER") or "postgres"
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return {"DATABASE_URL": f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"}


class RoomServer:
    def __init__(self, port: int, static_root: Path, log: Path):
        self.port = port
        self.static_root = static_root
        self.log = log
        self.process: subprocess.Popen | None = None
        self.output = ""

    def environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_TESTING", "SITE_URL"}
            and not key.startswith("PYTEST_")
        }
        env.update(database_environment())
        if not env.get("DATABASE_URL"):
            env.pop("DATABASE_URL", None)
        env.update(
            {
                "DJANGO_LOCAL_SERVER": "1",
                "DJANGO_STATIC_ROOT": str(self.static_root),
                "PYTHONUNBUFFERED": "1",
                "DJANGO_ALLOW_ASYNC_UNSAFE": "",
            }
        )
        return env

    def start(self) -> RoomServer:
        handle = self.log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "serve_club", "--port", str(self.port)],
            cwd=REPO,
            env=self.environment(),
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"serve_club stopped:\n{self.read_log()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError(f"serve_club did not answer in {START_TIMEOUT_S}s:\n{self.read_log()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        # Nothing answers on the port any more (connections are refused, as on a dead laptop).
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", self.port)) != 0

    def read_log(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

"""Throughput under gunicorn: a production-style server on a free local port, loaded by wrk.

Only 127.0.0.1 is ever targeted; every load run has a fixed, short duration.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from bench.timing import percentile

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
OUT = ROOT / "bench" / "out"

REPORT_LUA = r"""
local counter = 1
local threads = {}
function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end
function done(summary, latency, requests)
  local e = summary.errors
  local exhausted = 0
  for _, t in ipairs(threads) do exhausted = exhausted + (t:get("exhausted") or 0) end
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "bytes": %d, "connect": %d, "read": %d, ' ..
    '"write": %d, "status": %d, "timeout": %d, "p50_ms": %.3f, "p90_ms": %.3f, ' ..
    '"p99_ms": %.3f, "max_ms": %.3f, "exhausted": %d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, exhausted))
end
"""

POST_LUA = r"""
-- Deal entry: every thread posts the deals of its own tables (table index mod threads),
-- deal 1 of every table first, then deal 2, ...; with one connection per thread a table's
-- next deal is sent only after the previous one was answered.
local items = {}
local index = 0
exhausted = 0  -- requests sent after this thread's last planned deal (read by done())
function init(args)
  local path, nthreads = args[1], tonumber(args[2])
  local cookie = args[3]
  for line in io.lines(path) do
    local t, p, b = line:match("^(%d+)\t([^\t]+)\t(.*)$")
    if (tonumber(t) % nthreads) == (id - 1) then
      table.insert(items, wrk.format("POST", p, {
        ["Content-Type"] = "application/x-www-form-urlencoded",
        ["Cookie"] = "csrftoken=" .. cookie,
      }, b .. "&csrfmiddlewaretoken=" .. cookie))
    end
  end
end
local verified = false
function request()
  -- wrk calls request() once in the first thread to inspect it, without sending it:
  -- answer that call without consuming a deal.
  if id == 1 and not verified then
    verified = true
    return items[1]
  end
  index = index + 1
  if index > #items then
    exhausted = exhausted + 1
    index = #items
  end
  return items[index]
end
function response(status, headers, body)
  if index >= #items then
    wrk.thread:stop()
  end
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn tarot_club.wsgi, DEBUG off, static files collected into a temporary folder."""

    def __init__(self, env: dict, workers: int = 3, flags: tuple[str, ...] = ()):
        self.env = {
            **env,
            "DJANGO_DEBUG": "0",
            "DJANGO_SECURE": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECRET_KEY": env.get("DJANGO_SECRET_KEY", "bench-only-not-a-secret"),
        }
        self.workers = workers
        self.flags = flags  # more gunicorn options (bench/scale.py: --gunicorn)
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        # Static files were collected by bench/run.py into DJANGO_STATIC_ROOT (a temp dir).
        self.log = OUT / f"gunicorn-{os.getpid()}.log"

    def __enter__(self) -> Server:
        self.process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "tarot_club.wsgi",
                "--workers",
                str(self.workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
                *self.flags,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=open(self.log, "w"),
            stderr=subprocess.STDOUT,
        )
        return self

    def wait(self, path: str, timeout: float = 60) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url(path), timeout=10) as r:
                    if r.status == 200:
                        return
            except Exception:
                time.sleep(0.3)
        raise RuntimeError(f"gunicorn did not answer {path}; see {self.log}")

    def warm(self, path: str, n: int = 12) -> None:
        """A few requests so that every worker has imported everything and cached the page."""
        for _ in range(n):
            with urllib.request.urlopen(self.url(path), timeout=30) as r:
                r.read()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __exit__(self, *exc) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if exc[0] is None:  # keep the server's log only when something went wrong
            self.log.unlink(missing_ok=True)


def wrk(
    url: str,
    *,
    seconds: int,
    threads: int = 2,
    connections: int = 8,
    script: str = REPORT_LUA,
    args: list[str] | None = None,
    headers: dict[str, str] | None = None,
) -> dict:
    lua = OUT / f"wrk-{os.getpid()}-{abs(hash(script)) % 10000}.lua"
    lua.write_text(script if script is REPORT_LUA else script + REPORT_LUA)
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(lua),
        *(f"-H{name}: {value}" for name, value in (headers or {}).items()),
        url,
    ]
    if args:
        command += ["--", *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    finally:
        lua.unlink(missing_ok=True)
    line = next((x for x in done.stdout.splitlines() if x.startswith("WRKJSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk failed: {done.stdout}\n{done.stderr}")
    result = json.loads(line[len("WRKJSON ") :])
    result["seconds"] = result["duration_us"] / 1e6
    result["requests_per_s"] = round(result["requests"] / result["seconds"], 1)
    result["errors"] = sum(result[k] for k in ("connect", "read", "write", "status", "timeout"))
    return result


class DealPoster(threading.Thread):
    """A referee team entering deals while a load test runs (POST, no redirect followed):
    one deal after the other, at most ``rate`` per second. A failed post (no answer, a broken
    connection) counts as an error and ends the posting; ``report`` says so."""

    def __init__(self, server: Server, items: list[tuple[str, str]], rate: float, csrf: str):
        super().__init__(daemon=True)
        self.server, self.items, self.rate, self.csrf = server, items, rate, csrf
        self.stop = threading.Event()
        self.statuses: list[int] = []
        self.latencies_ms: list[float] = []
        self.failure = ""
        self.ran_out = False
        self.seconds = 0.0

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        began = next_at = time.perf_counter()
        try:
            for path, body in self.items:
                next_at = max(next_at, time.perf_counter())
                if self.stop.wait(next_at - time.perf_counter()):
                    break
                next_at += 1 / self.rate
                sent = time.perf_counter()
                connection.request(
                    "POST",
                    path,
                    body=f"{body}&csrfmiddlewaretoken={self.csrf}",
                    headers={
                        "Content-Type": "application/x-www-form-urlencoded",
                        "Cookie": f"csrftoken={self.csrf}",
                    },
                )
                response = connection.getresponse()
                response.read()
                self.latencies_ms.append((time.perf_counter() - sent) * 1000)
                self.statuses.append(response.status)
            else:
                self.ran_out = True
        except (OSError, http.client.HTTPException) as error:
            self.failure = f"{type(error).__name__}: {error}"
        finally:
            self.seconds = time.perf_counter() - began
            connection.close()

    def report(self) -> dict:
        latencies = self.latencies_ms or [0.0]
        return {
            "deals_posted": len(self.statuses),
            "deals_per_s": round(len(self.statuses) / self.seconds, 1) if self.seconds else 0,
            "non_302": sum(1 for s in self.statuses if s != 302),
            "failed": self.failure or ("still posting" if self.is_alive() else ""),
            "ran_out_of_deals": self.ran_out,
            "p50_ms": round(percentile(latencies, 50), 1),
            "p99_ms": round(percentile(latencies, 99), 1),
        }


def post_script() -> str:
    return POST_LUA


def write_items(items: list[tuple[str, str]], tables: dict[str, int]) -> Path:
    path = OUT / f"wrk-post-{os.getpid()}.tsv"
    with open(path, "w") as f:
        for p, body in items:
            f.write(f"{tables[p]}\t{p}\t{body}\n")
    return path

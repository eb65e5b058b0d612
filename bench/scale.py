"""A national event on several app servers (issue 28): two gunicorn instances on one PostgreSQL
and one Redis, deals going in across both, phones and TVs polling, staff making documents.

    python bench/scale.py                      # 3,000 players, 750 tables, 5 minutes
    python bench/scale.py --short --check      # 300 players, one minute; exit 1 on a failure
    python bench/scale.py --players 1000 --seconds 120 --phones 1000

What it measures, each with its target and pass/fail in the JSON summary (``bench/out/``):

- renders per page version across the deployment (target 1): every render is logged by
  ``scoring/pagecache.py`` on each server; a version rendered twice is a failure;
- stale reads (target 0): right after a deal is saved on one server, the other server's page of a
  player at that table must show it (and, failing that, within the phones' 4 s refresh);
- the p99 of public pages (< 50 ms) and the slowest request of any kind (< 2 s);
- the document job (the whole tournament's score sheets) when the app has jobs: time to ready
  and the progress updates seen;
- each app-server worker's memory at the end (< 250 MB).

Only 127.0.0.1 is targeted; the PostgreSQL database and Redis keys are the run's own and go
when it ends. ``--check`` (the CI's short run) fails on a stale read, a second render of a
version or a request over 2 s: the other figures are reported, not checked there.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.timing import figure, load, percentile  # noqa: E402

OUT = ROOT / "bench" / "out"
CSRF = "benchcsrf0123456789abcdefghijklm"
REFRESH_SECONDS = 4  # how often phones and TVs ask again (templates/public/base.html)
RENDER = re.compile(r"render page=(\S+) version=(\S+) key=(\S+) ms=([\d.]+) kept=(yes|no)")


def log(*parts) -> None:
    print(f"[scale {time.strftime('%H:%M:%S')}]", *parts, file=sys.stderr, flush=True)


# --- the tournament ---------------------------------------------------------------------------


def prepare(players: int, database_url: str) -> dict:
    """Build the tournament (players registered and present, round 1 seated) and plan the load:
    every table's deals as the phones post them, and the pages phones read."""
    os.environ["DATABASE_URL"] = database_url
    from bench.djsetup import setup

    setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.urls import reverse

    from bench import measures, workload
    from scoring.engine import get_rule_set
    from scoring.engine.sampling import random_legal_deal
    from scoring.selectors import round_tables
    from scoring.services import Actor, deal_record
    from tournaments import services
    from tournaments.models import StaffMember

    call_command("migrate", verbosity=0)
    spec = workload.Spec("scale", f"Bench scale ({players} joueurs)", players, 1, 4, 0, 28, "fast")
    began = time.perf_counter()
    tournament = workload.register(spec, random.Random(28), name=spec.name, rounds=1, deals=4)
    round_ = services.round_seat_next(tournament=tournament, seed=28)
    organiser = get_user_model().objects.create_user("bench-orga", password="bench-orga-pw")
    StaffMember.objects.create(
        tournament=tournament, user=organiser, role=StaffMember.Role.ORGANISER
    )
    rules = get_rule_set(tournament.rule_set)
    rng = random.Random(6)
    tables = [t for t in round_tables(round_) if len(t.seats.all()) == 4]
    last = tournament.deals_per_round
    # As in a hall late in a round: every other table has played all but its last deal, so
    # while the load runs, sheets start to count (the standings change) between deals that
    # change only their table's pages.
    ahead = tables[::2]
    for table in ahead:
        for number in range(1, last):
            deal_record(
                sheet=table.sheet,
                number=number,
                kind="played",
                deal=random_legal_deal(rng, 4, rules),
                actor=Actor.table(page="bench"),
            )
    behind = [(t, n) for n in range(1, last + 1) for t in tables[1::2]]
    queues = [[(t, last) for t in ahead], behind]
    order = [pair for both in itertools.zip_longest(*queues) for pair in both if pair]
    items = []  # (sheet path, body, deal number, a registration seated there)
    for table, number in order:
        seat = table.seats.all()[0]
        body = urllib.parse.urlencode(measures.deal_post_data(rng, rules, number))
        path = reverse("table_sheet", args=[table.sheet.token])
        items.append((path, body, number, seat.registration_id))
    registrations = list(tournament.registrations.values_list("pk", flat=True))
    plan = {
        "slug": tournament.slug,
        "items": items,
        "standings": reverse("public:standings", args=[tournament.slug]),
        "tv": reverse("public:tv", args=[tournament.slug]),
        "players": [reverse("public:player", args=[tournament.slug, pk]) for pk in registrations],
        "registrations": registrations,
        "tables": len(tables),
        "tables_ahead": len(ahead),
        "deals": last,
        "build_seconds": round(time.perf_counter() - began, 1),
    }
    from django.db import connections

    connections.close_all()
    return plan


# --- the servers ------------------------------------------------------------------------------


def start_servers(count: int, env: dict, workers: int, flags: str = "") -> list:
    from bench import serve

    servers = []
    for index in range(count):
        server = serve.Server(env, workers=workers, flags=tuple(flags.split()))
        server.log = OUT / f"gunicorn-{os.getpid()}-{index}.log"  # each server's own renders
        servers.append(server.__enter__())
    return servers


def cpu_seconds(pids) -> float:
    """User and system CPU seconds the processes ``pids`` have used so far (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def machine_cpu() -> dict[str, int]:
    """The whole machine's CPU time so far, by kind, in ticks (/proc/stat's first line)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    return {name: int(value) for name, value in zip(names, fields, strict=False)}


def process_ids(name: str) -> list[int]:
    """The ids of the processes whose command is ``name`` (postgres, redis-server)."""
    done = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True, check=False)
    return [int(pid) for pid in done.stdout.split()]


def _workers(server, column: str) -> list[int]:
    """``column`` of ps (pid, rss...) for each gunicorn worker (the children of the master)."""
    done = subprocess.run(
        ["ps", "--ppid", str(server.process.pid), "-o", f"{column}="],
        capture_output=True,
        text=True,
        check=False,
    )
    return [int(value) for value in done.stdout.split()]


def worker_ids(server) -> list[int]:
    return _workers(server, "pid")


def worker_memory_mb(server) -> list[float]:
    """Resident memory of each gunicorn worker."""
    return [round(kilobytes / 1024, 1) for kilobytes in _workers(server, "rss")]


# --- the load ---------------------------------------------------------------------------------


class Recorder:
    """Latencies by kind, the slowest request, errors."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {}
        self.by_page: dict[str, list[float]] = {}  # "kind page status" -> latencies
        self.statuses: Counter = Counter()
        self.slowest = (0.0, "")
        self.errors: list[str] = []
        self.client_cpu = 0.0  # CPU seconds of the phones' client processes

    def add(self, kind: str, ms: float, status: int, what: str) -> None:
        page = f"{kind} {_page_kind(what)} {status}"
        with self.lock:
            self.latencies.setdefault(kind, []).append(ms)
            self.by_page.setdefault(page, []).append(ms)
            self.statuses[f"{kind}:{status}"] += 1
            if ms > self.slowest[0]:
                self.slowest = (ms, f"{kind} {what} ({status})")

    def error(self, text: str) -> None:
        with self.lock:
            if len(self.errors) < 20:
                self.errors.append(text)

    def state(self) -> dict:
        """What was recorded, to send from a client process to the run's."""
        with self.lock:
            return {
                "latencies": self.latencies,
                "by_page": self.by_page,
                "statuses": dict(self.statuses),
                "slowest": self.slowest,
                "errors": self.errors,
            }

    def merge(self, state: dict) -> None:
        with self.lock:
            for name in ("latencies", "by_page"):
                mine = getattr(self, name)
                for key, values in state[name].items():
                    mine.setdefault(key, []).extend(values)
            self.statuses.update(state["statuses"])
            self.slowest = max(self.slowest, tuple(state["slowest"]))
            self.errors.extend(state["errors"][: max(0, 20 - len(self.errors))])
            self.client_cpu += state.get("cpu_seconds", 0.0)


def _page_kind(path: str) -> str:
    """What a path is, for the per-page timings: its first part after the tournament, and
    whether it asks for a reader's place."""
    parts = [p for p in path.split("?")[0].split("/") if p]
    kind = parts[2] if len(parts) > 2 else "home"
    return kind + ("?joueur" if "joueur=" in path else "")


def spread(values: list[float]) -> dict:
    """Count, p50, p99 and max of a list of milliseconds."""
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50), 1),
        "p99_ms": round(percentile(values, 99), 1),
        "max_ms": round(max(values), 1),
    }


def timed(connection: http.client.HTTPConnection, method: str, path: str, **kwargs):
    sent = time.perf_counter()
    connection.request(method, path, **kwargs)
    response = connection.getresponse()
    body = response.read()
    return response, body, (time.perf_counter() - sent) * 1000


class Phones(threading.Thread):
    """Phones polling every ``REFRESH_SECONDS`` with the ETag of what they have (304 when
    nothing changed), spread over the servers."""

    def __init__(self, servers, paths, stop, recorder, kind, seed):
        super().__init__(daemon=True)
        self.servers, self.paths, self.stop = servers, paths, stop
        self.recorder, self.kind = recorder, kind
        self.rng = random.Random(seed)

    def run(self) -> None:
        try:
            self._poll()
        except Exception as error:  # a bug here must show in the summary, not end silently
            self.recorder.error(f"{self.kind} stopped: {type(error).__name__}: {error}")

    def _poll(self) -> None:
        tags: dict[str, str] = {}
        connections = {
            s.port: http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
            for s in self.servers
        }
        period = REFRESH_SECONDS / max(1, len(self.paths))
        next_at = time.perf_counter() + self.rng.random() * REFRESH_SECONDS
        while not self.stop.is_set():
            for path in self.paths:
                next_at += period
                delay = next_at - time.perf_counter()
                if delay > 0 and self.stop.wait(delay):
                    return
                server = self.rng.choice(self.servers)
                headers = {"Accept-Encoding": "gzip"}
                if path in tags:
                    headers["If-None-Match"] = tags[path]
                try:
                    response, _, ms = timed(connections[server.port], "GET", path, headers=headers)
                except (OSError, http.client.HTTPException) as error:
                    self.recorder.error(f"{self.kind} {path}: {error}")
                    connections[server.port] = http.client.HTTPConnection(
                        "127.0.0.1", server.port, timeout=30
                    )
                    continue
                if response.status == 200 and response.getheader("ETag"):
                    tags[path] = response.getheader("ETag")
                self.recorder.add(self.kind, ms, response.status, path)


@dataclass(frozen=True)
class Port:
    """A server as a client process knows it: its port."""

    port: int


def phone_process(ports, chunks, seconds, kind, seed, results) -> None:
    """A client process: one thread of :class:`Phones` per chunk of paths, for ``seconds``;
    puts what it recorded on ``results``. The phones run in several processes so that the
    client's own interpreter lock does not add its waits to the latencies it measures."""
    servers = [Port(port) for port in ports]
    stop, recorder = threading.Event(), Recorder()
    phones = [
        Phones(servers, paths, stop, recorder, kind, seed=seed + i)
        for i, paths in enumerate(chunks)
    ]
    for phone in phones:
        phone.start()
    stop.wait(seconds)
    stop.set()
    for phone in phones:
        phone.join(timeout=60)
    results.put({**recorder.state(), "cpu_seconds": time.process_time()})


class Referees(threading.Thread):
    """Deals posted at ``rate`` per second, alternately on each server; after every
    ``check_every``-th deal, the other server's page of a player at that table must show it."""

    def __init__(self, servers, items, rate, stop, recorder, player_paths, check_every=2):
        super().__init__(daemon=True)
        self.servers, self.items, self.rate, self.stop = servers, items, rate, stop
        self.player_paths = player_paths  # registration id -> their public page
        self.recorder, self.check_every = recorder, check_every
        self.posted = 0
        self.checked = 0
        self.stale: list[str] = []
        self.late: list[str] = []  # fresh only after a refresh interval

    def run(self) -> None:
        try:
            self._post_all()
        except Exception as error:  # a bug here must show in the summary, not end silently
            self.recorder.error(f"referees stopped: {type(error).__name__}: {error}")

    def _post_all(self) -> None:
        connections = [
            http.client.HTTPConnection("127.0.0.1", s.port, timeout=30) for s in self.servers
        ]
        next_at = time.perf_counter()
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={CSRF}",
        }
        for index, (path, body, number, registration) in enumerate(self.items):
            delay = next_at - time.perf_counter()
            if (delay > 0 and self.stop.wait(delay)) or self.stop.is_set():
                return
            next_at = max(next_at, time.perf_counter() - 1) + 1 / self.rate
            here = index % len(self.servers)
            try:
                response, _, ms = timed(
                    connections[here],
                    "POST",
                    path,
                    body=f"{body}&csrfmiddlewaretoken={CSRF}",
                    headers=headers,
                )
            except (OSError, http.client.HTTPException) as error:
                self.recorder.error(f"deal {path}: {error}")
                return
            self.recorder.add("deal", ms, response.status, path)
            if response.status != 302:
                self.recorder.error(f"deal {path} #{number}: status {response.status}")
                continue
            self.posted += 1
            if len(self.servers) > 1 and index % self.check_every == 0:
                other = (here + 1) % len(self.servers)
                self._check(connections[other], registration, number)

    def _check(self, connection, registration: int, number: int) -> None:
        path = self.player_paths[registration]
        anchor = f'id="round-1-deal-{number}"'.encode()
        for attempt in range(2):
            try:
                response, body, ms = timed(connection, "GET", path)
            except (OSError, http.client.HTTPException) as error:
                self.recorder.error(f"check {path}: {error}")
                return
            self.recorder.add("check", ms, response.status, path)
            if anchor in body:
                self.checked += 1
                if attempt:
                    self.late.append(f"{path} deal {number}")
                return
            if attempt == 0 and self.stop.wait(REFRESH_SECONDS):
                return
        self.checked += 1
        self.stale.append(f"{path} deal {number}")


def renders(servers) -> dict:
    """Renders per kept page version (its cache key), across every server's log."""
    counts: Counter = Counter()
    slow = 0.0
    times: dict[str, list[float]] = {}  # page -> render milliseconds
    for server in servers:
        for line in server.log.read_text(errors="replace").splitlines():
            match = RENDER.search(line)
            if match:
                times.setdefault(match.group(1), []).append(float(match.group(4)))
            if match and match.group(5) == "yes":
                counts[(match.group(1), match.group(3))] += 1
                slow = max(slow, float(match.group(4)))
    twice = {f"{page} {key}": n for (page, key), n in counts.items() if n > 1}
    return {
        "versions": len(counts),
        "renders": sum(counts.values()),
        "max_per_version": max(counts.values(), default=0),
        "rendered_twice": dict(list(twice.items())[:10]),
        "slowest_render_ms": round(slow, 1),
        "by_page": {page: spread(ms) for page, ms in sorted(times.items())},
    }


# --- the run ----------------------------------------------------------------------------------


def run(args) -> dict:
    OUT.mkdir(parents=True, exist_ok=True)
    name = args.database or f"bench_scale_{os.getpid()}"
    base = ["-h", "127.0.0.1", "-U", "postgres"]
    subprocess.run(["dropdb", *base, "--if-exists", name], check=True)
    subprocess.run(["createdb", *base, name], check=True)
    database_url = f"postgres://postgres@127.0.0.1:5432/{name}"
    prefix = f"bench-scale-{uuid.uuid4().hex[:8]}"
    redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
    servers: list = []
    try:
        log(f"building {args.players} players on PostgreSQL ({name})")
        plan = prepare(args.players, database_url)
        log(
            f"built in {plan['build_seconds']} s: {plan['tables']} tables of 4, "
            f"{plan['tables_ahead']} at their last deal"
        )
        from bench.djsetup import worker_env

        static = OUT / f"static-{os.getpid()}"
        env = worker_env(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            REDIS_KEY_PREFIX=prefix,
            DJANGO_STATIC_ROOT=str(static),
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            PAGE_CACHE_LOG_LEVEL="INFO",
        )
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        servers = start_servers(2, env, args.workers, args.gunicorn)
        for server in servers:
            server.wait(plan["standings"], timeout=120)
            for path in (plan["standings"], plan["tv"], plan["players"][0]):
                server.warm(path, n=2 * args.workers)
        stop = threading.Event()
        recorder = Recorder()
        rng = random.Random(3)
        phone_paths = []
        for pk, path in zip(plan["registrations"], plan["players"], strict=True):
            # A third read the standings at their own place, the others their own page.
            phone_paths.append(f"{plan['standings']}?joueur={pk}" if rng.random() < 1 / 3 else path)
        phone_paths = phone_paths[: args.phones]
        threads = max(1, min(args.threads, len(phone_paths)))
        chunks = [phone_paths[i::threads] for i in range(threads)]
        processes = max(1, min(args.client_processes, threads))
        context = multiprocessing.get_context("fork")  # before any thread of this process
        results = context.Queue()
        ports = [server.port for server in servers]
        clients = [
            context.Process(
                target=phone_process,
                args=(ports, chunks[i::processes], args.seconds, "public", i * 1000, results),
                daemon=True,
            )
            for i in range(processes)
        ]
        tvs = [Phones(servers, [plan["tv"]], stop, recorder, "tv", seed=100 + i) for i in range(2)]
        referees = Referees(
            servers,
            plan["items"],
            args.deals_per_second,
            stop,
            recorder,
            dict(zip(plan["registrations"], plan["players"], strict=True)),
        )
        # Where the machine's CPU goes during the load: the app servers' workers, the
        # database, Redis, the phones' client processes (and this one: TVs, referees).
        servers_pids = [pid for server in servers for pid in worker_ids(server)]
        cpu_before = {
            "app_workers": cpu_seconds(servers_pids),
            "postgres": cpu_seconds(process_ids("postgres")),
            "redis": cpu_seconds(process_ids("redis-server")),
        }
        own_cpu = time.process_time()
        machine_before = machine_cpu()
        began, load_before = time.perf_counter(), load()
        log(
            f"load for {args.seconds} s: {len(phone_paths)} phones on {threads} threads in "
            f"{processes} processes, 2 TVs, {args.deals_per_second} deals/s"
        )
        for client in clients:
            client.start()
        for thread in [*tvs, referees]:
            thread.start()
        documents = documents_hook(servers, plan, stop, recorder) if args.documents else None
        stop.wait(args.seconds)
        stop.set()
        for thread in [*tvs, referees]:
            thread.join(timeout=60)
        for _ in clients:
            recorder.merge(results.get(timeout=120))
        for client in clients:
            client.join(timeout=30)
        seconds = time.perf_counter() - began
        cpu = {
            "app_workers": cpu_seconds(servers_pids) - cpu_before["app_workers"],
            "postgres": cpu_seconds(process_ids("postgres")) - cpu_before["postgres"],
            "redis": cpu_seconds(process_ids("redis-server")) - cpu_before["redis"],
            "phone_clients": recorder.client_cpu,
            "tvs_and_referees": time.process_time() - own_cpu,
        }
        machine_after = machine_cpu()
        ticks = {k: machine_after[k] - machine_before[k] for k in machine_before}
        # The whole machine, in cores: busy (user, system, interrupts), idle, and stolen by the
        # host (a shared virtual machine's cores are not always its own).
        machine = {
            "busy": sum(ticks[k] for k in ("user", "nice", "system", "irq", "softirq")),
            "idle": ticks["idle"] + ticks["iowait"],
            "steal": ticks.get("steal", 0),
        }
        memory = [mb for server in servers for mb in worker_memory_mb(server)]
        rendered = renders(servers)
    finally:
        for server in servers:
            server.__exit__(None, None, None)
        subprocess.run(["dropdb", *base, "--if-exists", name], check=False)
        _forget_redis(redis_url, prefix)
        shutil.rmtree(OUT / f"static-{os.getpid()}", ignore_errors=True)
    public = recorder.latencies.get("public", []) + recorder.latencies.get("tv", [])
    statuses = dict(recorder.statuses)
    result = {
        "players": args.players,
        "tables": plan["tables"],
        "seconds": round(seconds, 1),
        "load_before": load_before,
        "load_after": load(),
        "requests": sum(statuses.values()),
        "statuses": statuses,
        "errors": recorder.errors,
        "deals_posted": referees.posted,
        # Cores used on average during the load, by part (2 on this machine kind).
        "cores_used": {name: round(value / seconds, 2) for name, value in cpu.items()},
        "machine_cores": {
            name: round(value / os.sysconf("SC_CLK_TCK") / seconds, 2)
            for name, value in machine.items()
        },
        # Deals that made a sheet count (the standings changed): the tables ahead's last deals.
        "sheets_completed": sum(
            1 for _, _, number, _ in plan["items"][: referees.posted] if number == plan["deals"]
        ),
        "by_page": {page: spread(ms) for page, ms in sorted(recorder.by_page.items())},
        "figures": {
            "renders_per_version": figure(rendered["max_per_version"], 1, "", **rendered),
            "stale_reads": figure(
                len(referees.stale),
                0,
                "",
                checked=referees.checked,
                fresh_only_after_refresh=len(referees.late),
                examples=referees.stale[:5],
            ),
            "public_p99_ms": figure(
                round(percentile(public, 99), 1) if public else None,
                50,
                "ms",
                p50_ms=round(percentile(public, 50), 1) if public else None,
                requests=len(public),
                requests_per_s=round(len(public) / seconds, 1),
            ),
            "slowest_request_ms": figure(
                round(recorder.slowest[0], 1), 2000, "ms", what=recorder.slowest[1]
            ),
            "worker_memory_mb": figure(max(memory, default=0), 250, "MB", each=memory),
        },
    }
    if documents is not None:
        result["figures"]["documents"] = documents
    return result


def documents_hook(servers, plan, stop, recorder):
    """The whole tournament's score sheets made as a job while the load runs: provided by
    ``bench/scale_documents.py`` when the app has document jobs (None otherwise)."""
    try:
        from bench import scale_documents
    except ImportError:
        return None
    return scale_documents.run(servers, plan, stop, recorder)


def _forget_redis(url: str, prefix: str) -> None:
    try:
        import redis
    except ImportError:
        return
    try:
        client = redis.Redis.from_url(url)
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)
    except redis.RedisError:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--phones", type=int, default=None, help="default: one per player")
    parser.add_argument("--threads", type=int, default=24, help="client threads for the phones")
    parser.add_argument(
        "--client-processes", type=int, default=4, help="processes the phone threads run in"
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per server")
    parser.add_argument("--deals-per-second", type=float, default=2.0)
    parser.add_argument(
        "--gunicorn",
        default="--no-control-socket",
        help="more gunicorn options for both servers (e.g. --threads 4)",
    )
    parser.add_argument("--redis-db", type=int, default=11)
    parser.add_argument(
        "--database", default="", help="the run's PostgreSQL database (dropped at the end)"
    )
    parser.add_argument("--documents", action="store_true", help="staff make documents too")
    parser.add_argument("--short", action="store_true", help="300 players for one minute (CI)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 on a stale read or a second render; 3 on a slow request only",
    )
    args = parser.parse_args()
    if args.short:
        args.players, args.seconds, args.threads, args.client_processes = 300, 60, 8, 2
    if args.phones is None:
        args.phones = args.players
    result = run(args)
    out = OUT / f"scale-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    print(json.dumps(result["figures"], indent=2, ensure_ascii=False))
    log(f"summary in {out.relative_to(ROOT)}")
    if args.check:
        figures = result["figures"]
        failed = [
            name
            for name in ("renders_per_version", "stale_reads", "slowest_request_ms")
            if figures[name]["pass"] is False
        ]
        if result["deals_posted"] == 0:
            failed.append("no deal was posted")
        if failed:
            log("FAILED: " + ", ".join(failed))
            # A request over 2 s alone may be the machine (another job on a shared CI host):
            # exit 3 lets the caller run the check once more; a stale read, a second render or
            # no deal posted is the app's fault and exits 1.
            sys.exit(3 if failed == ["slowest_request_ms"] else 1)
        log("pass: one render per version, no stale read, no request over 2 s")


if __name__ == "__main__":
    main()

"""Benchmark of the page cache's tiers (``scoring/pagecache.py``):
``python bench/pagecache_tier.py`` prints JSON figures, in µs per hit, for a public standings
page of 1,000 and 3,000 players.

- ``local``: a hit in the process's own tier (what most requests of a worker get);
- ``redis``: a hit from Redis with an empty local tier (the first request of a worker after a
  version changed elsewhere): the one kept copy, gzipped, moved and unpickled;
- ``redis_two_copies``: for comparison, what a Redis hit cost when the page was kept as the
  page and its gzip copy together (the per-process cache's layout put in Redis);
- ``locmem``: the laptop's cache (Django's LocMemCache, no Redis), as today;
- ``answer_plain``: the page decompressed for a client that does not take gzip (one that does
  gets the kept bytes as they are).

No database: the page is a standings table of realistic size. Redis: ``--redis URL`` (default
``$REDIS_URL``, else ``redis://127.0.0.1:6379/0``); its keys carry a prefix of their own and are
deleted at the end. ``--runs 2000``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import setup  # noqa: E402


def standings_html(players: int, seed: int = 1) -> bytes:
    """About the standings page of ``players`` players (8 rounds): rows of names and figures."""
    rng = random.Random(seed)
    first = ["Marie", "Jean", "Chloé", "Louis", "Léa", "Hugo", "Emma", "Paul", "Jade", "Luc"]
    last = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand"]
    rows = []
    for rank in range(1, players + 1):
        rounds = "".join(
            f'<td class="num hide-narrow">{rng.randint(-400, 400)}</td>' for _ in range(8)
        )
        rows.append(
            f'<tr class="{"odd" if rank % 2 else "even"}"><td class="num">{rank}</td>'
            f"<td>{rng.choice(first)} {rng.choice(last)}{rng.randint(1, 999)}</td>"
            f'<td class="hide-narrow">Club de Tarot n°{rng.randint(1, 80)}</td>'
            f'<td class="num strong">{rng.randint(-2000, 2000)}</td>{rounds}'
            f'<td class="num hide-narrow"></td><td class="num hide-narrow">40</td>'
            f'<td class="num hide-narrow">{rng.randint(0, 10)} / {rng.randint(0, 10)}</td></tr>'
        )
    body = "".join(rows)
    return f"<html><body><table><tbody>{body}</tbody></table></body></html>".encode()


def per_hit_us(call, runs: int) -> float:
    """The median of 5 batches, in µs per call."""
    batches = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(runs // 5):
            call()
        batches.append((time.perf_counter() - started) / (runs // 5) * 1e6)
    return round(statistics.median(batches), 1)


def measure(redis_url: str, runs: int) -> dict:
    setup()
    from django.core.cache.backends.locmem import LocMemCache
    from django.core.cache.backends.redis import RedisCache
    from django.utils.text import compress_string

    from scoring.pagecache import Entry, LocalTier, PageCache

    prefix = f"bench-pagecache-{uuid.uuid4().hex}"
    redis = RedisCache(redis_url, {"KEY_PREFIX": prefix, "TIMEOUT": 600})
    figures: dict = {"redis": redis_url, "runs": runs, "load": os.getloadavg()[0]}
    try:
        for players in (1000, 3000):
            page = standings_html(players)
            entry = Entry.of(page, {"Content-Type": "text/html; charset=utf-8"})
            key = f"public:v-{players}:/t/x/classement/"
            local = PageCache(redis, LocalTier(8 * 1024 * 1024))
            local.fetch(key, lambda e=entry: e, page="bench", version="v")
            cold = PageCache(redis, None)  # no local tier: every hit from Redis
            both = {"content": page, "gzip": compress_string(page), "headers": {}}
            redis.set(f"{key}:both", both)
            memory = LocMemCache(f"bench-{prefix}", {"TIMEOUT": 600})
            laptop = PageCache(memory, None)
            laptop.fetch(key, lambda e=entry: e, page="bench", version="v")
            figures[str(players)] = {
                "page_kb": round(len(page) / 1024, 1),
                "kept_kb": round(len(entry.body) / 1024, 1),
                "local_us": per_hit_us(lambda k=key, c=local: c.get(k), runs),
                "redis_us": per_hit_us(lambda k=key, c=cold: c.get(k), runs),
                "redis_two_copies_us": per_hit_us(lambda k=f"{key}:both": redis.get(k), runs),
                "locmem_us": per_hit_us(lambda k=key, c=laptop: c.get(k), runs),
                "answer_plain_us": per_hit_us(entry.content, max(50, runs // 10)),
            }
            memory.clear()
    finally:
        client = redis._cache.get_client(write=True)
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        for pool in redis._cache._pools.values():
            pool.disconnect()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    figures = measure(args.redis, args.runs)
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "pagecache_tier.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

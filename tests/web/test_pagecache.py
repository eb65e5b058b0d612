"""One render per page version across the deployment (``scoring/pagecache.py``): the render
lock and its re-check, the local tier, Redis shared by two app servers, one gzip copy served
as it is to a client that takes gzip, and 304 from the version alone."""

from __future__ import annotations

import gzip
import logging
import threading
import time
import uuid

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.test import Client
from django.urls import reverse

from scoring import pagecache
from scoring.demo import create_demo
from scoring.pagecache import Entry, LocalTier, PageCache
from tournaments.models import Registration

REDIS_URL = "redis://127.0.0.1:6379/4"  # this project's Redis database for tests


def memory(name: str) -> LocMemCache:
    cache = LocMemCache(f"pagecache-test-{name}-{uuid.uuid4().hex}", {"TIMEOUT": 60})
    cache.clear()
    return cache


class Renders:
    """A page's renderer that counts its renders."""

    def __init__(self, body: bytes = b"<p>standings</p>" * 200, pause: float = 0.0):
        self.body, self.pause, self.count = body, pause, 0
        self._lock = threading.Lock()

    def __call__(self) -> Entry:
        with self._lock:
            self.count += 1
        if self.pause:
            time.sleep(self.pause)
        return Entry.of(self.body, {"Content-Type": "text/html; charset=utf-8"})


class OtherWorkerFinishesFirst:
    """A shared cache in which, just before this worker's ``add`` of the lock, another worker
    (which held the lock) stores the page and releases the lock: the race between a miss and
    the lock."""

    def __init__(self, cache, before_add):
        self._cache, self._before_add, self._done = cache, before_add, False

    def add(self, *args):
        if not self._done:
            self._done = True
            self._before_add()
        return self._cache.add(*args)

    def __getattr__(self, name):
        return getattr(self._cache, name)


def test_a_worker_that_takes_the_lock_after_another_stored_the_page_does_not_render_it_again():
    shared = memory("race")
    renders = Renders()
    other = PageCache(shared)
    # This worker missed; before it takes the lock, the other worker renders, stores, releases.
    this = PageCache(
        OtherWorkerFinishesFirst(
            shared, lambda: other.fetch("k", renders, page="standings", version="v1")
        )
    )
    entry = this.fetch("k", renders, page="standings", version="v1")
    assert entry.content() == renders.body
    assert renders.count == 1, "the lock was taken after the page was stored: look again"


def test_the_race_is_caught_by_the_re_check(monkeypatch):
    """Without the look after the lock, the same interleaving renders twice (the test above
    would fail)."""
    shared = memory("race-no-check")
    renders = Renders()
    other = PageCache(shared)
    this = PageCache(
        OtherWorkerFinishesFirst(
            shared, lambda: other.fetch("k", renders, page="standings", version="v1")
        )
    )
    calls = []
    real_get = PageCache.get

    def get_once(self, key):  # the first look only: the re-check finds nothing
        calls.append(self)
        return real_get(self, key) if self is other or len(calls) == 1 else None

    monkeypatch.setattr(PageCache, "get", get_once)
    this.fetch("k", renders, page="standings", version="v1")
    assert renders.count == 2


def test_workers_missing_at_once_render_the_version_once():
    shared = memory("threads")
    renders = Renders(pause=0.2)
    workers = [PageCache(shared, LocalTier(1 << 20)) for _ in range(6)]
    barrier = threading.Barrier(len(workers))
    bodies = []

    def ask(worker):
        barrier.wait()
        bodies.append(worker.fetch("k", renders, page="standings", version="v1").content())

    threads = [threading.Thread(target=ask, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert bodies == [renders.body] * len(workers)
    assert renders.count == 1


def test_a_waiting_worker_renders_itself_when_the_renderer_takes_too_long():
    shared = memory("timeout")
    shared.add("k:lock", "someone else", 60)  # a worker that never finishes
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds

    worker = PageCache(shared, wait=1.0, poll=0.1, sleep=sleep, clock=lambda: now[0])
    renders = Renders()
    entry = worker.fetch("k", renders, page="standings", version="v1")
    assert entry.content() == renders.body and renders.count == 1
    assert now[0] >= 1.0  # it waited for the other's copy first


def test_a_waiting_worker_takes_over_when_the_renderer_kept_nothing():
    """The renderer's answer was not a page to keep (a 404): its lock goes and the next worker
    renders at once, instead of waiting out its time for a copy that never comes."""
    shared = memory("not-kept")
    shared.add("k:lock", "someone else", 60)
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds
        shared.delete_many(["k:lock"])  # the other worker's answer: a 404, released

    worker = PageCache(shared, wait=1.0, poll=0.1, sleep=sleep, clock=lambda: now[0])
    answer = worker.fetch("k", lambda: "not found", page="player", version="v1")
    assert answer == "not found" and now[0] == pytest.approx(0.1)
    assert shared.get("k") is None and shared.get("k:lock") is None


def test_one_copy_per_version_gzipped_when_smaller():
    page = Entry.of(b"<tr><td>1</td></tr>" * 500, {})
    assert page.gzipped and len(page.body) < 1000
    assert page.content() == b"<tr><td>1</td></tr>" * 500
    tiny = Entry.of(b"x", {})
    assert not tiny.gzipped and tiny.body == b"x"


def test_the_local_tier_drops_the_least_recently_used_by_bytes():
    tier = LocalTier(limit=250)
    for key in "abc":
        tier.put(key, Entry(b"x" * 100, False, ()))
    assert tier.get("a") is None and len(tier) == 2 and tier.used == 200
    tier.get("b")  # b used: c goes first
    tier.put("d", Entry(b"x" * 100, False, ()))
    assert tier.get("c") is None and tier.get("b") is not None
    tier.put("huge", Entry(b"x" * 300, False, ()))  # larger than the tier: never kept
    assert tier.get("huge") is None and tier.used <= 250


def test_a_page_is_served_when_the_shared_cache_is_away(caplog):
    away = RedisCache(
        "redis://127.0.0.1:1/0",  # nobody listens on port 1
        {"OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}},
    )
    renders = Renders()
    with caplog.at_level(logging.WARNING, logger="tarot.pagecache"):
        entry = PageCache(away, LocalTier(1 << 20)).fetch(
            "k", renders, page="standings", version="v1"
        )
        again = PageCache(away, LocalTier(1 << 20)).fetch(
            "k", renders, page="standings", version="v1"
        )
    assert entry.content() == again.content() == renders.body
    # Once found away, the cache is left alone for a while: one warning, not one per call.
    warnings = [r for r in caplog.records if "page cache unavailable" in r.getMessage()]
    assert len(warnings) == 1


# -- Redis shared by two app servers ------------------------------------------------------------


OPENED: list[RedisCache] = []


def disconnect(cache: RedisCache) -> None:
    """Close a cache's connections (Django's ``close()`` keeps them for the next request)."""
    for pool in cache._cache._pools.values():
        pool.disconnect()


@pytest.fixture
def redis_prefix():
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError:
        client.close()
        pytest.skip("no Redis on 127.0.0.1:6379")
    prefix = f"test-pagecache-{uuid.uuid4().hex}"
    yield prefix
    while OPENED:
        disconnect(OPENED.pop())
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


def redis_cache(prefix: str) -> RedisCache:
    cache = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix, "TIMEOUT": 60})
    OPENED.append(cache)
    return cache


def test_two_app_servers_on_redis_render_each_version_once(redis_prefix, caplog):
    servers = [PageCache(redis_cache(redis_prefix), LocalTier(1 << 20)) for _ in range(2)]
    renders = Renders()
    with caplog.at_level(logging.INFO, logger="tarot.pagecache"):
        first = servers[0].fetch("public:v1:/t/x/classement/", renders, page="s", version="v1")
        second = servers[1].fetch("public:v1:/t/x/classement/", renders, page="s", version="v1")
        servers[1].fetch("public:v2:/t/x/classement/", renders, page="s", version="v2")
    assert first == second and renders.count == 2  # v1 once, v2 once
    logged = [r for r in caplog.records if r.name == "tarot.pagecache"]
    assert [(r.page, r.version) for r in logged] == [("s", "v1"), ("s", "v2")]
    assert all(r.ms >= 0 for r in logged)


def test_concurrent_misses_on_redis_render_once(redis_prefix):
    renders = Renders(pause=0.2)
    workers = [PageCache(redis_cache(redis_prefix), LocalTier(1 << 20)) for _ in range(4)]
    barrier = threading.Barrier(len(workers))
    results = []

    def ask(worker):
        barrier.wait()
        results.append(worker.fetch("k", renders, page="s", version="v").content())

    threads = [threading.Thread(target=ask, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results == [renders.body] * 4 and renders.count == 1


# -- The public pages ----------------------------------------------------------------------------


@pytest.fixture
def played(db):
    return create_demo(players=8, rounds=2, deals=1, seed=3).tournament


@pytest.mark.django_db
def test_a_client_that_takes_gzip_gets_the_kept_copy_and_another_the_page(played, caplog):
    url = reverse("public:standings", args=[played.slug])
    with caplog.at_level(logging.INFO, logger="tarot.pagecache"):
        packed = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
        plain = Client().get(url, HTTP_ACCEPT_ENCODING="identity")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert "Content-Encoding" not in plain and b"</table>" in plain.content
    renders = [r for r in caplog.records if r.name == "tarot.pagecache"]
    assert len(renders) == 1 and renders[0].page == "public:standings"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["public:standings", "public:tv", "public:player", "public:round", "public:home"]
)
def test_an_unchanged_page_answers_304_with_one_query_and_no_render(
    played, name, django_assert_num_queries, caplog
):
    args = [played.slug]
    if name == "public:player":
        args.append(Registration.objects.filter(tournament=played).first().pk)
    if name == "public:round":
        args.append(1)
    url = reverse(name, args=args)
    client = Client()
    tag = client.get(url, HTTP_ACCEPT_ENCODING="gzip")["ETag"]
    caplog.clear()
    with (
        caplog.at_level(logging.INFO, logger="tarot.pagecache"),
        django_assert_num_queries(1),
    ):
        again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag
    assert not [r for r in caplog.records if r.name == "tarot.pagecache"]


@pytest.mark.django_db
def test_public_pages_on_redis_render_once_for_two_servers(played, redis_prefix, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": redis_prefix,
        }
    }
    url = reverse("public:standings", args=[played.slug])
    seen = []

    class Count(logging.Handler):
        def emit(self, record):
            seen.append(record.version)

    handler = Count()
    logging.getLogger("tarot.pagecache").addHandler(handler)
    try:
        first = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
        pagecache._local_tiers.clear()  # the second server: its own process, its own tier
        second = Client().get(url)
        assert Client().get(url, HTTP_ACCEPT_ENCODING="gzip").content == first.content
    finally:
        logging.getLogger("tarot.pagecache").removeHandler(handler)
        pagecache._local_tiers.clear()
        disconnect(caches["default"])
    assert gzip.decompress(first.content) == second.content
    assert len(seen) == 1

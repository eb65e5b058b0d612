"""One render per page version for the whole deployment.

A public page is named by its version (the tournament's last change, the language, the page's
parameters: ``scoring.views.public``), so a kept copy is never stale: a new version is a new key.
The copies live in Django's ``default`` cache: in this process on a laptop (LocMemCache), in Redis
when the deployment names one (``REDIS_URL``, ``tarot_club/settings.py``), shared by every app
server. With Redis, a small tier in this process (``PAGE_CACHE_LOCAL_MB``, least recently used
out first, counted in bytes) sits in front: a hit there costs no round trip and no unpickling
(``bench/pagecache_tier.py``).

When a version changes, every worker misses at once. The first takes a short lock
(``cache.add``) and renders; the others poll the cache for its copy (or for the lock to go) and
render themselves only when it takes longer than ``WAIT_SECONDS`` (a crashed renderer). The one
that took the lock looks in the cache again before rendering: another worker may have stored the
page and released the lock between this worker's miss and its lock.

Each version is kept once: gzip-compressed when that is smaller, so a hit moves the compressed
bytes (tens of kB) to a client that accepts gzip and decompresses them for one that does not.
Every render is logged on ``tarot.pagecache`` (page, version, milliseconds), so that renders can be
counted across servers. The cache going away (Redis down) never fails a page: it is rendered.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils.text import compress_string

logger = logging.getLogger("tarot.pagecache")

KEEP_SECONDS = 600  # an old version is not asked for again once every phone has the new one
LOCK_SECONDS = 10  # past this a crashed renderer's lock expires (a 3,000-player page: ~0.2 s)
# How long the others wait for the renderer's copy while it holds the lock: rendering the same
# page themselves would take as long, on a busier machine. Two app servers of 2 workers each,
# under load, started cold: a first render took 0.8 s, and a 1 s wait gave 2 renders
# (``bench/figures.md``).
WAIT_SECONDS = 5.0
POLL_SECONDS = 0.01  # the first wait; then 1.5 times longer each time, up to MAX_POLL_SECONDS
MAX_POLL_SECONDS = 0.1
KEPT_HEADERS = ("Content-Type", "Content-Disposition")


@dataclass(frozen=True)
class Entry:
    """One version of a page as kept: its body (gzipped when that was smaller) and headers."""

    body: bytes
    gzipped: bool
    headers: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, content: bytes, headers: dict[str, str]) -> Entry:
        packed = compress_string(content)
        smaller = len(packed) < len(content)
        return cls(packed if smaller else content, smaller, tuple(headers.items()))

    def content(self) -> bytes:
        """The page as rendered (decompressed when kept gzipped)."""
        return gzip.decompress(self.body) if self.gzipped else self.body

    def kept(self) -> tuple:
        return (self.body, self.gzipped, self.headers)

    @classmethod
    def from_kept(cls, value) -> Entry | None:
        if not isinstance(value, tuple) or len(value) != 3:
            return None
        return cls(*value)


class LocalTier:
    """Entries kept in this process, least recently used out first, at most ``limit`` bytes."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Entry | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: Entry) -> None:
        size = len(entry.body)
        if size > self.limit:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.used -= len(old.body)
            self._entries[key] = entry
            self.used += size
            while self.used > self.limit:
                _key, dropped = self._entries.popitem(last=False)
                self.used -= len(dropped.body)

    def __len__(self) -> int:
        return len(self._entries)


class PageCache:
    """The shared cache (a Django cache) with an optional local tier in front."""

    def __init__(
        self,
        shared,
        local: LocalTier | None = None,
        *,
        wait: float = WAIT_SECONDS,
        poll: float = POLL_SECONDS,
        lock_seconds: int = LOCK_SECONDS,
        keep_seconds: int = KEEP_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.shared = shared
        self.local = local
        self.wait, self.poll = wait, poll
        self.lock_seconds, self.keep_seconds = lock_seconds, keep_seconds
        self.sleep, self.clock = sleep, clock

    def get(self, key: str) -> Entry | None:
        if self.local is not None:
            entry = self.local.get(key)
            if entry is not None:
                return entry
        entry = Entry.from_kept(self._shared("get", key))
        if entry is not None and self.local is not None:
            self.local.put(key, entry)
        return entry

    def fetch(self, key: str, produce: Callable[[], Entry | object], *, page: str, version: str):
        """The entry for ``key``, rendered by ``produce()`` once across the deployment.

        ``produce`` returns an :class:`Entry`, or anything else (an error page) that is returned
        as it is and never kept.
        """
        lock = f"{key}:lock"
        deadline = self.clock() + self.wait
        poll = self.poll
        while True:
            entry = self.get(key)
            if entry is not None:
                return entry
            if self._shared("add", lock, uuid.uuid4().hex, self.lock_seconds):
                try:
                    # Between this worker's miss and its lock, another may have rendered,
                    # stored and released: look again rather than render the version twice.
                    entry = self.get(key)
                    if entry is None:
                        entry = self._render(key, produce, page=page, version=version)
                    return entry
                finally:
                    self._shared("delete_many", [lock])
            # Another worker renders: wait for its copy (or its lock to go, when its answer
            # was not a page to keep), and past ``wait`` render here.
            if self.clock() >= deadline:
                return self._render(key, produce, page=page, version=version)
            self.sleep(poll)
            poll = min(poll * 1.5, MAX_POLL_SECONDS)

    def render_only(self, produce, *, page: str, version: str):
        """An answer never kept (a free-text search), logged like any render."""
        return self._render(None, produce, page=page, version=version)

    def _render(self, key: str | None, produce, *, page: str, version: str):
        started = time.perf_counter()
        entry = produce()
        ms = (time.perf_counter() - started) * 1000
        kept = key is not None and isinstance(entry, Entry)
        # The key names the version of this very page (a player's own page, a query): the
        # short digest lets renders be counted per kept copy across servers (bench/scale.py).
        digest = hashlib.sha1((key or "").encode(), usedforsecurity=False).hexdigest()[:12]
        logger.info(
            "render page=%s version=%s key=%s ms=%.1f kept=%s",
            page,
            version,
            digest,
            ms,
            "yes" if kept else "no",
            extra={"page": page, "version": version, "ms": round(ms, 1), "kept": kept},
        )
        if kept:
            self._shared("set", key, entry.kept(), self.keep_seconds)
            if self.local is not None:
                self.local.put(key, entry)
        return entry

    def _shared(self, method: str, *args):
        """A call on the shared cache; when it fails (Redis away), the page is rendered, and
        the cache is left alone for ``AWAY_SECONDS`` (each call would wait for its timeout)."""
        missing = None if method != "add" else True  # no lock to take: render
        name = _name(self.shared)
        if _away_until.get(name, 0.0) > time.monotonic():
            return missing
        try:
            return getattr(self.shared, method)(*args)
        except Exception:  # any client error (Redis away, a timeout): serve the page uncached
            _away_until[name] = time.monotonic() + AWAY_SECONDS
            logger.warning(
                "page cache unavailable (%s): pages rendered without it for %d s",
                method,
                AWAY_SECONDS,
                exc_info=True,
            )
            return missing


AWAY_SECONDS = 5
_away_until: dict[str, float] = {}  # a shared cache that failed -> when to try it again
_local_tiers: dict[int, LocalTier] = {}


def _name(cache) -> str:
    return "{}:{}:{}".format(
        type(cache).__name__, getattr(cache, "_servers", ""), getattr(cache, "key_prefix", "")
    )


def page_cache() -> PageCache:
    """The process's page cache over Django's ``default`` cache (with the local tier in front
    when that cache is not already in this process)."""
    shared = caches["default"]
    local = None
    if not isinstance(shared, LocMemCache):
        limit = int(settings.PAGE_CACHE_LOCAL_MB * 1024 * 1024)
        local = _local_tiers.get(limit)
        if local is None:
            local = _local_tiers.setdefault(limit, LocalTier(limit))
    return PageCache(shared, local)

"""How a public page answers: one render per page version, then 304 or the kept copy.

Every public page (no login) is decorated with :func:`public_page`. Its *version* says
everything the page shows: the tournament's last change, or a finer version
(``scoring/page_versions.py``), the language, and the query parameters the page reads. The
version is the ETag and part of the cache key, so a change never leaves a stale page behind.
The kept copy is also gzipped once per version: a 1,000-player standings page is about 550 kB
of HTML and 40 kB gzipped, which matters on a phone in a busy hall. Public pages carry no secret
(no CSRF token, nothing of the reader's session), so keeping and compressing them is safe.

**Revalidation first** (:class:`RevalidateFirstMiddleware`). During play most requests are a
phone or a TV asking whether its page changed (every 4 s, ``templates/public/base.html``), and
the answer is almost always no. Through Django's whole middleware stack (sessions,
authentication, messages, CSRF, history, CSP, login throttling) that "no" cost about 2.2 ms of
CPU, and 3,000 phones ask 750 times a second (issue 28). The middleware, placed right after
the security and static-file layers, computes the page's version exactly as the page does (the
same function, :meth:`PublicPage.version`) and answers 304 at once when the reader holds it.
Anything else (no ETag, another version, an unknown tournament) goes on through the stack as
before. Nothing a 304 skips could change its answer: a public page reads no session, no user
and no cookie but the language one, which is read here as the locale middleware reads it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.urls import Resolver404, resolve
from django.utils import translation
from django.views.decorators.http import require_safe

from scoring.page_versions import Stamp, seen_by, shared_changed_at, stamp_of, tournament_version
from scoring.pagecache import KEPT_HEADERS, Entry, page_cache
from scoring.services.versions import shared_publish
from tournaments.models import Tournament


class PublicPage:
    """What a public page's version is made of (see :func:`public_page`)."""

    def __init__(self, view, *, uses, stored, versioned, per_player, reader=None):
        self.view = view
        self.reads = dict(sorted((uses or {}).items()))
        self.stored, self.versioned, self.per_player = stored, versioned, per_player
        self.reader = reader

    def version(self, request, slug: str, kwargs: dict) -> tuple[Stamp, str, str]:
        """The tournament's stamp, the page's version for this request (in the active
        language) and the normalised query it reads; 404 for an unknown tournament."""
        reader = kwargs.get("registration_id") if self.per_player else None
        stamp = stamp_of(slug, registration_id=reader)
        if stamp is None:
            raise Http404
        reader = self._reader(request, kwargs)
        if reader is not None:  # a per-reader page: rank changes reach it spread over time
            stamp, publication = seen_by(stamp, int(reader))
            if publication is not None:
                shared_publish(
                    tournament_id=publication.tournament_id,
                    read_at=publication.read_at,
                    previous=publication.previous,
                    current=publication.current,
                    published_at=publication.published_at,
                )
        if self.versioned is None:
            version = tournament_version(stamp)
        else:
            version = self.versioned(stamp, **kwargs)
        version += f"-{translation.get_language()}"
        query = "&".join(
            f"{name}={read(request.GET.get(name, ''), stamp)}" for name, read in self.reads.items()
        )
        if query:  # one tag per answer: the same page with other parameters is another answer
            version += "-" + hashlib.sha256(query.encode()).hexdigest()[:12]
        return stamp, version, query

    def answer(self, request, slug: str, **kwargs):
        stamp, version, query = self.version(request, slug, kwargs)
        reading = self._reader(request, kwargs) is not None
        keep = self.stored is None or self.stored(request)

        def produce():
            # Loaded only to render: a kept copy or a 304 needs only the stamp.
            tournament = get_object_or_404(Tournament, pk=stamp.pk)
            if reading:  # standings at least as recent as the rank change its reader adopted
                tournament.standings_as_of = shared_changed_at(stamp)
                tournament.standings_reader = kwargs.get("registration_id")
            return self.view(request, tournament, **kwargs)

        return cached_answer(
            request, version, produce, key=f"public:{version}:{request.path}?{query}", keep=keep
        )

    def _reader(self, request, kwargs: dict) -> int | None:
        """The registration whose page this is (a player's page, the standings at a reader's
        place), or None."""
        if self.per_player:
            return kwargs.get("registration_id")
        return self.reader(request) if self.reader is not None else None

    def not_modified(self, request, slug: str, kwargs: dict) -> HttpResponse | None:
        """304 when the reader holds this request's version, else None (answered in full)."""
        with translation.override(translation.get_language_from_request(request)):
            try:
                _stamp, version, _query = self.version(request, slug, kwargs)
            except Http404:  # the full path answers it
                return None
        return held(request, version)


def public_page(
    view=None,
    *,
    uses: dict[str, Callable[[str, Tournament], str]] | None = None,
    stored=None,
    versioned=None,
    per_player: bool = False,
    reader: Callable[[object], int | None] | None = None,
):
    """Decorate a public view ``view(request, tournament, **kwargs)``: load the tournament,
    answer 304 or a kept copy when nothing changed since.

    The key holds only what the page reads: ``uses`` names its query parameters, each with the
    function that gives its normalised value from the text and the tournament's stamp
    (``?apres=2&x=1`` and ``?apres=02`` share one entry; an unknown parameter never makes a new
    one). ``stored(request)`` says whether the answer may be kept at all (a search with free
    text is not: it would fill the cache). ``versioned(stamp, **kwargs)``, when given, is a
    finer version than the tournament's last change, for a page a deal elsewhere leaves
    unchanged (``scoring/page_versions.py``); ``per_player``: the stamp reads the last change
    of the sheets of the player of ``registration_id`` too. A per-player page, or one whose
    ``reader(request)`` names a reader's registration id, is a per-reader page: it reads the
    shared version that reader has adopted, so rank changes reach a large field's phones spread
    over time (``scoring/page_versions.py``).
    """
    if view is None:
        return functools.partial(
            public_page,
            uses=uses,
            stored=stored,
            versioned=versioned,
            per_player=per_player,
            reader=reader,
        )
    page = PublicPage(
        view, uses=uses, stored=stored, versioned=versioned, per_player=per_player, reader=reader
    )

    @functools.wraps(view)
    @require_safe
    def wrapper(request, slug, **kwargs):
        return page.answer(request, slug, **kwargs)

    wrapper.public_page = page
    return wrapper


def held(request, version: str) -> HttpResponse | None:
    """304 when the reader's If-None-Match holds ``version`` (plain or gzipped), else None."""
    asked = request.headers.get("If-None-Match", "")
    if not asked:
        return None
    plain_tag, packed_tag = f'"{version}"', f'"{version}-gz"'
    # A client that takes gzip may hold either tag: pages that do not shrink (the Excel and
    # PDF exports) are sent as they are, with the plain tag.
    gzipped = _accepts_gzip(request)
    if plain_tag in asked or (gzipped and packed_tag in asked):  # GET or HEAD (require_safe)
        response = HttpResponseNotModified()
        response["ETag"] = packed_tag if gzipped and packed_tag in asked else plain_tag
        return _revalidate_headers(response)
    return None


def cached_answer(request, version: str, produce, *, key: str | None = None, keep: bool = True):
    """A public answer for ``version``: 304 when the client holds it, else the cached copy (made
    by ``produce()`` once per version), gzipped when the client takes it. ``version`` changes
    with anything the page shows; ``keep=False`` answers without storing (free-text searches).
    """
    not_modified = held(request, version)
    if not_modified is not None:
        return not_modified
    key = key or f"public:{version}:{request.path}"
    gzipped = _accepts_gzip(request)
    pages = page_cache()
    page = request.resolver_match.view_name if request.resolver_match else request.path
    if keep:
        entry = pages.fetch(key, lambda: _entry(produce), page=page, version=version)
    else:
        entry = pages.render_only(lambda: _entry(produce), page=page, version=version)
    if not isinstance(entry, Entry):
        return entry  # not a page to keep (a 404...): as it was produced
    compressed = gzipped and entry.gzipped
    response = HttpResponse(entry.body if compressed else entry.content())
    for name, value in entry.headers:
        response[name] = value
    if compressed:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = f'"{version}-gz"' if compressed else f'"{version}"'
    return _revalidate_headers(response)


class RevalidateFirstMiddleware:
    """Answers a public page's conditional request (GET or HEAD with If-None-Match) with 304
    before the rest of the middleware stack, when the reader holds the current version (see
    the module's docstring). Placed right after the security and static-file middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD") and "HTTP_IF_NONE_MATCH" in request.META:
            response = self._not_modified(request)
            if response is not None:
                return response
        return self.get_response(request)

    @staticmethod
    def _not_modified(request) -> HttpResponse | None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        page = getattr(match.func, "public_page", None)
        if page is None or "slug" not in match.kwargs:
            return None
        request.get_host()  # the host is checked (ALLOWED_HOSTS) as on every other answer
        kwargs = {name: value for name, value in match.kwargs.items() if name != "slug"}
        return page.not_modified(request, match.kwargs["slug"], kwargs)


def _entry(produce):
    """The answer ``produce()`` makes, as a cache entry when it is a page (status 200)."""
    response = produce()
    if hasattr(response, "render"):
        response.render()
    if response.status_code != 200:
        return response
    headers = {name: response[name] for name in KEPT_HEADERS if name in response}
    return Entry.of(response.content, headers)


def _revalidate_headers(response):
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept-Encoding, Accept-Language, Cookie"
    return response


def _accepts_gzip(request) -> bool:
    """Whether Accept-Encoding allows gzip (``gzip;q=0`` refuses it, ``*`` allows it)."""
    allowed = {}
    for part in request.headers.get("Accept-Encoding", "").lower().split(","):
        coding, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding:
            allowed[coding] = quality > 0
    return allowed.get("gzip", allowed.get("x-gzip", allowed.get("*", False)))

"""The standings of a large field on a phone: the top, the reader's own place, a search, and
every row one tap away.

A 3,000-player standings page is about 1.2 MB of HTML; a phone in a busy hall wants tens of kB.
Over ``LARGE_FIELD`` ranked players the page opens on the first ``TOP`` rows, the reader's own
row with its neighbours (``?joueur=<registration id>``, linked from the player's page) and a
search box (``?q=``); ``?page=N`` shows the N-th ``PAGE_ROWS`` rows and ``?tout=1`` the whole field.
A smaller field is shown whole, as before.

Plain Python over the rows of ``scoring.tables.standings_rows`` (computed for the whole field, so
that namesakes are told apart as on the full page): no query, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.folding import fold, matches

LARGE_FIELD = 200  # ranked players past which the page opens on the top and the reader's row
TOP = 30
PAGE_ROWS = 100
AROUND = 2  # neighbours shown above and below the reader's row
SEARCH_ROWS = 50
MAX_PAGE = 1000  # 100,000 players: a larger number in the address is read as the last page


@dataclass(frozen=True)
class Part:
    """A run of consecutive rows of the standings, and what it is."""

    kind: str  # "top", "reader", "page", "all", "search"
    rows: list[dict]


@dataclass(frozen=True)
class PageLink:
    number: int
    first: int  # positions in the standings, from 1
    last: int
    current: bool


@dataclass(frozen=True)
class FieldView:
    large: bool
    size: int
    parts: list[Part]
    pages: list[PageLink] = field(default_factory=list)
    everything: bool = False
    page: int | None = None
    query: str = ""
    reader: dict | None = None  # the reader's own row, when asked for and ranked

    @property
    def opening(self) -> bool:
        """The first view of a large field (top, reader, search): not a page, not every row."""
        return self.large and not self.everything and self.page is None


def page_number(text: str) -> int | None:
    """``?page=`` as a page number (1 to ``MAX_PAGE``), or None."""
    text = text.strip()
    if not text.isdigit():
        return None
    number = int(text)
    return min(number, MAX_PAGE) if number >= 1 else None


def registration_id(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and 0 < int(text) < 2**31 else None


def field_view(
    rows: list[dict],
    *,
    page: int | None = None,
    everything: bool = False,
    reader: int | None = None,
    query: str = "",
) -> FieldView:
    """What the standings page shows of ``rows`` (the whole field, in rank order)."""
    size = len(rows)
    if size <= LARGE_FIELD:
        return FieldView(large=False, size=size, parts=[Part("all", rows)], everything=True)
    count = -(-size // PAGE_ROWS)
    if page is not None:
        page = min(page, count)
    links = [
        PageLink(
            number=n,
            first=(n - 1) * PAGE_ROWS + 1,
            last=min(n * PAGE_ROWS, size),
            current=n == page and not everything,
        )
        for n in range(1, count + 1)
    ]
    own = next((i for i, row in enumerate(rows) if row["id"] == reader), None)
    common = {"large": True, "size": size, "pages": links, "query": query}
    common["reader"] = rows[own] if own is not None else None
    if everything:
        return FieldView(parts=[Part("all", rows)], everything=True, **common)
    if page is not None:
        start = (page - 1) * PAGE_ROWS
        return FieldView(parts=[Part("page", rows[start : start + PAGE_ROWS])], page=page, **common)
    parts = [Part("top", rows[:TOP])]
    if own is not None and own >= TOP:
        start = max(TOP, own - AROUND)
        parts.append(Part("reader", rows[start : own + AROUND + 1]))
    if query:
        folded = fold(query)
        found = [row for row in rows if matches(folded, row["name"], row["club"])]
        parts.append(Part("search", found[:SEARCH_ROWS]))
    return FieldView(parts=parts, **common)

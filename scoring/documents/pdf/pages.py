"""Signed score sheets' pages, kept once drawn: a round's or a tournament's PDF reuses them.

A signed sheet never changes, so the page it draws never changes either: the PDF operators of
its page (what :class:`~.score_sheet._SheetPage` writes on the canvas) are kept under a key
that changes with anything that could change them, and the next bundle that holds the sheet
copies them into its page instead of laying the sheet out again. No PDF is parsed or merged:
the kept operators go into reportlab's page as they were written, and the page's footer (its
number in the bundle) is drawn as usual. Measured in ``bench/figures.md``.

- **The key** (:func:`page_key`): the SHA-256 of everything the sheet prints (its whole
  :class:`~scoring.documents.data.SheetData`, so its identity, its fingerprint, its status and
  amendments, its rule set and verification address), the language it prints in, the QR codes'
  mask choice, and the code that draws it (:func:`layout_version`: the source of the document
  modules and reportlab's version). Only a signed sheet is kept: an amendment after signing
  changes its status, so its page is drawn again under a new key.
- **Replaying operators** needs the same font names in every bundle: :class:`SheetCanvas`
  registers the fonts in one fixed order (and the symbols font's characters) before any page,
  and a page that needed a font or character beyond those is not kept (drawn each time).
- **The store** (:class:`FolderPageStore`): one small compressed file per page in a folder,
  written atomically, bounded in bytes (the oldest written go first). Any object with
  ``get_many`` and ``set_many`` will do.

Plain Python: no Django import.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import zlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import reportlab
from reportlab.pdfbase import pdfmetrics

from ..data import SheetData
from ..language import english
from .base import BOLD, FONT, ITALIC, MONO, MONO_BOLD, SYMBOLS, SYMBOLS_BOLD, FastCanvas

#: The fonts every score sheet bundle registers first, in this order (internal names F1, F2…);
#: reportlab draws a letter Helvetica lacks (the « → » of a correction) from Symbol.
STANDARD_FONTS = (FONT, BOLD, ITALIC, MONO, MONO_BOLD, "Symbol")
SYMBOL_FONTS = (SYMBOLS, SYMBOLS_BOLD)
#: The characters beyond ASCII the symbols font gets first, in this order, so that they have
#: the same codes in every bundle (the zero-sum line: ∑, ≠, French and English words).
SYMBOL_CHARACTERS = "∑≠—–’«»…àâäçéèêëîïôöùûüÿœæÀÂÇÉÈÊËÎÏÔÙÛÜŒÆ€°\u202f"

_SOURCES = ("pdf/base.py", "pdf/score_sheet.py", "pdf/deal_table.py", "pdf/pages.py")
_SOURCES_TOO = ("labels.py", "language.py", "data.py", "fingerprint.py")


@lru_cache(maxsize=1)
def layout_version() -> str:
    """A digest of the code that draws a sheet: a new version of it never reuses a page."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(reportlab.Version.encode())
    for name in _SOURCES + _SOURCES_TOO:
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


def keepable(sheet: SheetData) -> bool:
    """Only a signed sheet is kept: it never changes (an amendment makes it « amended »)."""
    return not sheet.blank and sheet.status == "signed" and bool(sheet.fingerprint)


def page_key(sheet: SheetData, *, fixed_mask: bool) -> str | None:
    """The key of the sheet's page in the current printing language, or None when the sheet
    is not one to keep."""
    if not keepable(sheet):
        return None
    text = f"{layout_version()}|{'en' if english() else 'fr'}|{int(fixed_mask)}|{sheet!r}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class PageStore(Protocol):
    def get_many(self, keys: Iterable[str]) -> dict[str, bytes]: ...

    def set_many(self, pages: dict[str, bytes]) -> None: ...


class SheetCanvas(FastCanvas):
    """The score sheets' canvas: the same font names and symbol codes in every bundle."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        doc = self._doc
        for name in STANDARD_FONTS:
            doc.getInternalFontName(name)
        for name in SYMBOL_FONTS:
            font = pdfmetrics.getFont(name)
            font.splitString(SYMBOL_CHARACTERS, doc)
            font.getSubsetInternalName(0, doc)

    def font_state(self) -> tuple:
        """What a page may not change for its operators to be replayed in another bundle."""
        doc = self._doc
        codes = tuple(pdfmetrics.getFont(name).state[doc].nextCode for name in SYMBOL_FONTS)
        return len(doc.fontMapping), codes


def pack(operators: list[str]) -> bytes | None:
    """A page's operators, compressed (None when one is not a byte string: not kept)."""
    try:
        return zlib.compress("\n".join(operators).encode("latin-1"), 1)
    except UnicodeEncodeError:  # pragma: no cover - reportlab writes bytes as latin-1
        return None


def unpack(page: bytes) -> str:
    return zlib.decompress(page).decode("latin-1")


class FolderPageStore:
    """Kept pages as files ``<folder>/<key[:2]>/<key>`` (a folder every worker may share),
    at most ``max_bytes`` in all: past it, the oldest written are deleted."""

    def __init__(self, folder: Path | str, max_bytes: int):
        self.folder, self.max_bytes = Path(folder), max_bytes

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key

    def get_many(self, keys: Iterable[str]) -> dict[str, bytes]:
        found = {}
        for key in keys:
            try:
                found[key] = self._path(key).read_bytes()
            except OSError:  # never kept, or deleted meanwhile: drawn again
                continue
        return found

    def set_many(self, pages: dict[str, bytes]) -> None:
        if not pages or self.max_bytes <= 0:
            return
        for key, page in pages.items():
            path = self._path(key)
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # as the jobs' files
            partial = path.with_name(f"{key}.{secrets.token_hex(4)}.part")
            partial.write_bytes(page)
            os.replace(partial, path)  # a reader never sees half a page
        self.prune()

    def prune(self) -> None:
        """Delete the oldest pages until the folder holds at most ``max_bytes``."""
        entries, total = [], 0
        for sub in os.scandir(self.folder):
            if not sub.is_dir():
                continue
            for entry in os.scandir(sub.path):
                try:
                    stat = entry.stat()
                except OSError:
                    continue
                entries.append((stat.st_mtime, stat.st_size, entry.path))
                total += stat.st_size
        if total <= self.max_bytes:
            return
        entries.sort()
        for _mtime, size, path in entries:
            if total <= self.max_bytes * 0.9:  # some room, so the next job does not prune again
                break
            with contextlib.suppress(OSError):  # another worker deleted it first
                os.unlink(path)
            total -= size

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

"""Settings come from the environment and fail loudly where a silent default would be unsafe."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def django_check(env: dict[str, str]):
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", **env},
    )


def test_missing_secret_key_outside_debug_is_a_startup_error():
    done = django_check({})
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in done.stderr


def test_debug_runs_without_a_secret_key():
    assert django_check({"DJANGO_DEBUG": "1"}).returncode == 0


@pytest.mark.django_db
def test_sqlite_is_the_default_with_wal_and_immediate_transactions(settings):
    from django.db import connection

    if connection.vendor != "sqlite":
        return
    assert settings.DATABASES["default"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"

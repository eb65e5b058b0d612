"""Backups: a consistent copy while the app writes, and a restore that brings it back."""

from __future__ import annotations

import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring.models import Deal
from scoring.services import Actor, deal_record
from tests.scoring.conftest import legal, make_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite backup is tested on SQLite; PostgreSQL uses pg_dump (below)")


def test_sqlite_backup_while_writing_then_restore(sqlite_only, tmp_path):
    _, round_ = make_tournament(8)
    sheets = [t.sheet for t in round_.tables.all()]
    deal_record(sheet=sheets[0], number=1, kind="played", deal=legal(), actor=Actor.table())

    # A writer keeps entering deals on the other table while the backup runs.
    def writer():
        try:
            for number in range(1, 5):
                deal_record(
                    sheet=sheets[1], number=number, kind="played", deal=legal(), actor=Actor.table()
                )
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    target = tmp_path / "backup.sqlite3"
    call_command("backup_db", "-o", str(target))
    thread.join()
    assert target.stat().st_size > 0

    deals_after_writes = Deal.objects.count()
    Tournament.objects.update(name="changed after the backup")
    call_command("restore_db", str(target))
    connection.close()
    restored = Deal.objects.count()
    assert 1 <= restored <= deals_after_writes  # a consistent state from during the writes
    assert Tournament.objects.get().name != "changed after the backup"
    assert Deal.objects.filter(sheet=sheets[0]).count() == 1


def test_a_kept_connection_reads_the_restored_database(sqlite_only, tmp_path):
    """Server workers keep their connections (CONN_MAX_AGE): after restore_db they must read
    the restored data, not what they had before."""
    import sqlite3

    make_tournament(4)
    target = tmp_path / "backup.sqlite3"
    call_command("backup_db", "-o", str(target))
    Tournament.objects.update(name="changed after the backup")
    worker = sqlite3.connect(connection.settings_dict["NAME"])  # another process's connection
    query = "SELECT name FROM tournaments_tournament"
    assert worker.execute(query).fetchall() == [("changed after the backup",)]
    call_command("restore_db", str(target))
    assert worker.execute(query).fetchall() != [("changed after the backup",)]
    worker.close()


def test_restore_refuses_a_file_that_is_not_a_database(sqlite_only, tmp_path):
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CommandError):
        call_command("restore_db", str(bogus))
    with pytest.raises(CommandError):
        call_command("restore_db", str(tmp_path / "missing"))


def test_postgresql_backup_and_restore(tmp_path):
    import shutil

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    make_tournament(4)
    target = tmp_path / "backup.dump"
    call_command("backup_db", "-o", str(target))
    Tournament.objects.update(name="changed after the backup")
    call_command("restore_db", str(target))
    connection.close()
    assert Tournament.objects.get().name == "Test 4"


def test_a_backup_is_one_file_that_restoring_leaves_alone(sqlite_only, tmp_path):
    """What a referee copies to a USB key is one file: restoring it leaves no -wal or -shm
    beside it, and does not change it."""
    make_tournament(4)
    target = tmp_path / "backup.sqlite3"
    call_command("backup_db", "-o", str(target))
    assert target.read_bytes()[18:20] == b"\x01\x01"  # a rollback journal, not WAL
    made = target.read_bytes()
    call_command("restore_db", str(target))
    connection.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.sqlite3"]
    assert target.read_bytes() == made
    assert Tournament.objects.count() == 1
    assert connection.cursor().execute("PRAGMA journal_mode").fetchone()[0] == "wal"

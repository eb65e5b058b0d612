"""SQLite writers queue on a lock file (tarot_club.sqlite) instead of sleeping in SQLite's busy
handler: taken for every write transaction, released however it ends, never taken by reads."""

from __future__ import annotations

import fcntl
import os
import threading
import time

import pytest
from django.db import connection, transaction

from tournaments.models import Club

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lock_path():
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL queues writers itself (row locks)")
    return f"{connection.settings_dict['NAME']}.writers"


def held_by_someone(path) -> bool:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def test_a_write_transaction_holds_the_lock_until_it_ends(lock_path):
    assert not held_by_someone(lock_path)
    with transaction.atomic():
        Club.objects.create(name="Pendant")
        assert held_by_someone(lock_path)
    assert not held_by_someone(lock_path)
    with pytest.raises(RuntimeError), transaction.atomic():
        Club.objects.create(name="Annulé")
        raise RuntimeError("something went wrong mid-transaction")
    assert not held_by_someone(lock_path)  # released by the rollback
    assert not Club.objects.filter(name="Annulé").exists()


def test_a_second_writer_waits_for_the_first_and_readers_do_not(lock_path):
    Club.objects.create(name="Existant")
    holding = threading.Event()
    events: list[str] = []

    def first():
        try:
            with transaction.atomic():
                Club.objects.create(name="Premier")
                holding.set()
                time.sleep(0.3)
                events.append("first commits")
        finally:
            connection.close()

    def second():
        try:
            holding.wait(5)
            with transaction.atomic():
                events.append("second writes")
                Club.objects.create(name="Second")
        finally:
            connection.close()

    def reader():
        try:
            holding.wait(5)
            events.append(f"read {Club.objects.count()}")  # not blocked by the writer
        finally:
            connection.close()

    threads = [threading.Thread(target=f) for f in (first, second, reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert events == ["read 1", "first commits", "second writes"]
    assert Club.objects.count() == 3
    assert not held_by_someone(lock_path)


def test_closing_a_connection_releases_the_lock(lock_path):
    transaction.set_autocommit(False)
    try:
        connection._start_transaction_under_autocommit()  # what an atomic block does first
        assert held_by_someone(lock_path)
        connection.close()  # e.g. a worker dying mid-request
        assert not held_by_someone(lock_path)
    finally:
        connection.connect()
        transaction.set_autocommit(True)


def test_a_writer_gives_up_after_the_timeout_as_sqlite_does(lock_path):
    from django.db import OperationalError

    holder = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)  # another process, stuck
    fcntl.flock(holder, fcntl.LOCK_EX)
    options = connection.settings_dict["OPTIONS"]
    timeout = options.get("timeout")
    options["timeout"] = 0.2
    try:
        began = time.monotonic()
        with pytest.raises(OperationalError, match="database is locked"), transaction.atomic():
            Club.objects.create(name="Bloqué")
        assert 0.2 <= time.monotonic() - began < 2
    finally:
        options["timeout"] = timeout
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
    with transaction.atomic():  # and writes again once the lock is free
        Club.objects.create(name="Libre")
    assert not Club.objects.filter(name="Bloqué").exists()

"""SQLite, with writers queued on a lock file instead of SQLite's sleeping busy handler.

A SQLite database takes one writer at a time. With ``BEGIN IMMEDIATE`` a second writer gets
SQLITE_BUSY and SQLite's busy handler makes it *sleep* (1, 2, 5, 10, 15, 20, 25… ms) before it
tries again: under load, writers sleep while the database sits idle, and deal entry under
gunicorn reached about 60 deals/s where the transactions themselves allow about 100.

Here every write transaction (an ``atomic`` block) first takes an exclusive ``flock`` on
``<database>.writers``, polling every half millisecond, so a waiting writer starts at most that
long after the previous one commits, in every process and thread of the machine (each
connection has its own descriptor). It gives up like SQLite after ``OPTIONS["timeout"]``
seconds with "database is locked". The kernel drops the lock of a process that dies. Reads
never take it (WAL lets them run beside the writer). Single statements outside an ``atomic``
block (a login's timestamp, say) do not take it either: SQLite's own locking, still underneath,
serialises them as before.

Bulk statements (a player import, a round's seats) are cut to SQLite's real limit of variables
per statement (``SQLITE_LIMIT_VARIABLE_NUMBER``: 32,766 since SQLite 3.32, 250,000 in Debian's
build) instead of Django's 999 of old SQLite versions, so that importing 5,000 players is one
INSERT, not twenty.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base, features, operations
from django.utils.functional import cached_property

POLL_SECONDS = 0.0005


class DatabaseFeatures(features.DatabaseFeatures):
    @cached_property
    def max_query_params(self) -> int:
        """The variables one statement may hold, as this SQLite library says (as Django 6 does)."""
        self.connection.ensure_connection()
        return self.connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)


class DatabaseOperations(operations.DatabaseOperations):
    def bulk_batch_size(self, fields, objs):
        """As many rows per statement as the variables allow (Django caps one-field rows at 500
        for SQLite versions before 3.8.8, older than anything Python 3.11 ships with)."""
        if not fields:
            return len(objs)
        return max(1, self.connection.features.max_query_params // len(fields))


class DatabaseWrapper(base.DatabaseWrapper):
    features_class = DatabaseFeatures
    ops_class = DatabaseOperations
    _writers_fd: int | None = None
    _writing = False

    def get_new_connection(self, conn_params):
        """A database file this connection would create is created first, readable and
        writable by its owner only (0600): it holds PINs, password hashes and e-mails. SQLite
        gives its -wal and -shm files the database file's mode, and ``_open_lock_file`` too."""
        if not self.is_in_memory_db():
            _create_private(str(self.settings_dict["NAME"]))
        return super().get_new_connection(conn_params)

    def _start_transaction_under_autocommit(self):
        self._take_writers_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writers_lock()
            raise

    def _commit(self):
        try:
            super()._commit()
        finally:
            self._release_writers_lock()

    def _rollback(self):
        try:
            super()._rollback()
        finally:
            self._release_writers_lock()

    def _close(self):
        try:
            super()._close()
        finally:
            self._release_writers_lock()
            if self._writers_fd is not None:
                os.close(self._writers_fd)
                self._writers_fd = None

    def _take_writers_lock(self) -> None:
        if self.is_in_memory_db() or self._writing:
            return
        if self._writers_fd is None:
            self._writers_fd = _open_lock_file(str(self.settings_dict["NAME"]))
        deadline = time.monotonic() + float(self.settings_dict["OPTIONS"].get("timeout", 5))
        while True:
            try:
                fcntl.flock(self._writers_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OperationalError("database is locked") from None
                time.sleep(POLL_SECONDS)
        self._writing = True

    def _release_writers_lock(self) -> None:
        if self._writing and self._writers_fd is not None:
            fcntl.flock(self._writers_fd, fcntl.LOCK_UN)
        self._writing = False


def _create_private(database: str) -> None:
    if database.startswith("file:"):  # a URI: SQLite opens it as it says
        return
    try:
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        pass  # a missing folder: SQLite says so in its own words when it opens the file


def _open_lock_file(database: str) -> int:
    """The lock file beside the database, readable and writable by whoever may write the
    database: created with the database file's mode and, when created by root (``sudo manage.py
    migrate``), given the database file's owner, as SQLite does with its -wal file."""
    path = f"{database}.writers"
    try:
        mode = os.stat(database).st_mode & 0o666
    except FileNotFoundError:
        mode = 0o600
    created = not os.path.exists(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, mode)
    if created and os.geteuid() == 0:
        try:
            stat = os.stat(database)
            os.fchown(fd, stat.st_uid, stat.st_gid)
        except OSError:
            pass
    return fd

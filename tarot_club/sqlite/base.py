"""SQLite, with writers queued on a lock file instead of SQLite's sleeping busy handler.

A SQLite database takes one writer at a time. With ``BEGIN IMMEDIATE`` a second writer gets
SQLITE_BUSY and SQLite's busy handler makes it *sleep* (1, 2, 5, 10, 15, 20, 25… ms) before it
tries again: under load, writers sleep while the database sits idle, and deal entry under
gunicorn reached about 60 deals/s where the transactions themselves allow well over 100.

Here every write transaction first takes an exclusive ``flock`` on ``<database>.writers``: a
waiting writer is woken by the kernel the moment the previous one commits, in every process and
thread of the machine (each connection opens its own descriptor). The kernel drops the lock of
a process that dies. Reads never take it (WAL lets them run beside the writer), and SQLite's own
locking stays underneath, so a program that does not use this backend is still safe.
"""

from __future__ import annotations

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _writers_fd: int | None = None
    _writing = False

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
            path = f"{self.settings_dict['NAME']}.writers"
            self._writers_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._writers_fd, fcntl.LOCK_EX)
        self._writing = True

    def _release_writers_lock(self) -> None:
        if self._writing and self._writers_fd is not None:
            fcntl.flock(self._writers_fd, fcntl.LOCK_UN)
        self._writing = False

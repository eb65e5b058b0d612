"""Database backups: a consistent copy while the app runs, and a restore.

SQLite: the SQLite online backup API copies the database page by page under a read lock, so the
copy is consistent even while referees keep entering deals. PostgreSQL: ``pg_dump`` (custom
format) and ``pg_restore``. A backup holds PINs, password hashes and e-mails: it is created
readable by its owner only (0600), as the database itself (``tarot_club/sqlite``). A restore
takes only a file that is a SQLite database (its 16-byte header), so a wrong file never
empties the live database.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.db import connections


class BackupError(Exception):
    pass


def _settings(alias: str = "default") -> dict:
    return connections[alias].settings_dict


SQLITE_HEADER = b"SQLite format 3\x00"


def _private(target: Path) -> None:
    """Create ``target`` empty and readable by its owner only (0600), or make it so."""
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o600))
        os.chmod(target, 0o600)
    except OSError as error:
        raise BackupError(f"{target}: {error.strerror or error}.") from None


def backup(target: Path, alias: str = "default") -> Path:
    db = _settings(alias)
    if connections[alias].vendor == "sqlite":
        _private(target)
        source = sqlite3.connect(str(db["NAME"]))
        try:
            destination = sqlite3.connect(str(target))
        except sqlite3.Error as error:
            source.close()
            raise BackupError(f"{target}: {error}.") from None
        try:
            with destination:
                source.backup(destination)
            # One self-contained file: the copy keeps the live database's WAL mode otherwise,
            # and whatever opens it later (restore_db, a USB key) leaves -wal and -shm beside it.
            destination.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.Error as error:
            raise BackupError(f"{target}: {error}.") from None
        finally:
            destination.close()
            source.close()
        return target
    if connections[alias].vendor == "postgresql":
        if shutil.which("pg_dump") is None:
            raise BackupError("pg_dump is not installed (Debian package postgresql-client).")
        _private(target)
        command = ["pg_dump", "--format=custom", f"--file={target}", *_pg_args(db)]
        _run(command, db)
        return target
    raise BackupError(f"No backup method for {db['ENGINE']}.")


def restore(source: Path, alias: str = "default") -> None:
    if not source.is_file():
        raise BackupError(f"No backup file {source}.")
    db = _settings(alias)
    if connections[alias].vendor == "sqlite":
        with source.open("rb") as file:
            if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                raise BackupError(f"{source} is not a SQLite database: nothing was restored.")
        check = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            if check.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(f"{source} is not a sound SQLite database.")
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{source} is not a SQLite database: {error}") from None
        connections[alias].close()
        live = sqlite3.connect(str(db["NAME"]))
        try:
            with live:
                check.backup(live)
        finally:
            live.close()
            check.close()
        return
    if connections[alias].vendor == "postgresql":
        if shutil.which("pg_restore") is None:
            raise BackupError("pg_restore is not installed (Debian package postgresql-client).")
        connections[alias].close()
        _run(["pg_restore", "--clean", "--if-exists", "--no-owner", *_pg_args(db), str(source)], db)
        return
    raise BackupError(f"No restore method for {db['ENGINE']}.")


def _pg_args(db: dict) -> list[str]:
    args = [f"--dbname={db['NAME']}"]
    if db.get("HOST"):
        args.append(f"--host={db['HOST']}")
    if db.get("PORT"):
        args.append(f"--port={db['PORT']}")
    if db.get("USER"):
        args.append(f"--username={db['USER']}")
    return args


def _run(command: list[str], db: dict) -> None:
    env = {"PATH": "/usr/bin:/bin:/usr/local/bin"}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise BackupError(done.stderr.strip() or f"{command[0]} failed")

"""Every management command of the project answers a bad argument with one line, never a
traceback: exit status 1 from the command line, a ``CommandError`` through ``call_command``,
and nothing written or computed first (``tarot_club/commands.py``).

The table below holds the cases, command by command: files that cannot be written (a missing
folder, a folder, a path under a plain file, an empty name), numbers out of range (seeds,
players, rounds to play, ports), and files that are not what they claim (a restore from an
empty file). A second test runs a few of them as a person would, ``manage.py`` in a shell,
and reads the exit status and stderr; it also finds the new database file made 0600.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from scoring.models import Deal
from tests.scoring.conftest import make_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _cases(slug: str, tmp: Path) -> list[tuple[list[str], str]]:
    plain_file = tmp / "plain-file"
    plain_file.write_text("x")
    empty = tmp / "empty.sqlite3"
    empty.write_bytes(b"")
    missing = str(tmp / "no-such-folder" / "out")
    under_file = str(plain_file / "out")
    folder = str(tmp)
    return [
        (["export_tournament", slug, "-o", missing], "does not exist"),
        (["export_tournament", slug, "-o", folder], "this is a folder"),
        (["export_tournament", slug, "-o", under_file], "is not a folder"),
        (["export_tournament", slug, "-o", ""], "needs a file name"),
        (["export_tournament", slug, "-o", "   "], "needs a file name"),
        (["score_sheets", slug, "--format", "pdf", "-o", missing], "does not exist"),
        (["score_sheets", slug, "--format", "xlsx", "-o", folder], "this is a folder"),
        (["score_sheets", slug, "--format", "pdf", "-o", under_file], "is not a folder"),
        (["publish_seal_key", "-o", missing], "Cannot write"),
        (["publish_seal_key", "--bogus"], "unrecognized arguments"),
        (["trust_key", "--bogus"], "unrecognized arguments"),
        (["backup_db", "-o", missing], "does not exist"),
        (["backup_db", "-o", folder], "this is a folder"),
        (["backup_db", "-o", under_file], "is not a folder"),
        (["backup_db", "-o", ""], "needs a file name"),
        # (pg_restore says it in its words on PostgreSQL)
        (["restore_db", str(empty)], "is not a SQLite database|input file is too short"),
        (["restore_db", str(plain_file)], "is not a SQLite database|input file is too short"),
        (["demo_tournament", "--players", "100000"], "at most 500 players"),
        (["demo_tournament", "--seed", "99999999999999999999999"], "--seed goes from 0"),
        (["demo_tournament", "--seed", "-1"], "--seed goes from 0"),
        (["demo_tournament", "--play-rounds", "-3"], "--play-rounds goes from 0"),
        (["demo_tournament", "--play-rounds", "99999999999999999999"], "--play-rounds goes"),
        (["demo_tournament", "--players", "abc"], "invalid int value"),
        (["demo_season", "--tournaments", "1", "--players", "4", "--seed", "-5"], "--seed goes"),
        (
            ["demo_season", "--tournaments", "1", "--players", "4", "--seed", "9" * 25],
            "--seed goes from 0",
        ),
        (["score_deal", "--indent", "-5"], "--indent goes from 0"),
        (["serve_club", "--port", "99999"], "--port goes from 1 to 65535"),
        (["serve_club", "--port", "-1"], "--port goes from 1"),
        (["serve_club", "--workers", "0"], "--workers goes from 1"),
        (["serve_club", "--threads", "100000"], "--threads goes from 1"),
        (["jobs_purge", "--days", "abc"], "invalid float value"),
        (["jobs_purge", "--days", "-1"], "--days goes from 0"),
    ]


def test_every_command_refuses_a_bad_argument_in_one_line(tmp_path):
    tournament, _ = make_tournament(4)
    cases = _cases(tournament.slug, tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    counts = (Tournament.objects.count(), Deal.objects.count())
    failures = []
    for argv, expected in cases:
        try:
            call_command(*argv)
        except CommandError as error:
            message = str(error)
            if not any(e in message for e in expected.split("|")) or "\n" in message:
                failures.append((argv, message))
        else:
            failures.append((argv, "accepted"))
    assert failures == []
    # Nothing written: no file beside the ones made for the cases, no tournament, no deal.
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (Tournament.objects.count(), Deal.objects.count()) == counts


def test_a_good_output_file_is_still_written(tmp_path):
    tournament, _ = make_tournament(4)
    target = tmp_path / "archive.json"
    call_command("export_tournament", tournament.slug, "-o", str(target))
    assert target.read_bytes().startswith(b"{")


@pytest.fixture(scope="module")
def shell_database(tmp_path_factory):
    """A fresh SQLite database made by ``manage.py migrate`` run as a person would."""
    folder = tmp_path_factory.mktemp("shell")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "LANG": "C.UTF-8",
        "SQLITE_PATH": str(folder / "club.sqlite3"),
        "DJANGO_SECRET_KEY": "a-secret-key-for-this-test-only-" * 2,
        "DJANGO_SEAL_KEY_FILE": str(folder / "seal-key"),
    }
    _manage(env, "migrate", "--verbosity", "0", check=True)
    return folder, env


def _manage(env: dict, *argv: str, check: bool = False) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "manage.py", *argv],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
        # The usual umask: files are -rw-r--r-- unless made private on purpose.
        preexec_fn=lambda: os.umask(0o022),
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["demo_tournament", "--players", "100000"], "at most 500 players"),
        (["demo_tournament", "--seed", "99999999999999999999999"], "--seed goes from 0"),
        (["demo_tournament", "--players", "abc"], "invalid int value"),
        (["backup_db", "-o", "/nonexistent-folder/backup.db"], "does not exist"),
        (["backup_db", "-o", ""], "needs a file name"),
        (["export_tournament", "any", "-o", "/"], "this is a folder"),
        (["serve_club", "--port", "99999"], "--port goes from 1 to 65535"),
    ],
)
def test_from_the_shell_a_bad_argument_is_one_line_and_status_1(shell_database, argv, expected):
    _, env = shell_database
    done = _manage(env, *argv)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("CommandError: ") and expected in lines[0]


def test_the_sqlite_database_and_its_backup_are_private(shell_database):
    folder, env = shell_database
    database = folder / "club.sqlite3"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    for beside in (".writers", "-wal", "-shm"):
        other = Path(str(database) + beside)
        if other.exists():
            assert stat.S_IMODE(other.stat().st_mode) == 0o600, beside
    target = folder / "backup.db"
    _manage(env, "backup_db", "-o", str(target), check=True)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    # An existing file written over is made private too.
    target.chmod(0o644)
    _manage(env, "backup_db", "-o", str(target), check=True)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600

"""Settings come from the environment and fail loudly where a silent default would be unsafe.

The secret key: commands work with nothing set (a key generated once beside the SQLite
database), but a server refuses that key unless the Makefile's local serving switch is on.
"""

import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from tarot_club import secret_key

ROOT = Path(__file__).resolve().parents[2]
REFUSAL = "DJANGO_SECRET_KEY is not set: a server (gunicorn, `make serve`) needs an explicit"
PRINT_KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


def python(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """Python in the checkout as a person runs it: no DJANGO_* variable unless given, the
    database in ``tmp_path`` (so the key file is written there, not in the checkout)."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "SQLITE_PATH": str(tmp_path / "db.sqlite3"), **env},
    )


def manage(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return python(tmp_path, "manage.py", *args, **env)


def test_commands_need_no_secret_key_and_keep_the_generated_one(tmp_path):
    first = manage(tmp_path, "shell", "-v", "0", "-c", PRINT_KEY)
    assert first.returncode == 0, first.stderr
    key_file = tmp_path / "db.sqlite3.secret-key"
    assert key_file.read_text().strip() == first.stdout.strip()
    assert len(first.stdout.strip()) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    again = manage(tmp_path, "shell", "-v", "0", "-c", PRINT_KEY)
    assert again.stdout == first.stdout, "the key is generated once, then kept"
    assert manage(tmp_path, "check").returncode == 0


def test_an_explicit_key_wins_and_writes_no_file(tmp_path):
    done = manage(tmp_path, "shell", "-v", "0", "-c", PRINT_KEY, DJANGO_SECRET_KEY="k" * 60)
    assert done.stdout.strip() == "k" * 60
    assert not list(tmp_path.iterdir())


def test_the_key_file_sits_beside_the_database_database_url_names(tmp_path):
    url = f"sqlite:///{tmp_path}/club.sqlite3"
    assert manage(tmp_path, "check", DATABASE_URL=url).returncode == 0
    assert (tmp_path / "club.sqlite3.secret-key").is_file()
    assert not (tmp_path / "db.sqlite3.secret-key").exists()


PRINT_SEAL_KEY = (
    "from scoring.sealing import installation_public_key, key_path; "
    "print(key_path(), installation_public_key())"
)


def test_the_sealing_key_is_made_once_beside_the_database_or_where_its_variable_says(tmp_path):
    first = manage(tmp_path, "shell", "-v", "0", "-c", PRINT_SEAL_KEY, DJANGO_SECRET_KEY="k" * 60)
    assert first.returncode == 0, first.stderr
    path, public = first.stdout.split()
    assert path == str(tmp_path / "db.sqlite3.seal-key")
    assert stat.S_IMODE((tmp_path / "db.sqlite3.seal-key").stat().st_mode) == 0o600
    again = manage(tmp_path, "shell", "-v", "0", "-c", PRINT_SEAL_KEY, DJANGO_SECRET_KEY="k" * 60)
    assert again.stdout == first.stdout, "the key is made once, then kept"
    elsewhere = tmp_path / "keys" / "club.seal-key"
    named = manage(
        tmp_path,
        "shell",
        "-v",
        "0",
        "-c",
        PRINT_SEAL_KEY,
        DJANGO_SECRET_KEY="k" * 60,
        DJANGO_SEAL_KEY_FILE=str(elsewhere),
    )
    assert named.stdout.split()[0] == str(elsewhere) and named.stdout.split()[1] != public
    assert stat.S_IMODE(elsewhere.stat().st_mode) == 0o600


def test_a_sealing_key_that_cannot_be_used_stops_the_app_before_anyone_signs(tmp_path):
    """The first signature would fail: the system check (run by migrate, runserver, make club
    and check) says so when the app starts, with the file and what to do; nothing is written."""
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("x")
    blocked = manage(tmp_path, "check", DJANGO_SEAL_KEY_FILE=str(not_a_folder / "club.seal-key"))
    assert blocked.returncode == 1
    assert "scoring.E001" in blocked.stderr
    assert f"Cannot create the sealing key file {not_a_folder / 'club.seal-key'}" in blocked.stderr
    assert "set DJANGO_SEAL_KEY_FILE" in blocked.stderr
    damaged = tmp_path / "damaged.seal-key"
    damaged.write_text("not a key")
    refused = manage(tmp_path, "migrate", DJANGO_SEAL_KEY_FILE=str(damaged))
    assert refused.returncode == 1
    assert f"Cannot read the sealing key file {damaged}" in refused.stderr
    assert "Applying" not in refused.stdout  # stopped before migrating anything
    # A key file that does not exist yet, in a folder the app can write: fine, and not made
    # by the check.
    fine = manage(tmp_path, "check", DJANGO_SEAL_KEY_FILE=str(tmp_path / "new" / "k.seal-key"))
    assert fine.returncode == 0, fine.stderr
    assert not (tmp_path / "new").exists()


def test_check_deploy_without_a_secret_key_fails_and_says_why(tmp_path):
    done = manage(tmp_path, "check", "--deploy")
    assert done.returncode == 1
    assert "tarot_club.E001" in done.stderr
    assert REFUSAL in done.stderr
    assert str(tmp_path / "db.sqlite3.secret-key") in done.stderr  # which key it refused


def test_check_deploy_passes_with_an_explicit_key_or_for_a_local_server(tmp_path):
    explicit = manage(tmp_path, "check", "--deploy", DJANGO_SECRET_KEY="ci-" + "x1y2z3" * 10)
    assert explicit.returncode == 0, explicit.stderr
    local = manage(tmp_path, "check", "--deploy", DJANGO_LOCAL_SERVER="1")
    assert local.returncode == 0, local.stderr


def wsgi(tmp_path: Path, entry: str = "wsgi", **env: str) -> subprocess.CompletedProcess:
    """What gunicorn (and runserver) does first: import the WSGI (or ASGI) entry point."""
    return python(tmp_path, "-c", f"import tarot_club.{entry}", **env)


def test_a_server_refuses_the_local_key(tmp_path):
    done = wsgi(tmp_path)
    assert done.returncode != 0
    assert "ImproperlyConfigured: " + REFUSAL in done.stderr
    debug = wsgi(tmp_path, DJANGO_DEBUG="1")
    assert REFUSAL in debug.stderr, "debug mode is no licence to serve with the local key"
    assert REFUSAL in wsgi(tmp_path, "asgi").stderr


def test_a_server_starts_with_an_explicit_key_or_from_the_makefile(tmp_path):
    assert wsgi(tmp_path, DJANGO_SECRET_KEY="k" * 60).returncode == 0
    assert wsgi(tmp_path, DJANGO_LOCAL_SERVER="1").returncode == 0
    assert wsgi(tmp_path, "asgi", DJANGO_LOCAL_SERVER="1").returncode == 0


def test_make_run_is_the_local_server_and_make_serve_is_not():
    makefile = (ROOT / "Makefile").read_text()
    assert "LOCAL_SERVER := DJANGO_LOCAL_SERVER=1" in makefile
    run = makefile.split("\nrun:")[1].split("\n\n")[0]
    serve = makefile.split("\nserve:")[1].split("\n\n")[0]
    assert "$(LOCAL_SERVER) $(BIN)/python manage.py runserver" in run
    assert "LOCAL_SERVER" not in serve
    assert "manage.py check --deploy --fail-level ERROR" in serve.splitlines()[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_serve_stops_before_anything_without_a_key(tmp_path):
    if not (ROOT / ".venv" / "bin" / "python").exists():
        pytest.skip("make serve needs the .venv that make test builds")
    done = subprocess.run(
        ["make", "--no-print-directory", "serve"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "SQLITE_PATH": str(tmp_path / "db.sqlite3")},
    )
    assert done.returncode != 0
    assert REFUSAL in done.stderr
    assert "migrate" not in done.stdout, "it stops before touching the database"


def test_processes_starting_at_once_agree_on_one_key(tmp_path):
    """The first run of a club's laptop may start several processes together (make run's
    migrate is alone, but a server's workers and a command may race): one key for all."""
    key_file = tmp_path / "db.sqlite3.secret-key"
    go = tmp_path / "go"
    script = (
        "import sys, time\nfrom pathlib import Path\n"
        "from tarot_club.secret_key import local_key\n"
        f"while not Path({str(go)!r}).exists(): time.sleep(0.001)\n"
        f"print(local_key(Path({str(key_file)!r})))\n"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env={"PATH": "/usr/bin:/bin"},
        )
        for _ in range(8)
    ]
    time.sleep(1)  # let every process reach the starting line
    go.touch()
    keys = {process.communicate(timeout=60)[0].strip() for process in processes}
    assert keys == {key_file.read_text().strip()}
    assert [p.name for p in tmp_path.iterdir() if p.name != "go"] == [key_file.name]


def test_without_hard_links_the_key_is_still_created_private(tmp_path, monkeypatch):
    """A FAT-formatted USB key has no hard links: the key is then created in place."""

    def no_links(*args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    key_file = tmp_path / "db.sqlite3.secret-key"
    key = secret_key.local_key(key_file)
    assert key == key_file.read_text().strip() and len(key) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert secret_key.local_key(key_file) == key
    assert [p.name for p in tmp_path.iterdir()] == [key_file.name], "no temporary file left"


def test_an_empty_key_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    key_file = tmp_path / "db.sqlite3.secret-key"
    key_file.write_text("\n")
    with pytest.raises(ImproperlyConfigured, match=r"is empty\. Delete it to make a new one"):
        secret_key.local_key(key_file)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_folder_that_cannot_hold_the_key_is_a_clear_error(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o500)
    with pytest.raises(ImproperlyConfigured, match="Cannot write the local secret key file"):
        secret_key.local_key(folder / "db.sqlite3.secret-key")


def test_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="or set DJANGO_SECRET_KEY"):
        secret_key.local_key(tmp_path / "nowhere" / "db.sqlite3.secret-key")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_key_files_are_ignored_by_git():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["db.sqlite3.secret-key", "club.sqlite3.secret-key", "data/tarot.db.secret-key"]
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.split() == names


@pytest.mark.django_db
def test_sqlite_is_the_default_with_wal_and_immediate_transactions(settings):
    from django.db import connection

    if connection.vendor != "sqlite":
        return
    assert settings.DATABASES["default"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


def test_x_forwarded_proto_counts_only_behind_a_trusted_proxy(tmp_path):
    """Without a proxy any client can send X-Forwarded-Proto: it must not make a plain-HTTP
    request look secure (and skip the HTTPS redirect); behind the TLS proxy it does."""
    check = (
        "from django.test import RequestFactory; "
        "print(RequestFactory().get('/', HTTP_X_FORWARDED_PROTO='https').is_secure())"
    )
    alone = manage(tmp_path, "shell", "-v", "0", "-c", check)
    assert alone.stdout.strip() == "False", alone.stderr
    proxied = manage(tmp_path, "shell", "-v", "0", "-c", check, DJANGO_TRUSTED_PROXIES="1")
    assert proxied.stdout.strip() == "True", proxied.stderr


def test_the_installation_name_is_chosen_never_the_computers_name(tmp_path):
    """Public pages say who sealed: a name the organiser chose (DJANGO_INSTALLATION_NAME), else
    the first club page's (scoring.sealing), never the host name anyone would then read."""
    show = "from django.conf import settings; print(repr(settings.INSTALLATION_NAME))"
    unset = manage(tmp_path, "shell", "-v", "0", "-c", show, DJANGO_SECRET_KEY="k" * 60)
    assert unset.returncode == 0, unset.stderr
    assert unset.stdout.strip() == "''"
    chosen = manage(
        tmp_path,
        "shell",
        "-v",
        "0",
        "-c",
        show,
        DJANGO_SECRET_KEY="k" * 60,
        DJANGO_INSTALLATION_NAME="  Club de   Lyon ",
    )
    assert chosen.stdout.strip() == "'Club de Lyon'"

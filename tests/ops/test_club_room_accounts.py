"""The club room's server accepts no password anybody could know (tarot_club.room_accounts).

As the attacker would try it: the room's server is started exactly as ``make club`` starts it
(``manage.py serve_club``, no debug, no secret key, the production password hasher) on the test
database, and someone on the Wi-Fi logs in over HTTP as ``organisateur`` / ``tarot-demo``, the
demo's account that the README prints.
"""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.utils import translation

from tarot_club import room_accounts
from tarot_club.management.commands import serve_club
from tests.browser.room import REPO, RoomServer, free_port

pytestmark = pytest.mark.django_db(transaction=True)

DEMO = ("organisateur", "tarot-demo")


def production_hash(password: str) -> str:
    """The hash the room's server (production hasher) stores, not the tests' fast one."""
    return PBKDF2PasswordHasher().encode(password, "sel-du-test-salle")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def log_in(port: int, username: str, password: str) -> tuple[int, str]:
    """What a browser on the Wi-Fi gets for the login form: (status, Location or page)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    base = f"http://127.0.0.1:{port}"
    with opener.open(f"{base}/connexion/", timeout=20) as response:
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    try:
        with opener.open(f"{base}/connexion/", data=body, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers.get("Location", "")


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as answer:
        return answer.code


@pytest.fixture
def room(tmp_path):
    server = RoomServer(free_port(), tmp_path / "static", tmp_path / "server.log")
    yield server
    server.stop()


def test_the_room_refuses_to_start_while_the_demo_password_is_there(room):
    # A referee ran `make run` first: the demo's organiser is in the database.
    user = get_user_model().objects.create(username=DEMO[0], password=production_hash(DEMO[1]))
    process = subprocess.run(
        [sys.executable, "manage.py", "serve_club", "--port", str(room.port)],
        cwd=REPO,
        env=room.environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 1, process.stdout + process.stderr
    assert "'organisateur'" in process.stderr
    assert "manage.py changepassword organisateur" in process.stderr
    assert "Traceback" not in process.stderr
    # Nothing serves the room, and the account is untouched (its owner fixes it).
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{room.port}/connexion/", timeout=5)
    user.refresh_from_db()
    assert user.password == production_hash(DEMO[1])
    assert get_user_model().objects.count() == 1


def test_an_attacker_on_the_wifi_cannot_log_in_with_the_demo_password(room):
    room.start()  # an empty database: no demo, the first organiser's password made here
    log = room.read_log()
    assert "Demo loaded" not in log
    # (The room's server speaks French, the app's language.)
    match = re.search(r"comme « (organisateur) » avec le mot de passe (\S+) \(affiché", log)
    assert match, log
    username, password = match.groups()
    assert password != DEMO[1] and len(password) >= 16

    # The attacker's try: the demo's account and password. Refused (the login page again).
    status, page = log_in(room.port, *DEMO)
    assert status == 200 and 'name="password"' in page
    # The organiser, with the password shown once on the laptop, logs in.
    assert log_in(room.port, username, password) == (302, "/")
    assert status_of(f"http://127.0.0.1:{room.port}/admin/login/") == 404

    # An account given the demo's password while the room is served is refused all the same.
    organiser = get_user_model().objects.get(username=username)
    organiser.password = production_hash(DEMO[1])
    organiser.save(update_fields=["password"])
    status, page = log_in(room.port, username, DEMO[1])
    assert status == 200 and 'name="password"' in page


class Keyboard:
    """A terminal with a person at it (serve_club asks only then)."""

    def isatty(self) -> bool:
        return True


def test_the_first_organiser_is_typed_on_the_laptop(monkeypatch, capsys):
    good = "Belote-3-Rebelote"
    typed = iter(["", "arbitre-chef", "arbitre-chef", "arbitre-chef"])
    passwords = iter([good, good, "tarot-demo", "tarot-demo", good, good + "!", good, good])
    monkeypatch.setattr(serve_club.sys, "stdin", Keyboard())
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    monkeypatch.setattr(serve_club.getpass, "getpass", lambda prompt="": next(passwords))
    assert not room_accounts.has_organiser()
    # As ``manage.py`` runs it: in the app's language, whatever language an earlier test of this
    # process left active (a test client's request activates the one it asked for).
    with translation.override(settings.LANGUAGE_CODE):
        serve_club.Command().first_organiser()
    out, errors = capsys.readouterr()
    assert "Tapez un nom d'utilisateur." in errors  # an empty name: asked again
    assert "Ce mot de passe est celui de la démo" in errors
    assert "Les deux mots de passe diffèrent" in errors
    assert good not in out + errors  # a typed password is never shown
    user = get_user_model().objects.get()
    assert user.username == "arbitre-chef" and user.check_password(good)
    assert room_accounts.has_organiser()
    assert room_accounts.known_password_accounts() == []

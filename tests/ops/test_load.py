"""Deal entry under a real multi-process server (gunicorn, 3 workers) against PostgreSQL.

Several clients enter and correct deals on the same tables at once, through the table links, as
phones would. Afterwards: no deal lost or duplicated, every sheet sums to zero, every change is in
the history, and every refused correction was refused with the conflict status.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from scoring.models import Deal, SheetEvent
from tests.scoring.conftest import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Phone:
    """A browser-like client: cookies, CSRF token from the page, form posts."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            NoRedirect(),
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, data: dict) -> int:
        page = self.get(path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def server(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the multi-process load test runs against PostgreSQL")
    port = free_port()
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SECRET_KEY": "load-test-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE": "0",
        "DJANGO_TESTING": "0",
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tarot_club.wsgi",
            "--workers",
            "3",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/calculette/", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("gunicorn did not start: " + process.communicate()[1].decode()[-2000:])
    yield base
    process.terminate()
    process.communicate(timeout=20)


def deal_form(number: int, points: int, version: int | None = None) -> dict:
    data = {
        "action": "deal",
        "number": number,
        "kind": "played",
        "taker": number % 4,
        "contract": "garde",
        "oudlers": 2,
        "points": points,
        "points_camp": "attack",
    }
    if version is not None:
        data["version"] = version
    return data


def test_concurrent_entry_and_corrections_lose_nothing(server):
    _, round_ = make_tournament(16, deals=4)
    sheets = [t.sheet for t in round_.tables.order_by("number")]
    statuses: list[tuple[str, int]] = []
    lock = threading.Lock()

    def north(sheet):
        phone = Phone(server)
        for number in range(1, 5):
            status = phone.post(f"/table/{sheet.token}/", deal_form(number, 40 + number))
            with lock:
                statuses.append(("enter", status))

    def corrector(sheet, points):
        phone = Phone(server)
        deadline = time.monotonic() + 60
        attempts = 0
        while attempts < 4 and time.monotonic() < deadline:
            deal = Deal.objects.filter(sheet=sheet, number=1).first()
            connection.close()
            if deal is None:
                time.sleep(0.05)
                continue
            attempts += 1
            status = phone.post(f"/table/{sheet.token}/", deal_form(1, points, deal.version))
            with lock:
                statuses.append(("correct", status))

    threads = [threading.Thread(target=north, args=(s,)) for s in sheets]
    threads += [threading.Thread(target=north, args=(sheets[0],))]  # a second phone, same table
    threads += [
        threading.Thread(target=corrector, args=(s, p)) for s in sheets[:2] for p in (30, 60)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert {status for _, status in statuses} <= {302, 409, 422}, statuses
    for sheet in sheets:
        deals = list(Deal.objects.filter(sheet=sheet).order_by("number"))
        assert [d.number for d in deals] == [1, 2, 3, 4]  # none lost, none twice
        assert sum(sum(d.scores) for d in deals) == 0
        saved_changes = Deal.history.filter(sheet_id=sheet.pk).count()
        assert saved_changes == sum(d.version for d in deals)  # every version in the history
        events = SheetEvent.objects.filter(sheet=sheet).count()
        assert events == saved_changes
    corrections = [s for kind, s in statuses if kind == "correct"]
    assert 302 in corrections
    entered = [s for kind, s in statuses if kind == "enter"]
    assert entered.count(302) == 4 * len(sheets)  # the extra phone was refused, not doubled

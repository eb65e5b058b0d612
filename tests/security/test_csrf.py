"""CSRF: every POST endpoint refuses a request without a token, and changes happen only by POST.

Clients here enforce CSRF checks as a browser would (``enforce_csrf_checks=True``). The POST
endpoints are taken from the permission matrix, so a new view is checked here as soon as it has
its row there.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Deal

from .conftest import World, client_for, db_state, rolled_back
from .test_permission_matrix import ROWS, VALID_DEAL, Row

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("tarot_club", "scoring", "tournaments")


def post_rows() -> list[Row]:
    """Every POST of the matrix that a view handles (405 rows are not POST endpoints).

    A superuser may make them all: every URL and payload of the matrix, variants included.
    """
    return [row for row in ROWS if row.post not in (None, 405)]


def csrf_client(user=None):
    return client_for(user, enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="fr")


def csrf_token(client, url: str = "/") -> str:
    """Load a page as a browser would, and read the CSRF cookie it sets."""
    assert client.get(url).status_code == 200
    return client.cookies[settings.CSRF_COOKIE_NAME].value


def test_every_post_without_a_token_is_refused_and_changes_nothing(world: World):
    superuser = csrf_client(world.users["superuser"])
    anonymous = csrf_client()
    baseline = db_state()
    problems = []
    rows = post_rows()
    assert len(rows) > 30
    extra = [("anonymous", "set_language", reverse("set_language"), {"language": "en"})]
    cases = [
        (who, row.label, reverse(row.name, kwargs=row.kwargs(world)), row.data)
        for row in rows
        for who in ("superuser", "anonymous")
        # Anonymous only where it gets past the login page: public pages and table links.
        if who == "superuser" or row.access == "public"
    ] + extra
    for who, label, url, data in cases:
        client = superuser if who == "superuser" else anonymous
        with rolled_back():
            payload = data(world) if callable(data) else data
            response = client.post(url, payload)
            if response.status_code != 403:
                problems.append(f"{who} POST {url} [{label}]: {response.status_code}, not 403")
            elif db_state() != baseline:
                problems.append(f"{who} POST {url} [{label}]: refused but the database changed")
    assert not problems, "\n".join(problems)


def test_a_post_with_the_token_goes_through(world: World):
    """Positive control: the 403s above come from the missing token, nothing else."""
    client = csrf_client(world.users["referee"])
    url = reverse("sheet", args=[world.tournament.slug, world.open_table.pk])
    token = csrf_token(client, url)
    data = {"action": "deal", "number": "2", **VALID_DEAL}
    response = client.post(url, {**data, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Deal.objects.filter(sheet=world.open_table.sheet, number=2).exists()
    # The htmx way: the token in the X-CSRFToken header (base.html sets hx-headers).
    table = csrf_client()
    table_url = reverse("table_sheet", args=[world.other_open_table.sheet.token])
    header_token = csrf_token(table, table_url)
    response = table.post(
        table_url, {"action": "deal", "number": "1", **VALID_DEAL}, HTTP_X_CSRFTOKEN=header_token
    )
    assert response.status_code == 302
    assert Deal.objects.filter(sheet=world.other_open_table.sheet, number=1).exists()


def test_a_token_with_a_foreign_origin_is_refused(world: World):
    client = csrf_client()
    url = reverse("table_sheet", args=[world.open_table.sheet.token])
    token = csrf_token(client, url)
    before = db_state()
    response = client.post(
        url,
        {"action": "deal", "number": "2", **VALID_DEAL, "csrfmiddlewaretoken": token},
        HTTP_ORIGIN="https://tricheur.example",
    )
    assert response.status_code == 403
    assert db_state() == before
    # A wrong token is refused too.
    response = client.post(url, {**VALID_DEAL, "number": "2", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    assert db_state() == before


POST_ONLY = ("tournaments:seat_round", "tournaments:checkin", "tournaments:round_action", "logout")


def test_post_only_endpoints_answer_get_with_405_and_change_nothing(world: World):
    client = csrf_client(world.users["superuser"])
    baseline = db_state()
    rows = [row for row in ROWS if row.name in POST_ONLY]
    assert {row.name for row in rows} == set(POST_ONLY)
    for row in rows:
        url = reverse(row.name, kwargs=row.kwargs(world))
        query = urlencode(_query(row.data(world)))
        response = client.get(f"{url}?{query}" if query else url)
        assert response.status_code == 405, (row.label, url)
        assert db_state() == baseline, (row.label, url)


def test_a_get_with_the_form_values_in_the_query_changes_nothing(world: World):
    """The values of every POST form, sent as GET query parameters, write nothing."""
    baseline = db_state()
    clients = {
        "superuser": csrf_client(world.users["superuser"]),
        "anonymous": csrf_client(),
    }
    problems = []
    for row in post_rows():
        who = "anonymous" if row.access == "public" else "superuser"
        url = reverse(row.name, kwargs=row.kwargs(world))
        query = urlencode(_query(row.data(world)))
        response = clients[who].get(f"{url}?{query}" if query else url)
        if response.status_code not in (200, 404, 405):
            problems.append(f"{who} GET {url}?{query} [{row.label}]: {response.status_code}")
        if db_state() != baseline:
            problems.append(f"{who} GET {url}?{query} [{row.label}]: the database changed")
            break
    assert not problems, "\n".join(problems)


def _query(data: dict) -> dict:
    return {k: v for k, v in data.items() if not isinstance(v, SimpleUploadedFile)}


# -- Source checks ----------------------------------------------------------------------------


def _sources(suffix: str, *dirs: str):
    for name in dirs:
        for path in sorted((ROOT / name).rglob(f"*{suffix}")):
            if "migrations" not in path.parts and "__pycache__" not in path.parts:
                yield path


def test_no_view_is_exempt_from_csrf():
    offenders = []
    pattern = re.compile(r"csrf_exempt|csrf_exempt\s*=\s*True|CSRF_EXEMPT", re.IGNORECASE)
    for path in _sources(".py", *SOURCE_DIRS):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE


FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.IGNORECASE | re.DOTALL)


def test_every_post_form_in_the_templates_carries_the_token():
    templates = ROOT / "templates"
    dirs = [templates, *(ROOT / name / "templates" for name in SOURCE_DIRS)]
    missing = []
    forms = 0
    for directory in dirs:
        if not directory.exists():
            continue
        for path in sorted(directory.rglob("*.html")):
            text = path.read_text(encoding="utf-8")
            for match in FORM.finditer(text):
                attributes, body = match.groups()
                if not re.search(r"""method=["']?post""", attributes, re.IGNORECASE):
                    continue
                forms += 1
                if "{% csrf_token %}" not in body:
                    line = text[: match.start()].count("\n") + 1
                    missing.append(f"{path.relative_to(ROOT)}:{line}")
    assert forms > 15
    assert not missing, f"POST forms without {{% csrf_token %}}: {missing}"

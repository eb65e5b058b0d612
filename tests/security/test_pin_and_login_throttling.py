"""Guessing is slowed down: PINs on a table link, passwords on the login page. And the security
headers every page carries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import timezone

from scoring.engine.sampling import random_legal_deal
from scoring.models import PinAttempt, ScoreSheet, Signature
from scoring.services import PIN_ATTEMPTS_ALLOWED, PIN_LOCKOUT, Actor, deal_record

from .conftest import LOGIN_PREFIX, World, client_for

# -- PINs on a table link -----------------------------------------------------------------------


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10_000:04d}"


def sign(client, url, registration, pin, address):
    data = {"action": "sign", "registration": registration.pk, "pin": pin}
    return client.post(url, data, REMOTE_ADDR=address)


@pytest.fixture
def complete_sheet(world: World) -> ScoreSheet:
    """Round 2, table 1 with both its deals entered: ready to sign."""
    import random

    sheet = world.open_table.sheet
    deal_record(
        sheet=sheet,
        number=2,
        kind="played",
        deal=random_legal_deal(random.Random(8), 4),
        actor=Actor.table(page="/test"),
    )
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    return sheet


def test_wrong_pins_lock_the_table_device_out_for_a_while(complete_sheet, world):
    sheet = complete_sheet
    url = reverse("table_sheet", args=[sheet.token])
    seats = list(sheet.table.seats.order_by("position").select_related("registration"))
    player, other = seats[0].registration, seats[1].registration
    device, phone = "10.1.2.3", "10.9.9.9"
    client = client_for()
    assert PIN_ATTEMPTS_ALLOWED == 5

    for _ in range(5):
        response = sign(client, url, player, wrong(player.pin), device)
        assert response.status_code == 422
    assert PinAttempt.objects.filter(sheet=sheet, client=device).count() == 5
    assert not Signature.objects.filter(sheet=sheet).exists()

    # Now even the right PIN is refused from that device, for every player of the sheet...
    for registration in (player, other):
        response = sign(client, url, registration, registration.pin, device)
        assert response.status_code == 422
    assert not Signature.objects.filter(sheet=sheet).exists()
    assert PinAttempt.objects.filter(sheet=sheet, client=device).count() == 5

    # ...while another device is not locked out,
    response = sign(client_for(), url, player, player.pin, phone)
    assert response.status_code == 302
    assert Signature.objects.filter(sheet=sheet, registration=player).count() == 1

    # and the device may try again once the lockout has passed.
    PinAttempt.objects.filter(sheet=sheet, client=device).update(
        at=timezone.now() - PIN_LOCKOUT - timedelta(seconds=1)
    )
    response = sign(client, url, other, other.pin, device)
    assert response.status_code == 302
    assert Signature.objects.filter(sheet=sheet, registration=other).count() == 1


def test_the_pin_lockout_also_holds_on_the_referee_page(complete_sheet, world):
    """The referee's device is throttled the same way (the PIN is the player's, not theirs)."""
    sheet = complete_sheet
    url = reverse("sheet", args=[world.tournament.slug, sheet.table_id])
    player = sheet.table.seats.order_by("position").first().registration
    client = client_for(world.users["referee"])
    for _ in range(5):
        assert sign(client, url, player, wrong(player.pin), "10.0.0.7").status_code == 422
    assert sign(client, url, player, player.pin, "10.0.0.7").status_code == 422
    assert not Signature.objects.filter(sheet=sheet).exists()


# -- Passwords on the login page (django-axes) ----------------------------------------------------


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    return settings


def login(client, username, password, address="10.2.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_the_account_from_that_address(axes_on, world):
    referee = world.users["referee"]  # password "pw-arbitre-ici"
    client = client_for()
    statuses = [login(client, referee.username, "mauvais").status_code for _ in range(5)]
    assert statuses[:4] == [200] * 4  # the form again, with its error
    assert statuses[4] in (200, 429)
    assert AccessAttempt.objects.filter(username=referee.username).exists()

    response = login(client, referee.username, "pw-arbitre-ici")
    assert response.status_code == 429  # django-axes' lockout response
    assert not logged_in(client)
    staff = client.get(reverse("tournaments:list"))
    assert staff.status_code == 302 and staff["Location"].startswith(LOGIN_PREFIX)

    # The lock is for this account from this address (AXES_LOCKOUT_PARAMETERS):
    other = client_for()
    assert login(other, referee.username, "pw-arbitre-ici", address="10.2.0.2").status_code == 302
    assert logged_in(other)
    organiser = world.users["organiser"]
    third = client_for()
    assert login(third, organiser.username, "pw-orga-ici").status_code == 302
    assert logged_in(third)

    # After the cool-off period the account opens again from the first address.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(hours=1))
    assert login(client, referee.username, "pw-arbitre-ici").status_code == 302
    assert logged_in(client)


def test_axes_is_on_outside_the_tests():
    """The test settings switch axes off; production must not."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "tarot_club" / "settings.py").read_text()
    assert re.search(r'AXES_ENABLED\s*=\s*env_bool\("AXES_ENABLED",\s*default=not TESTING\)', text)
    assert "axes.middleware.AxesMiddleware" in text
    assert '"axes.backends.AxesStandaloneBackend"' in text


# -- Security headers -----------------------------------------------------------------------------


def _csp(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


@pytest.mark.parametrize("page", ["calculator", "public", "staff", "table"])
def test_security_headers(world, page):
    if page == "calculator":
        response = client_for().get(reverse("calculator"))
    elif page == "public":
        response = client_for().get(reverse("public:home", args=[world.tournament.slug]))
    elif page == "staff":
        client = client_for(world.users["referee"])
        response = client.get(reverse("tournaments:dashboard", args=[world.tournament.slug]))
    else:
        response = client_for().get(reverse("table_sheet", args=[world.open_table.sheet.token]))
    assert response.status_code == 200
    csp = _csp(response)
    assert csp["default-src"] == ["'self'"]
    script = csp.get("script-src", csp["default-src"])
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    assert "'unsafe-inline'" not in csp.get("style-src", [])
    assert csp.get("frame-ancestors") == ["'none'"]
    assert csp.get("object-src") == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    # Nothing the policy would block: no inline script or event handler in the page.
    html = response.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert not re.search(r"<style\b|\sstyle\s*=", html), "inline style (style-src 'self')"

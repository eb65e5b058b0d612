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
from tarot_club.network import client_address

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


PROXY = "10.0.0.1"  # behind the TLS proxy every phone has the proxy's address


def test_wrong_pins_lock_that_players_signature_on_that_sheet_from_anywhere(complete_sheet, world):
    """Five wrong PINs for one player lock that player's signing on this sheet for 5 minutes,
    from every device: the lock is on the PIN being tried, not on an address (behind a proxy
    every client shares one, and a guesser could change theirs)."""
    sheet = complete_sheet
    url = reverse("table_sheet", args=[sheet.token])
    seats = list(sheet.table.seats.order_by("position").select_related("registration"))
    player, other = seats[0].registration, seats[1].registration
    assert PIN_ATTEMPTS_ALLOWED == 5

    for attempt in range(5):  # from five different devices
        response = sign(client_for(), url, player, wrong(player.pin), f"10.1.2.{attempt}")
        assert response.status_code == 422
    attempts = PinAttempt.objects.filter(sheet=sheet, registration=player)
    assert attempts.count() == 5
    assert sorted(attempts.values_list("client", flat=True)) == [f"10.1.2.{i}" for i in range(5)]
    assert not Signature.objects.filter(sheet=sheet).exists()

    # Now even the right PIN is refused for that player, from any device...
    for address in ("10.1.2.0", "10.9.9.9", PROXY):
        response = sign(client_for(), url, player, player.pin, address)
        assert response.status_code == 422
        assert "Too many wrong PINs" in response.content.decode() or "Trop de" in (
            response.content.decode()
        )
    assert not Signature.objects.filter(sheet=sheet).exists()
    assert attempts.count() == 5

    # ...while the other players of the table sign, from the very same address,
    response = sign(client_for(), url, other, other.pin, "10.1.2.0")
    assert response.status_code == 302
    assert Signature.objects.filter(sheet=sheet, registration=other).count() == 1

    # and the player signs once the lockout has passed.
    attempts.update(at=timezone.now() - PIN_LOCKOUT - timedelta(seconds=1))
    response = sign(client_for(), url, player, player.pin, "10.1.2.0")
    assert response.status_code == 302
    assert Signature.objects.filter(sheet=sheet, registration=player).count() == 1


def test_behind_a_proxy_one_guesser_blocks_nobody_else(complete_sheet, world, settings):
    """Every phone comes through the proxy: five wrong PINs for one player used to block the
    whole table (referees included) for 5 minutes."""
    settings.TRUSTED_PROXIES = 1
    sheet = complete_sheet
    url = reverse("table_sheet", args=[sheet.token])
    seats = list(sheet.table.seats.order_by("position").select_related("registration"))
    player = seats[0].registration
    guesser = client_for()
    for _ in range(5):
        response = guesser.post(
            url,
            {"action": "sign", "registration": player.pk, "pin": wrong(player.pin)},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="192.168.1.66",
        )
        assert response.status_code == 422
    assert set(PinAttempt.objects.values_list("client", flat=True)) == {"192.168.1.66"}
    # The three others sign from North's phone, through the same proxy...
    north = client_for()
    for seat in seats[1:3]:
        response = north.post(
            url,
            {"action": "sign", "registration": seat.registration.pk, "pin": seat.registration.pin},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="192.168.1.10",
        )
        assert response.status_code == 302
    # ...and on the referee's laptop, through the proxy too.
    referee = client_for(world.users["referee"])
    last = seats[3].registration
    response = referee.post(
        reverse("sheet", args=[world.tournament.slug, sheet.table_id]),
        {"action": "sign", "registration": last.pk, "pin": last.pin},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="192.168.1.2",
    )
    assert response.status_code == 302
    assert Signature.objects.filter(sheet=sheet).count() == 3


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
    # The referee records the paper sheet's signatures instead.
    response = client.post(url, {"action": "sign_paper"})
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.SIGNED


# -- The client's address ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("proxies", "forwarded", "remote", "expected"),
    [
        (0, "", "10.0.0.1", "10.0.0.1"),
        (0, "6.6.6.6", "10.0.0.1", "10.0.0.1"),  # spoofed: no proxy is trusted
        (1, "192.168.1.5", "10.0.0.1", "192.168.1.5"),
        (1, "6.6.6.6, 192.168.1.5", "10.0.0.1", "192.168.1.5"),  # the client added 6.6.6.6
        (1, "", "10.0.0.1", "10.0.0.1"),  # straight to the app, not through the proxy
        (2, "6.6.6.6, 192.168.1.5, 10.0.0.9", "10.0.0.1", "192.168.1.5"),
        (1, "not-an-address", "10.0.0.1", "unknown"),
        (1, "2001:db8::1", "10.0.0.1", "2001:db8::1"),
        (0, "", "", "unknown"),
        # A proxy on a Unix socket (REMOTE_ADDR empty): only a local process, trusted.
        (0, "192.168.1.5", "", "192.168.1.5"),
        (0, "6.6.6.6, 192.168.1.5", "", "192.168.1.5"),
        (1, "192.168.1.5", "", "192.168.1.5"),
    ],
)
def test_client_address(rf, settings, proxies, forwarded, remote, expected):
    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


def test_the_proxy_setting_comes_from_the_environment():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "tarot_club" / "settings.py").read_text()
    assert 'TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)' in text
    assert 'AXES_CLIENT_IP_CALLABLE = "tarot_club.network.client_address"' in text


# -- Passwords on the login page (django-axes) ----------------------------------------------------


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    return settings


def login(client, username, password, address="10.2.0.1", **headers):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
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


def test_behind_a_proxy_the_login_lock_is_per_client(axes_on, world):
    """With the proxy trusted, axes locks the client that guessed, not everyone behind the
    proxy (who all share its address)."""
    axes_on.TRUSTED_PROXIES = 1
    referee = world.users["referee"]
    guesser = client_for()
    for _ in range(5):
        login(guesser, referee.username, "mauvais", PROXY, HTTP_X_FORWARDED_FOR="192.168.1.66")
    locked = login(
        guesser, referee.username, "pw-arbitre-ici", PROXY, HTTP_X_FORWARDED_FOR="192.168.1.66"
    )
    assert locked.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"192.168.1.66"}
    owner = client_for()
    response = login(
        owner, referee.username, "pw-arbitre-ici", PROXY, HTTP_X_FORWARDED_FOR="192.168.1.10"
    )
    assert response.status_code == 302 and logged_in(owner)


def test_behind_a_proxy_on_a_unix_socket_logins_never_fail_and_lock_per_client(axes_on, world):
    """nginx on a Unix socket gives an empty REMOTE_ADDR: never a 500 (an "unknown" address
    written by axes on PostgreSQL), never one lock for everybody."""
    assert axes_on.TRUSTED_PROXIES == 0
    referee = world.users["referee"]
    guesser = client_for()
    for _ in range(5):
        response = login(
            guesser, referee.username, "mauvais", "", HTTP_X_FORWARDED_FOR="192.168.1.66"
        )
        assert response.status_code in (200, 429)
    locked = login(
        guesser, referee.username, "pw-arbitre-ici", "", HTTP_X_FORWARDED_FOR="192.168.1.66"
    )
    assert locked.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"192.168.1.66"}
    owner = client_for()
    response = login(
        owner, referee.username, "pw-arbitre-ici", "", HTTP_X_FORWARDED_FOR="192.168.1.10"
    )
    assert response.status_code == 302 and logged_in(owner)
    # A socket proxy that sends no address at all: a clear refusal, nothing counted.
    attempts = AccessAttempt.objects.count()
    response = login(client_for(), referee.username, "mauvais", "")
    assert response.status_code == 503
    assert "X-Forwarded-For" in response.content.decode()
    assert AccessAttempt.objects.count() == attempts


def test_without_a_trusted_proxy_a_spoofed_forwarded_for_changes_nothing(axes_on, world):
    """A guesser who sends a new X-Forwarded-For with every try is still one address."""
    assert axes_on.TRUSTED_PROXIES == 0
    referee = world.users["referee"]
    guesser = client_for()
    for attempt in range(5):
        login(guesser, referee.username, "mauvais", HTTP_X_FORWARDED_FOR=f"6.6.6.{attempt}")
    response = login(guesser, referee.username, "pw-arbitre-ici", HTTP_X_FORWARDED_FOR="6.6.6.99")
    assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.2.0.1"}


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


# -- Documents that carry PINs or table links are never stored -----------------------------------


def test_documents_with_pins_or_table_links_are_not_stored(world):
    """Cache-Control: no-store, so that no proxy, shared computer or browser history keeps
    them: the table cards (table links), the PIN slips, the archive (PINs and links), the
    referee's sheet page (the table link) and the table link's own page."""
    slug_ = world.tournament.slug
    organiser = client_for(world.users["organiser"])
    answers = {
        "table cards": organiser.get(reverse("tournaments:round_pdf", args=[slug_, 2, "cards"])),
        "PIN slips": organiser.get(reverse("tournaments:pin_slips", args=[slug_])),
        "archive": organiser.get(reverse("tournaments:archive", args=[slug_])),
        "referee sheet": organiser.get(reverse("sheet", args=[slug_, world.open_table.pk])),
        "table link": client_for().get(reverse("table_sheet", args=[world.open_table.sheet.token])),
    }
    for name, response in answers.items():
        assert response.status_code == 200, name
        assert "no-store" in response["Cache-Control"], name
    # The seating plan, to pin on a wall, carries neither.
    plan = organiser.get(reverse("tournaments:round_pdf", args=[slug_, 2, "plan"]))
    assert "no-store" not in plan.get("Cache-Control", "")

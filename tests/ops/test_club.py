"""``make club``'s pieces without a network: which addresses, which environment, the QR code
drawn in the terminal, and the address table links carry (tarot_club.club, scoring.links).

The server itself, on a real network address, is tested in tests/browser/test_club_room.py.
"""

from __future__ import annotations

import segno
from django.test import RequestFactory, override_settings
from django.utils import translation

from scoring.labels import of_person
from scoring.links import public_url
from tarot_club import club
from tournaments.names import starts_with_vowel_sound

QR_BLOCKS = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def matrix_of_terminal_qr(text: str, border: int = 2) -> list[list[bool]]:
    """Read back the QR code drawn by ``terminal_qr`` (light modules are blocks, two rows of
    modules per line): True for each dark module."""
    lines = [line for line in text.splitlines() if line and set(line) <= set(QR_BLOCKS)]
    assert lines, "no QR code in the text"
    rows = []
    for line in lines:
        rows.append([not QR_BLOCKS[c][0] for c in line])
        rows.append([not QR_BLOCKS[c][1] for c in line])
    size = len(lines[0]) - 2 * border
    return [row[border : border + size] for row in rows[border : border + size]]


def test_the_terminal_qr_code_reads_back_as_the_address():
    url = "http://192.168.1.20:8000/"
    drawn = matrix_of_terminal_qr(club.terminal_qr(url))
    assert drawn == [[bool(bit & 1) for bit in row] for row in segno.make(url, error="m").matrix]


def test_the_room_address_is_the_default_routes_then_private_ones():
    interfaces = {
        "lo": ["127.0.0.1"],
        "docker0": ["172.17.0.1"],
        "wlan0": ["192.168.1.20"],
        "tun0": ["100.64.3.2"],
        "eth0": ["169.254.10.3"],  # no DHCP answer: unusable
    }
    assert club.choose_addresses(interfaces, "192.168.1.20") == [
        "192.168.1.20",
        "172.17.0.1",
        "100.64.3.2",
    ]
    # No default route (a Wi-Fi box without internet may give none): private addresses first.
    assert club.choose_addresses(interfaces, None)[:2] == ["172.17.0.1", "192.168.1.20"]
    assert club.choose_addresses({"lo": ["127.0.0.1"]}, None) == []


def test_this_machines_addresses_are_usable_ones():
    for address in club.room_addresses():
        assert not address.startswith(("127.", "169.254.")), address


def test_the_rooms_server_runs_without_debug_on_plain_http_for_the_rooms_hosts():
    base = {"DJANGO_DEBUG": "1", "DJANGO_TESTING": "1", "PATH": "/usr/bin", "DJANGO_SECURE": "1"}
    env = club.server_environment(base, addresses=["192.168.1.20", "10.0.0.5"], port=8123)
    assert "DJANGO_DEBUG" not in env and "DJANGO_TESTING" not in env
    assert env["DJANGO_SECURE"] == "0"
    assert env["SITE_URL"] == "http://192.168.1.20:8123"
    hosts = env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert {"192.168.1.20", "10.0.0.5", "127.0.0.1", "localhost"} <= set(hosts)
    assert env["PATH"] == "/usr/bin"
    # Without any network address, the laptop still serves itself.
    assert club.server_environment(base, addresses=[], port=8000)["SITE_URL"] == (
        "http://127.0.0.1:8000"
    )


def test_table_links_carry_the_rooms_address_when_it_is_set():
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    with override_settings(SITE_URL="http://192.168.1.20:8000"):
        assert public_url("/table/abc/", request) == "http://192.168.1.20:8000/table/abc/"
        assert public_url("/table/abc/") == "http://192.168.1.20:8000/table/abc/"
    with override_settings(SITE_URL=""):
        assert public_url("/table/abc/", request) == "http://127.0.0.1:8000/table/abc/"
        assert public_url("/table/abc/") == "http://127.0.0.1:8000/table/abc/"


def test_french_elides_de_before_a_vowel_sound():
    assert [
        starts_with_vowel_sound(n) for n in ["Élodie", "anaïs", "Hugo", "Yves", "Yann", "Léa"]
    ] == [
        True,
        True,
        True,
        True,
        False,
        False,
    ]
    with translation.override("fr"):
        assert of_person("Élodie Leroy") == "d'Élodie Leroy"
        assert of_person("Léa Martin") == "de Léa Martin"
    with translation.override("en"):
        assert of_person("Élodie Leroy") == "of Élodie Leroy"

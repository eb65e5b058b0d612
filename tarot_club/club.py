"""Serving the app to a club room: the laptop's network addresses, the address phones open, and
the environment of the server that ``manage.py serve_club`` (``make club``) starts.

A club plays in a hall with one laptop and a Wi-Fi box, often without internet. The laptop
serves every phone over plain HTTP on its own address in the room (192.168.x.y, say): the
server listens on every address, accepts the laptop's addresses as host names, and every table
link and document carries the room's address (``SITE_URL``) instead of 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Mapping


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (
        ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast
    )


def choose_addresses(interfaces: Mapping[str, Iterable[str]], preferred: str | None) -> list[str]:
    """The IPv4 addresses phones may reach, best first: the one the laptop uses for its
    default route (the Wi-Fi box), then private addresses (192.168.x.y, 10.x.y.z), then others.

    ``interfaces`` maps each interface that is up to its IPv4 addresses. Loopback, link-local
    (169.254.x.y: no DHCP answer) and multicast addresses are left out.
    """
    found: list[str] = []
    for addresses in interfaces.values():
        for address in addresses:
            if _usable(address) and address not in found:
                found.append(address)
    order = {address: index for index, address in enumerate(found)}
    return sorted(
        found, key=lambda a: (a != preferred, not ipaddress.ip_address(a).is_private, order[a])
    )


def _default_route_address() -> str | None:
    """The source address of the default route (a UDP "connect" sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
            return probe.getsockname()[0]
        except OSError:
            return None


def room_addresses() -> list[str]:
    """This machine's addresses that phones in the room can open, best first."""
    import psutil

    stats = psutil.net_if_stats()
    interfaces = {
        name: [a.address for a in addresses if a.family == socket.AF_INET]
        for name, addresses in psutil.net_if_addrs().items()
        if name not in stats or stats[name].isup
    }
    return choose_addresses(interfaces, _default_route_address())


def room_url(address: str | None, port: int) -> str:
    """The address phones open (no trailing slash); this laptop only when there is none."""
    return f"http://{address or '127.0.0.1'}:{port}"


def allowed_hosts(addresses: Iterable[str]) -> list[str]:
    """Host names the server answers to: the room's addresses and this laptop's own names."""
    hosts = ["localhost", "127.0.0.1", "[::1]", *addresses]
    name = socket.gethostname()
    if name:
        hosts += [name, f"{name}.local"]
    return list(dict.fromkeys(hosts))


def server_environment(base: Mapping[str, str], *, addresses: list[str], port: int) -> dict:
    """The environment of the room's server: debug off, plain HTTP (no HTTPS-only cookies or
    redirect: phones open http://192.168.x.y), the club room's rules (``DJANGO_CLUB_ROOM``), the
    room's addresses as hosts, and the room's address in table links and documents."""
    env = dict(base)
    env.pop("DJANGO_DEBUG", None)
    env.pop("DJANGO_TESTING", None)
    env["DJANGO_SECURE"] = "0"
    env["DJANGO_CLUB_ROOM"] = "1"  # no /admin/, no known password (tarot_club.room_accounts)
    env["DJANGO_ALLOWED_HOSTS"] = ",".join(allowed_hosts(addresses))
    env["SITE_URL"] = room_url(addresses[0] if addresses else None, port)
    return env


def terminal_qr(url: str) -> str:
    """A QR code of ``url`` drawn with block characters, for the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()

"""``manage.py serve_club`` (``make club``): serve the app to the phones of a club room.

Migrates the database (SQLite unless ``DATABASE_URL`` says otherwise), loads the demo on an
empty database as ``make run`` does, collects the static files, prints the address phones
open with its QR code, then replaces itself with gunicorn listening on every address of the
laptop: debug off, plain HTTP, the room's addresses as hosts, the room's address in table links
and documents (see :mod:`tarot_club.club`).
"""

from __future__ import annotations

import os
import shutil
import sys

from django.core.management import call_command
from django.utils.translation import gettext as _

from tarot_club import club
from tarot_club.commands import ProjectCommand, check_range


def _gunicorn_version() -> tuple[int, ...]:
    import gunicorn

    return tuple(gunicorn.version_info)


class Command(ProjectCommand):
    help = "Serve the app to the phones of a club room (gunicorn on every address of this laptop)."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2, help="gunicorn processes")
        parser.add_argument("--threads", type=int, default=4, help="threads per process")
        parser.add_argument(
            "--no-demo", action="store_true", help="do not load the demo on an empty database"
        )

    def handle(self, *args, port: int, workers: int, threads: int, no_demo: bool, **options):
        check_range("--port", port, 1, 65535)
        check_range("--workers", workers, 1, 64)
        check_range("--threads", threads, 1, 64)
        call_command("migrate", interactive=False, verbosity=0)
        if not no_demo:
            call_command("setup_demo", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        addresses = club.room_addresses()
        env = club.server_environment(os.environ, addresses=addresses, port=port)
        url = env["SITE_URL"] + "/"
        self.stdout.write("")
        if addresses:
            self.stdout.write(
                _("Phones in the room open %(url)s (or scan this code):") % {"url": url}
            )
            self.stdout.write(club.terminal_qr(url))
            for other in addresses[1:]:
                self.stdout.write(
                    _("Also reachable at %(url)s") % {"url": club.room_url(other, port) + "/"}
                )
        else:
            self.stdout.write(
                _(
                    "No network address found: is this laptop connected to the room's Wi-Fi? "
                    "Until it is, only this laptop can open %(url)s."
                )
                % {"url": url}
            )
        self.stdout.write(
            _("On this laptop: http://127.0.0.1:%(port)d/gestion/ · Stop with Ctrl+C.")
            % {"port": port}
        )
        self.stdout.write(
            _(
                "If phones cannot connect, allow incoming TCP connections on port %(port)d in "
                "this laptop's firewall (accept the prompt of Windows or macOS)."
            )
            % {"port": port}
        )
        self.stdout.write("")
        self.stdout.flush()
        gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or "gunicorn"
        argv = [
            gunicorn,
            "tarot_club.wsgi",
            "--bind",
            f"0.0.0.0:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--worker-class",
            "gthread",
            "--graceful-timeout",
            "5",
        ]
        if _gunicorn_version() >= (27,):
            argv.append("--no-control-socket")  # (gunicorn 27's: one fixed path per user)
        os.execvpe(argv[0], argv, env)

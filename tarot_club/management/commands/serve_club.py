"""``manage.py serve_club`` (``make club``): serve the app to the phones of a club room.

Migrates the database (SQLite unless ``DATABASE_URL`` says otherwise), never loads the demo,
refuses to start while an account has a password anybody could know (the demo's), makes the
club's first organiser account when there is none (password typed on the laptop, or generated
and shown once in this terminal: see :mod:`tarot_club.room_accounts`), collects the static
files, prints the address phones open with its QR code, starts the background jobs' worker
(stopped with the server), then replaces itself with gunicorn
listening on every address of the laptop: debug off, plain HTTP, no ``/admin/``, the room's
addresses as hosts, the room's address in table links and documents (see
:mod:`tarot_club.club`).
"""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tarot_club import club, room_accounts, services
from tarot_club.commands import ProjectCommand, check_range


def _gunicorn_version() -> tuple[int, ...]:
    import gunicorn

    return tuple(gunicorn.version_info)


def start_jobs_worker(env: dict) -> subprocess.Popen:
    """The background jobs' worker, beside the server: it stops when this process (gunicorn,
    once exec'd) ends (``jobs_worker --parent``), and with Ctrl+C like the server."""
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    command = [sys.executable, manage, "jobs_worker", "--parent", str(os.getpid()), "-v", "0"]
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)


class Command(ProjectCommand):
    help = "Serve the app to the phones of a club room (gunicorn on every address of this laptop)."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2, help="gunicorn processes")
        parser.add_argument("--threads", type=int, default=4, help="threads per process")

    def handle(self, *args, port: int, workers: int, threads: int, **options):
        check_range("--port", port, 1, 65535)
        check_range("--workers", workers, 1, 64)
        check_range("--threads", threads, 1, 64)
        call_command("migrate", interactive=False, verbosity=0)
        self.refuse_known_passwords()
        if not room_accounts.has_organiser():
            self.first_organiser()
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
        start_jobs_worker(env)
        os.execvpe(argv[0], argv, env)

    def refuse_known_passwords(self) -> None:
        known = room_accounts.known_password_accounts()
        if not known:
            return
        names = ", ".join(f"'{name}'" for name in known)
        raise CommandError(
            _(
                "The club room is not served: the account(s) %(names)s have the demo's "
                "password, which anybody can read. Give each a password of your own "
                "(.venv/bin/python manage.py changepassword %(first)s), then run make club again."
            )
            % {"names": names, "first": known[0]}
        )

    def first_organiser(self) -> None:
        """The club's first organiser account: typed on this laptop when a person is at its
        keyboard, otherwise a generated password shown once, here only."""
        self.stdout.write(
            _("No organiser account yet: this laptop makes the club's first one now.")
        )
        if sys.stdin is not None and sys.stdin.isatty():
            try:
                user = self.typed_organiser()
            except (KeyboardInterrupt, EOFError):
                raise CommandError(
                    _("No organiser account made: the club room is not served.")
                ) from None
            self.stdout.write(
                _("Organiser account « %(name)s » created.") % {"name": user.username}
            )
            return
        password = room_accounts.generated_password()
        user = services.first_organiser_create(
            username=room_accounts.free_username("organisateur"), password=password
        )
        self.stdout.write(
            _(
                "Organiser account created: log in as '%(name)s' with the password "
                "%(password)s (shown only this once: write it down, or change it at once with "
                ".venv/bin/python manage.py changepassword %(name)s)."
            )
            % {"name": user.username, "password": password}
        )

    def typed_organiser(self):
        while True:
            username = input(_("Organiser's user name: "))
            password = getpass.getpass(_("Password (at least 8 characters): "))
            if password != getpass.getpass(_("The same password again: ")):
                self.stderr.write(_("The two passwords differ: type them again."))
                continue
            try:
                return services.first_organiser_create(username=username, password=password)
            except ValidationError as error:
                self.stderr.write(" ".join(error.messages))

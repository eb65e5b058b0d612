"""``manage.py trust_key FILE --fingerprint XXXX-XXXX-XXXX-XXXX``: trust another club's key.

FILE is the public key file a club or federation published (``manage.py publish_seal_key``).
The fingerprint is typed by whoever compared it with the one its holder publishes: the key is
trusted only when both are the same (scoring.trust). ``--list`` shows the trusted keys.
"""

from pathlib import Path

from django.core.management.base import CommandError

from scoring.documents.seal import key_code
from scoring.models import TrustedKey
from scoring.sealing import installation_public_key
from scoring.trust import key_file_read
from tarot_club.commands import ProjectCommand
from tarot_club.errors import ServiceError

MAX_FILE = 64 * 1024


class Command(ProjectCommand):
    help = "Trust a club's public sealing key, after comparing its fingerprint; --list shows them."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?")
        parser.add_argument("--fingerprint", help="the fingerprint its holder publishes")
        parser.add_argument("--name", help="who holds it (default: the name in the file)")
        parser.add_argument(
            "--list", action="store_true", dest="list_keys", help="list the trusted keys"
        )

    def handle(self, *args, file=None, fingerprint=None, name=None, list_keys=False, **options):
        if list_keys:
            own = installation_public_key()
            self.stdout.write(f"{key_code(own)}  this installation (current key)")
            for key in TrustedKey.objects.exclude(public_key=own):
                origin = "this installation (earlier key)" if key.own else key.name
                self.stdout.write(f"{key_code(key.public_key)}  {origin}")
            return
        if not file:
            raise CommandError("Name the public key file to trust (or --list).")
        path = Path(file)
        if not path.is_file() or path.stat().st_size > MAX_FILE:
            raise CommandError(f"No public key file {file!r}.")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {file} ({error}).") from None
        if not fingerprint:
            raise CommandError(
                "Compare this key's fingerprint with the one its holder publishes, then run "
                "again with --fingerprint XXXX-XXXX-XXXX-XXXX."
            )
        try:
            file_name, public_key = key_file_read(text, fingerprint=fingerprint)
        except ServiceError as error:
            raise CommandError(str(error)) from None
        holder = " ".join((name or file_name).split())
        if not holder:
            raise CommandError("This file names nobody: say who holds the key with --name.")
        key, _new = TrustedKey.objects.get_or_create(
            public_key=public_key, defaults={"name": holder[:100]}
        )
        self.stdout.write(f"Trusted: {key.name}, fingerprint {key_code(public_key)}.")

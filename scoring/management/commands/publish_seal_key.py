"""``manage.py publish_seal_key [-o FILE]``: this installation's public key file, to publish.

The file holds the installation's name, its public sealing key and the key's fingerprint (the
one printed on every score sheet); a club puts it on its web site or sends it to its federation,
which add it with ``manage.py trust_key``. It never holds the private key. The key is made here
if this installation has none yet.
"""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import CommandError

from scoring.documents.seal import key_code, public_key_file
from scoring.sealing import installation_name, installation_public_key
from tarot_club.commands import ProjectCommand


class Command(ProjectCommand):
    help = "Print this installation's public sealing key file and its fingerprint, to publish."

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", help="write the file there instead of printing it")

    def handle(self, *args, output=None, **options):
        try:
            public_key = installation_public_key()
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from None
        text = public_key_file(installation_name(), public_key)
        if not output:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {output} ({error.strerror or error}).") from None
        self.stdout.write(
            f"Public key file of {installation_name()} written to {output} "
            f"(fingerprint: {key_code(public_key)})"
        )

"""What the project's management commands share: a bad argument is one line, never a traceback.

Every command of the project derives from :class:`ProjectCommand`. From the command line, a bad
argument, a file that cannot be written or read, or a value out of range prints one line on
stderr (``CommandError: …``) and exits with status 1: argparse's own errors (``--seed abc``)
too, instead of its usage text and status 2, and an ``OSError`` the command did not foresee.
Commands check their output file with :func:`output_file` and their numbers with
:func:`check_range` before any long work, so nothing is computed for a file that cannot be
written. Called through ``call_command`` (tests), the same errors are a ``CommandError``.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

# The largest seed a demo accepts: a round's seating seed is seed * 100 + round, and a
# PositiveIntegerField holds 2,147,483,647 on PostgreSQL.
MAX_SEED = 1_000_000


class ProjectCommand(BaseCommand):
    """A management command whose every failure on its arguments is one line and status 1."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def error(message: str):
            if parser.called_from_command_line:
                parser.exit(1, f"CommandError: {message} (see {prog_name} {subcommand} --help)\n")
            raise CommandError(f"Error: {message}")

        parser.error = error
        return parser

    def execute(self, *args, **options):
        try:
            return super().execute(*args, **options)
        except OSError as error:
            raise CommandError(_one_line(error)) from None


def _one_line(error: OSError) -> str:
    if error.filename is not None:
        return f"{error.filename}: {error.strerror or error}."
    return str(error).splitlines()[0] if str(error) else error.__class__.__name__


def output_file(value: str | None, option: str = "-o") -> Path:
    """The file a command will write, checked before the work: a name, not a folder, in a
    folder that exists and may be written."""
    if not value or not value.strip():
        raise CommandError(f"{option} needs a file name.")
    if "\x00" in value:
        raise CommandError(f"{option}: a file name cannot hold a NUL character.")
    path = Path(value)
    if path.is_dir():
        raise CommandError(f"{option} {value}: this is a folder; give a file name.")
    folder = path.parent
    if not folder.exists():
        raise CommandError(f"{option} {value}: the folder {folder} does not exist.")
    if not folder.is_dir():
        raise CommandError(f"{option} {value}: {folder} is not a folder.")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CommandError(f"{option} {value}: this file cannot be written here.")
    return path


def check_range(option: str, value: int | None, low: int, high: int) -> None:
    """Refuse ``value`` (when given) outside ``low``..``high``, naming the option."""
    if value is not None and not low <= value <= high:
        raise CommandError(f"{option} goes from {low} to {high} (not {value}).")

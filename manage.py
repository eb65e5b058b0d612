#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_club.settings")
    from django.core.management import execute_from_command_line
    from django.db import DatabaseError

    try:
        execute_from_command_line(sys.argv)
    except DatabaseError:
        # A command run before `migrate` (after `make test`, say) meets a missing table: say so
        # in one line rather than with a traceback. Any other database error is shown as it is.
        from tarot_club.database import unapplied_migrations

        missing = 0 if sys.argv[1:2] == ["migrate"] else unapplied_migrations()
        if not missing:
            raise
        sys.stderr.write(
            f"CommandError: the database is not set up ({missing} migration(s) to apply). "
            "Run `.venv/bin/python manage.py migrate` first (`make run` does it).\n"
        )
        sys.exit(1)


if __name__ == "__main__":
    main()

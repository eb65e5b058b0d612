"""The WSGI entry point (gunicorn, and ``runserver``, which loads it too).

A server refuses to start with the local secret key unless a local serving command of the
Makefile started it (see :mod:`tarot_club.secret_key`).
"""

import os

from django.core.wsgi import get_wsgi_application

from tarot_club.secret_key import refuse_to_serve_with_local_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_club.settings")
application = get_wsgi_application()
refuse_to_serve_with_local_key()

"""The WSGI entry point (gunicorn, and ``runserver``, which loads it too).

A server refuses to start with the local secret key unless a local serving command of the
Makefile started it (see :mod:`tarot_club.secret_key`).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

from tarot_club.secret_key import refuse_to_serve_with_local_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_club.settings")
application = get_wsgi_application()
refuse_to_serve_with_local_key()
# What is loaded by now (Django, the apps, their modules) lives as long as the process: out of
# the garbage collector's full passes, which otherwise scan it again in the middle of a large
# cold page (a 2,000-player category page 280–440 ms instead of about 140 ms: bench/figures.md).
gc.freeze()

"""The ASGI entry point; like the WSGI one, it needs an explicit secret key to serve."""

import os

from django.core.asgi import get_asgi_application

from tarot_club.secret_key import refuse_to_serve_with_local_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_club.settings")
application = get_asgi_application()
refuse_to_serve_with_local_key()

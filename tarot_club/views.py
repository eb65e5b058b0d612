"""Project-wide views."""

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_safe


@require_safe
def switch_language(request, code: str):
    """The language switch of the public pages, which are cached for everyone and so carry no
    CSRF token: it only sets the language cookie (a preference, no data) and goes back."""
    if code not in dict(settings.LANGUAGES):
        raise Http404
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


@lru_cache(maxsize=1)
def _table_service_worker() -> bytes:
    return Path(finders.find("js/table-sw.js")).read_bytes()


@require_safe
def table_service_worker(request):
    """The service worker of the table links (``static/js/table-sw.js``), served under
    /table/ because a service worker controls only the pages below its own address."""
    response = HttpResponse(_table_service_worker(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # browsers then check for a new version each visit
    return response

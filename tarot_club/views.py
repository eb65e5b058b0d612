"""Project-wide views."""

from django.conf import settings
from django.http import Http404, HttpResponseRedirect
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

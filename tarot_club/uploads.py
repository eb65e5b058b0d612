"""Uploads over their page's limit are refused before anything reads them.

Django reads a POST's body the first time something asks for ``request.POST`` or
``request.FILES``, and the CSRF check asks first: a 60 MB file would be received and parsed
before any view could refuse it. This middleware, placed before the CSRF check, compares the
request's declared length (Django never reads past it) with the limit a view declares
(``upload_limit`` on its class) and lets the view answer (``refuse_upload``, given the URL's
arguments) without a byte read.
"""

from __future__ import annotations


class UploadLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        view_class = getattr(view_func, "view_class", None)
        limit = getattr(view_class, "upload_limit", None)
        if limit is None or request.method != "POST":
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length <= limit:
            return None
        return view_class.refuse_upload(request, **view_kwargs)

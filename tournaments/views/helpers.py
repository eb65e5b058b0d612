"""What the views of both apps share to translate HTTP: a number read from a request, a
service's refusal shown on the form that asked for it, a POST sent on to a job's start (one
definition of each)."""

from __future__ import annotations

from django import forms
from django.http import HttpResponseRedirect
from django.urls import reverse

from tarot_club.errors import ServiceError


def int_or_none(value) -> int | None:
    """``value`` (a query parameter, a posted field) as an int, or None when it is missing or
    not a number: a hand-edited address shows the default page, never an error."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def add_service_error(form: forms.Form, error: ServiceError) -> None:
    """Show a service's refusal on the form: beside its field when the form has that field,
    above the form otherwise. What was typed stays in the form."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, str(error))


def posted_on_to(url_name: str, tournament) -> HttpResponseRedirect:
    """The same POST sent on to ``url_name`` of ``tournament`` (a 307 keeps its method and
    body): work ``tournaments.long_work`` calls long goes to the view that starts its job
    (``scoring.jobs``, a layer above this one), with that view's checks and messages."""
    return HttpResponseRedirect(reverse(url_name, args=[tournament.slug]), status=307)

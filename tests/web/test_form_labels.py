"""The labels and choices of the new forms (championships, stages, invitations, halls, the
prize list, the licensee list) start with a capital, like the rest of the app, in French and
in English."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.championships.conftest import client_for, make_championship, organiser, tournament_of

pytestmark = pytest.mark.django_db


def _texts(html: str) -> list[str]:
    """Each label's and option's own words (the controls inside a label left out)."""
    texts = []
    for tag in ("label", "option"):
        for inner in re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", html, flags=re.S):
            inner = re.sub(r"<(select|textarea)\b.*?</\1>", " ", inner, flags=re.S)
            text = " ".join(re.sub(r"<[^>]+>", " ", inner).split())
            if text:
                texts.append(text)
    return texts


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_new_forms_labels_start_with_a_capital(language):
    by = organiser()
    championship, (first, second) = make_championship(12, cut=8, by=by)
    tournament = tournament_of(first)
    client = client_for(by)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    pages = [
        reverse("championships:staff_list"),
        reverse("championships:staff", args=[championship.slug]),
        reverse("championships:stage_close", args=[first.pk]),
        reverse("tournaments:halls", args=[tournament_of(second).slug]),  # before round 1
        reverse("tournaments:prizes", args=[tournament.slug]),
        reverse("tournaments:licensees"),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        texts = _texts(response.content.decode())
        assert texts, url
        lower = [t for t in texts if t[0].islower()]
        assert not lower, (url, lower)

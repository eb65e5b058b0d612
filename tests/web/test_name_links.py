"""Every name in the standings pages opens that player's page, as elsewhere in the app: the
public standings (and the tournament's home podium), the category standings and the prize
list, the championship page (its qualifiers and its final ranking)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.championships.conftest import make_championship, tournament_of
from tests.prizes.conftest import build_open
from tournaments.championships import services as championship_services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _links(html: str) -> dict[str, str]:
    """Each link's text -> its address."""
    return {
        re.sub(r"<[^>]+>", "", text).strip(): href
        for href, text in re.findall(r'<a href="([^"]+)">(.*?)</a>', html)
    }


def _player_url(registration: Registration) -> str:
    return reverse("public:player", args=[registration.tournament.slug, registration.pk])


def test_names_in_the_standings_home_categories_and_prize_list_are_links():
    tournament = build_open()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    registrations = list(Registration.objects.filter(tournament=tournament))
    standings = _links(client.get(reverse("public:standings", args=[tournament.slug])).text)
    for registration in registrations:
        assert standings[registration.full_name] == _player_url(registration)
    home = _links(client.get(reverse("public:home", args=[tournament.slug])).text)
    linked = [r for r in registrations if r.full_name in home]
    assert len(linked) >= 10
    assert all(home[r.full_name] == _player_url(r) for r in linked)
    page = client.get(reverse("public:categories", args=[tournament.slug])).text
    prizes = page[page.index('id="palmares"') : page.index("</table>", page.index('id="palmares"'))]
    names = re.findall(r'<a href="([^"]+)">([^<]+)</a>', prizes)
    assert len(names) >= 4
    by_name = {r.full_name: r for r in registrations}
    for href, name in names:
        assert href == _player_url(by_name[name])


def test_names_on_the_championship_page_are_links():
    championship, (first, _second) = make_championship(12, cut=8, next_sizes=(4,))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = reverse("championships:public", args=[championship.slug])
    page = _links(client.get(url).text)
    played = Registration.objects.filter(tournament=tournament_of(first))
    qualified = [r for r in played if r.full_name in page]
    assert len(qualified) == 8
    assert all(page[r.full_name] == _player_url(r) for r in qualified)
    championship_services.stage_close(stage=first)
    page = _links(client.get(url).text)
    assert sum(1 for r in played if page.get(r.full_name) == _player_url(r)) == 8

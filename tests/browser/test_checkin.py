"""Issue 27, check-in on a phone (390 × 844): the list in the seating plan's French order
(« d'Aubigné » under D, whatever the case and accents), a search box that ignores accents, and
« tous présents » asked to confirm, then undone."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Registration

from .helpers import fr, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Garde-contre-2026"
# Registered in this order; the list reads them as the seating plan does.
PLAYERS = [
    ("Vincent", "Paul"),
    ("d'Aubigné", "Agrippa"),
    ("zola", "Émile"),
    ("Dupont", "Marc"),
    ("Éluard", "Nusch"),
    ("Dandrieu", "Jean"),
    ("Eber", "Luc"),
]
IN_ORDER = [
    "Jean Dandrieu",
    "Agrippa d'Aubigné",
    "Marc Dupont",
    "Luc Eber",
    "Nusch Éluard",
    "Paul Vincent",
    "Émile zola",
]


@pytest.fixture
def tournament():
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=organiser, name="Tournoi d'hiver", date=date(2026, 12, 5), rounds=2
    )
    for last, first in PLAYERS:
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=last, first_name=first, club="", licence=""),
            present=False,
        )
    return tournament


def names_shown(page) -> list[str]:
    rows = page.locator("table.players tbody tr[data-search]:visible td:first-child")
    return [text.strip() for text in rows.all_inner_texts()]


def test_check_in_on_a_phone_in_order_with_search_and_everyone_present(tournament, phone_at, shot):
    page = phone_at(390, 844).new_page()
    login(page, "orga", PASSWORD)
    page.goto(f"/t/{tournament.slug}/gestion/joueurs/")
    assert names_shown(page) == IN_ORDER

    # Luc Eber is not coming: marked absent by hand before the rest arrive.
    eber = Registration.objects.get(tournament=tournament, last_name="Eber")
    page.locator(f"#reg-{eber.pk}").get_by_role("button", name=fr("Absent")).click()
    expect(page.locator(f"#reg-{eber.pk}")).to_contain_text(fr("Absent"))

    search = page.get_by_role("searchbox")
    search.fill("ELUARD")
    assert names_shown(page) == ["Nusch Éluard"]
    search.fill("daubi")
    assert names_shown(page) == ["Agrippa d'Aubigné"]
    search.fill("emile zol")
    assert names_shown(page) == ["Émile zola"]
    shot(page, "search")
    search.fill("personne")
    assert names_shown(page) == []
    expect(page.get_by_text(fr("No player matches."))).to_be_visible()
    search.fill("")
    assert names_shown(page) == IN_ORDER

    # « Tous présents » asks first, and touches no one until confirmed.
    with page.expect_navigation():
        page.locator("form[action$='tous-presents/'] button").click()
    shot(page, "confirm")
    statuses = dict(Registration.objects.values_list("last_name", "status"))
    assert list(statuses.values()).count(Registration.Status.REGISTERED) == 6
    with page.expect_navigation():
        page.get_by_role("button", name=fr("Yes, everyone present")).click()
    shot(page, "all-present")
    statuses = dict(Registration.objects.values_list("last_name", "status"))
    assert statuses.pop("Eber") == Registration.Status.ABSENT
    assert set(statuses.values()) == {Registration.Status.PRESENT}
    assert names_shown(page) == IN_ORDER
    expect(page.locator("form[action$='tous-presents/']")).to_have_count(0)

    # Undone: the six are registered again, Luc Eber still absent.
    with page.expect_navigation():
        page.get_by_role("button", name=fr("Undo “everyone present”")).click()
    statuses = dict(Registration.objects.values_list("last_name", "status"))
    assert statuses.pop("Eber") == Registration.Status.ABSENT
    assert set(statuses.values()) == {Registration.Status.REGISTERED}
    expect(page.get_by_role("button", name=fr("Undo “everyone present”"))).to_have_count(0)

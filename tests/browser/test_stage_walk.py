"""What the user walk of the championship found, as an organiser uses it on a phone (360 × 740)
and a player on theirs (390 × 844): a stage's tournaments are ticked in a list under their
legend, one box a line; the close preview's « Déclare forfait » can be seen and tapped and its table
stays inside the screen; « Déconnexion » sits on the bar's line and logs out; closing the
stage makes its standings final (and its TV, on a 1920 × 1080 screen) and the stage can be
reopened; a name in the standings opens the player's page."""

from __future__ import annotations

from datetime import date

import pytest

from tests.championships.conftest import make_championship, organiser, tournament_of
from tournaments import services
from tournaments.championships.models import Withdrawal

from .helpers import login
from .test_public_pages import assert_no_sideways_scroll

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_runs_a_stage_on_a_phone(phone_at, shot):
    by = organiser()
    championship, (first, second) = make_championship(12, cut=8, by=by)
    for day in (10, 11):  # tournaments not yet in a stage, to tick in the form
        services.tournament_create(
            created_by=by, name=f"Demi-finale du {day} mai", date=date(2026, 5, day), rounds=1
        )
    page = phone_at(width=360, height=740).new_page()
    login(page, by.username, "pw-" + by.username)

    # The stage form: the list of tournaments under its legend, a box beside each name.
    page.goto(f"/gestion/championnat/{championship.slug}/")
    legend = page.locator("fieldset.checks legend")
    expect(legend).to_have_text("Son tournoi, ou les tournois de ses groupes (joués en parallèle)")
    boxes = page.locator("fieldset.checks input[type=checkbox]")
    assert boxes.count() == 2
    first_box = boxes.first.bounding_box()
    assert legend.bounding_box()["y"] + legend.bounding_box()["height"] <= first_box["y"]
    label = page.locator("fieldset.checks label").first
    assert label.bounding_box()["height"] >= 44  # a finger's height
    label.tap()
    expect(boxes.first).to_be_checked()
    assert_no_sideways_scroll(page, "the stage form")
    shot(page, "stage-form")

    # The close preview: « Déclare forfait » is visible (it was white on white) and tappable.
    page.goto(f"/gestion/championnat/etape/{first.pk}/cloture/")
    withdraw = page.get_by_role("button", name="Déclare forfait").first
    expect(withdraw).to_be_visible()
    color = withdraw.evaluate("(b) => getComputedStyle(b).color")
    assert color not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), color
    assert_no_sideways_scroll(page, "the close preview")
    shot(page, "close-preview")
    with page.expect_navigation():
        withdraw.tap()
    assert Withdrawal.objects.filter(stage=first).count() == 1
    page.goto(f"/gestion/championnat/etape/{first.pk}/cloture/")
    page.get_by_role("button", name="Clôturer l’étape et placer la suivante").tap()
    expect(page.get_by_text("L’étape est clôturée.")).to_be_visible()

    # Its standings now read final; the stage reopens from its page.
    page.goto(f"/t/{tournament_of(first).slug}/classement/")
    expect(page.get_by_text("Classement final")).to_be_visible()
    page.goto(f"/gestion/championnat/etape/{first.pk}/cloture/")
    page.get_by_role("button", name="Rouvrir l’étape").tap()
    expect(page.get_by_text("L’étape est de nouveau ouverte.")).to_be_visible()
    first.refresh_from_db()
    assert first.closed_at is None
    assert not tournament_of(second).registrations.exists()

    # « Déconnexion » sits on the line of the bar's links, as tall as they are, and logs out.
    bar_link = page.locator(".topbar nav a").first.bounding_box()
    logout = page.locator(".topbar button.link")
    box = logout.bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (bar_link["y"] + bar_link["height"] / 2)) <= 2
    assert box["height"] >= 44
    shot(page, "bar")
    with page.expect_navigation():
        logout.tap()
    page.goto(f"/gestion/championnat/{championship.slug}/")
    assert "/connexion/" in page.url


def test_a_name_in_the_standings_opens_the_players_page_on_a_phone(phone_at):
    _championship, (first, _second) = make_championship(12, cut=8)
    tournament = tournament_of(first)
    registration = tournament.registrations.order_by("pk").first()
    page = phone_at(width=390, height=844).new_page()
    page.goto(f"/t/{tournament.slug}/classement/")
    page.locator("table.standings").get_by_role("link", name=registration.full_name).tap()
    expect(page).to_have_url(f"/t/{tournament.slug}/joueur/{registration.pk}/")
    expect(page.get_by_role("heading", name=registration.full_name)).to_be_visible()


def test_a_closed_stages_tv_reads_final_on_a_1920x1080_screen(page, shot):
    """The room's TV of a stage: « Classement provisoire » while it is played, « Classement
    final » once the organiser closed it (its tournament is finished)."""
    from tournaments.championships import services as championship_services

    from .test_tv_screen import open_tv

    _championship, (first, _second) = make_championship(12, cut=8)
    slug = tournament_of(first).slug
    open_tv(page, slug, "1080p")
    status = page.locator(".tv-status")
    expect(status).to_contain_text("Classement provisoire")
    championship_services.stage_close(stage=first)
    open_tv(page, slug, "1080p")
    expect(status).to_contain_text("Classement final")
    expect(status).not_to_contain_text("provisoire")
    shot(page, "closed-stage-tv")

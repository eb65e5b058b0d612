"""The dashboard's « Préparer » buttons on the organiser's phone: the results report's label
starts its own line, not at the end of the score sheets' line where it read as theirs."""

from __future__ import annotations

from datetime import date

import pytest

from tests.tournaments.conftest import make_user
from tournaments import services

from .helpers import horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_group_of_job_buttons_starts_its_own_line(phone_at):
    user = make_user("orga-boutons", organiser=True)
    tournament = services.tournament_create(
        created_by=user, name="Open de Pontarlier", date=date(2026, 11, 30), seed=3
    )
    for i in range(8):  # a seated round: the score sheets' buttons are there
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:02d}", first_name="Ève"),
            present=True,
        )
    services.round_seat_next(tournament=tournament)
    phone = phone_at(390, 844).new_page()
    login(phone, "orga-boutons", "pw-orga-boutons")
    phone.goto(f"/t/{tournament.slug}/gestion/")
    sheets, report = phone.locator("form.jobs-start").all()
    expect(report.get_by_role("button", name="CSV")).to_be_visible()
    workbook = sheets.locator("button").last.bounding_box()
    report_box = report.bounding_box()
    sheets_box = sheets.bounding_box()
    # The report's label sits under the sheets' last button, at the left edge with them.
    assert report_box["y"] >= workbook["y"] + workbook["height"] - 1
    assert abs(report_box["x"] - sheets_box["x"]) <= 1
    assert horizontal_overflow(phone) == 0

"""« Préparer le PDF » on the organiser's phone: the job's page shows a real progress bar
(« 1 feuille sur 3 », from the job, asked every 2 s with htmx) while a worker makes the
document, then the link to it; nothing is wider than the phone."""

from __future__ import annotations

import re
import threading
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.jobs.worker import run_worker
from tournaments import services
from tournaments.models import StaffMember

from .helpers import horizontal_overflow, login

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Garde-contre-2026"


def test_the_round_pdf_progresses_on_the_phone_then_opens(phone_at, settings, tmp_path):
    settings.JOBS_DIR = str(tmp_path / "jobs")
    # A sheet at a time, slower than the page asks (every 2 s): the bar shows a step between.
    settings.JOBS_TEST_STEP_SECONDS = 2.5
    user = get_user_model().objects.create_user("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=None, name="Open de Pontarlier", date=date(2026, 11, 30), seed=3
    )
    for i in range(12):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:02d}", first_name="Ève"),
            present=True,
        )
    services.round_seat_next(tournament=tournament)
    StaffMember.objects.create(tournament=tournament, user=user, role="referee")

    phone = phone_at(390, 844).new_page()
    login(phone, "arbitre", PASSWORD)
    phone.goto(f"/t/{tournament.slug}/gestion/position/1/")
    phone.get_by_role("button", name="Préparer le PDF", exact=True).click()
    expect(phone.locator("#job")).to_contain_text("En attente", timeout=15_000)
    assert horizontal_overflow(phone) == 0

    def work():
        try:
            run_worker()
        finally:
            connection.close()  # this thread's own connection (PostgreSQL would warn of it later)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        progress = phone.locator("#job [data-progress]")
        expect(progress).to_contain_text("sur 3", timeout=30_000)
        expect(phone.locator("#job progress")).to_have_attribute("max", "3")
        # The bar moves without a reload: one or two sheets done, not all of them yet.
        expect(progress).to_have_text(re.compile(r"\b[12] feuilles? sur 3"), timeout=60_000)
        assert horizontal_overflow(phone) == 0
        link = phone.locator("#job a[data-file]")
        expect(link).to_be_visible(timeout=60_000)
        expect(progress).to_contain_text("3 feuilles sur 3")
    finally:
        worker.join(timeout=120)
    response = phone.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    assert horizontal_overflow(phone) == 0

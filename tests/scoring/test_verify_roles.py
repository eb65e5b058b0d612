"""The verification page (/verifier/<code>/) is for anyone holding a printed sheet: it tells
what changed since the players signed and who did it by their role on the tournament
(referee, organiser), never by the name they log in with."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.demo import create_demo
from scoring.models import ScoreSheet, SheetSeal
from scoring.services import Actor, deal_delete_last, penalty_add
from tournaments import services
from tournaments.models import StaffMember

pytestmark = pytest.mark.django_db


def test_the_verification_page_names_staff_by_role_not_by_login(db):
    User = get_user_model()
    organiser = User.objects.create_user("orga-Mireille", password="pw-orga-M-2026")
    referee = User.objects.create_user("arbitre-Gaston", password="pw-arb-G-2026")
    tournament = create_demo(
        players=4, rounds=1, deals=2, seed=21, play_rounds=1, created_by=organiser
    ).tournament
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    outsider = User.objects.create_superuser("admin-Paulette", password="pw-admin-P-2026")
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament)
    seal = SheetSeal.objects.get(sheet=sheet)
    services.round_reopen(round_=tournament.round_set.get())
    penalty_add(
        sheet=sheet,
        registration=sheet.table.seats.first().registration,
        amount=-10,
        reason="Retard",
        actor=Actor.staff(organiser),
    )
    deal_delete_last(
        sheet=ScoreSheet.objects.get(pk=sheet.pk), actor=Actor.staff(referee), reason="Doublon"
    )
    penalty_add(
        sheet=ScoreSheet.objects.get(pk=sheet.pk),
        registration=sheet.table.seats.last().registration,
        amount=-5,
        reason="Bruit",
        actor=Actor.staff(outsider),
    )

    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("verify_code", args=[seal.code]))

    text = page.content.decode()
    assert page.context["later"], "the changes after the signatures are listed"
    for login in ("orga-Mireille", "arbitre-Gaston", "admin-Paulette"):
        assert login not in text
    sentences = [line.sentence for line in page.context["later"]]
    assert any("by the organiser" in s and "Retard" in s for s in sentences), sentences
    assert any("removed by the referee" in s and "Doublon" in s for s in sentences), sentences
    assert any("by a staff member" in s and "Bruit" in s for s in sentences), sentences
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(reverse("verify_code", args=[seal.code]))
    assert "l’arbitre" in french.content.decode() or "l'arbitre" in french.content.decode()
    # The staff's own history page still says who, by account.
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(referee)
    history = staff.get(reverse("sheet_history", args=[tournament.slug, sheet.table_id]))
    assert "arbitre-Gaston" in history.content.decode()

"""Signing again after a correction: the table link lists every change since the signatures it
voided (and only those), and the referee's page keeps each earlier set of signatures."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.services import deal_record, penalty_add

from .conftest import TABLE, legal, staff
from .test_signing import complete, players, sign, sign_all

pytestmark = pytest.mark.django_db


def _visible(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _changes(client, sheet) -> list[str]:
    html = client.get(reverse("table_sheet", args=[sheet.token])).content.decode()
    box = re.search(r'<div class="notice" id="resign-changes".*?</div>', html, re.S)
    return [] if box is None else re.findall(r"<li>(.*?)</li>", box.group(0), re.S)


def test_every_change_since_the_signatures_and_only_those(seated, client, referee):
    _, _, sheet = seated
    complete(sheet)
    # A correction before anyone signs is not listed later: the players signed after it.
    deal_record(
        sheet=sheet, number=2, kind="played", deal=legal(taker=2, points=50), actor=TABLE, version=1
    )
    sign_all(sheet)
    assert _changes(client, sheet) == []
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(taker=1, points=55),
        actor=staff(referee),
        version=1,
        reason="mauvais bouts",
    )
    registration = players(sheet)[0]
    penalty_add(
        sheet=sheet, registration=registration, amount=-20, reason="retard", actor=staff(referee)
    )
    sign(sheet, registration)  # one player signs again: the others still read both
    changes = [_visible(c) for c in _changes(client, sheet)]
    assert len(changes) == 2, changes
    assert changes[0].startswith("Donne 1 corrigée par l’arbitre")
    assert "49 → 55 points" in changes[0] and "(motif : mauvais bouts)" in changes[0]
    assert "retard" in changes[1]
    assert all("Donne 2" not in c for c in changes)

    client.force_login(referee)
    tournament = sheet.table.round.tournament
    page = _visible(
        client.get(reverse("sheet", args=[tournament.slug, sheet.table.pk])).content.decode()
    )
    assert "Signatures précédentes" in page
    assert page.count("Version 1 de la feuille") == 1
    for player in players(sheet):
        assert player.full_name in page.split("Signatures précédentes")[1]

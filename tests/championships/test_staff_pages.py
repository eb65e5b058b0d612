"""The organiser sets a championship up in the browser's forms: a championship, its stages
from their tournaments; at the cut, a withdrawal and an invitation. A refused form says why
and keeps what was typed."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.championships.models import Championship, Invitation, Stage, Withdrawal
from tournaments.models import Player

from .conftest import client_for, make_championship, organiser, tournament_of

pytestmark = pytest.mark.django_db


def test_the_organiser_creates_a_championship_and_its_stages():
    by = organiser()
    client = client_for(by)
    refused = client.post(reverse("championships:staff_list"), {"name": ""})
    assert refused.status_code == 422
    created = client.post(reverse("championships:staff_list"), {"name": "Championnat du Doubs"})
    championship = Championship.objects.get(name="Championnat du Doubs")
    assert created["Location"] == reverse("championships:staff", args=[championship.slug])
    halls = [
        services.tournament_create(created_by=by, name=f"Salle {n}", date=date(2026, 4, 4))
        for n in ("Pourny", "Capucins")
    ]
    url = reverse("championships:staff", args=[championship.slug])
    data = {
        "name": "Qualification",
        "cut_mode": "percent",
        "cut_value": "150",
        "scope": "group",
        "carry": "third",
        "seating": "snake",
        "tournaments": [t.pk for t in halls],
    }
    refused = client.post(url, data)
    assert refused.status_code == 422
    assert "A percentage goes from 0 to 100." in refused.content.decode()
    assert 'value="Qualification"' in refused.content.decode()  # what was typed is kept
    assert not Stage.objects.exists()
    client.post(url, {**data, "cut_value": "50"})
    stage = Stage.objects.get()
    assert (stage.cut_mode, stage.cut_value, stage.scope, stage.carry) == (
        "percent",
        50,
        "group",
        "third",
    )
    assert sorted(stage.groups.values_list("name", flat=True)) == ["Salle Capucins", "Salle Pourny"]
    page = client.get(url).content.decode()
    assert "Qualification" in page and "Salle Pourny" in page
    # A tournament in a stage is no longer offered for another one.
    assert f'value="{halls[0].pk}"' not in page
    # Another organiser does not see this championship.
    assert client_for(organiser()).get(url).status_code == 404


def test_a_withdrawal_and_an_invitation_at_the_cut():
    by = organiser()
    _championship, (first, _second) = make_championship(12, cut=8, by=by)
    client = client_for(by)
    close = reverse("championships:stage_close", args=[first.pk])
    preview = client.get(close)
    leader = preview.context["preview"][0]
    client.post(
        reverse("championships:stage_withdraw", args=[first.pk]),
        {"registration": leader["registration"]},
    )
    assert Withdrawal.objects.filter(registration_id=leader["registration"]).exists()
    page = client.get(close).content.decode()
    assert "Withdrawn, replaced by the next in the standings" in page
    client.post(
        reverse("championships:stage_withdraw", args=[first.pk]),
        {"registration": leader["registration"], "undo": "1"},
    )
    assert not Withdrawal.objects.exists()
    refused = client.post(
        reverse("championships:stage_invite", args=[first.pk]),
        {"licence": "0999999", "kind": "seeded"},
    )
    assert refused.status_code == 422
    text = refused.content.decode()
    assert "No player has this licence." in text and 'value="0999999"' in text
    Player.objects.create(first_name="Tête", last_name="De Série", licence="0999999")
    client.post(
        reverse("championships:stage_invite", args=[first.pk]),
        {"licence": "0999999", "kind": "seeded"},
    )
    invitation = Invitation.objects.get()
    assert invitation.kind == "seeded"
    preview = client.get(close)
    assert preview.context["preview"][0]["name"] == "Tête De Série"
    assert len(preview.context["preview"]) == 9
    assert tournament_of(first).pk  # the stage is unchanged until it is closed

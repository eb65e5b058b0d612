"""A closed stage reads final everywhere (closing finishes its tournaments), and the last
closed stage can be reopened while the next stage has not started: what closing made there is
removed, all or nothing, its history kept; refused with a clear message otherwise."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.urls import reverse

from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.engine.table import active_positions
from scoring.models import ScoreSheet
from scoring.services import Actor, deal_record
from tarot_club.errors import ServiceError
from tournaments.championships import services as championship_services
from tournaments.championships.models import CarriedPoints
from tournaments.models import Registration, Round

from .conftest import client_for, make_championship, organiser, tournament_of

pytestmark = pytest.mark.django_db


def _labels(client, tournament) -> tuple[str, str, str]:
    standings = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    tv = client.get(reverse("public:tv", args=[tournament.slug])).content.decode()
    exported = client.get(reverse("public:standings_export", args=[tournament.slug, "csv"]))
    flat = "\n".join(",".join(r) for r in csv.reader(io.StringIO(exported.content.decode())))
    return standings, tv, flat


def test_a_closed_stage_reads_final_on_its_standings_tv_and_exports():
    by = organiser()
    _championship, (first, _second) = make_championship(12, cut=8, by=by)
    tournament = tournament_of(first)
    client = client_for()
    standings, _tv, _flat = _labels(client, tournament)
    assert "Provisional standings" in standings
    url = reverse("championships:stage_close", args=[first.pk])
    done = client_for(by).post(url, {"shown": client_for(by).get(url).context["shown"]})
    assert done.status_code == 302
    standings, tv, flat = _labels(client, tournament)
    for text in (standings, tv):
        assert "Final standings" in text
        assert "Provisional standings" not in text
    assert "Provisional" not in flat
    tournament.refresh_from_db()
    assert tournament.finished
    assert tournament.finish_log[-1]["by"] == by.get_username()


def test_the_last_closed_stage_reopens_while_the_next_has_not_started():
    by = organiser()
    _championship, (first, second) = make_championship(12, cut=8, by=by)
    championship_services.stage_close(stage=first)
    nxt = tournament_of(second)
    assert Registration.objects.filter(tournament=nxt).count() == 8
    client = client_for(by)
    page = client.get(reverse("championships:stage_close", args=[first.pk])).content.decode()
    assert "Reopen the stage" in page
    done = client.post(reverse("championships:stage_reopen", args=[first.pk]))
    assert done.status_code == 302
    first.refresh_from_db()
    assert first.closed_at is None
    assert not Registration.objects.filter(tournament=nxt).exists()
    assert not CarriedPoints.objects.exists()
    assert not Round.objects.filter(tournament=nxt).exists()
    # The history is kept: each removed registration and carried point left its record.
    assert Registration.history.filter(tournament_id=nxt.pk, history_type="-").count() == 8
    assert CarriedPoints.history.filter(history_type="-").count() == 8
    tournament = tournament_of(first)
    tournament.refresh_from_db()
    assert not tournament.finished
    standings = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert "Provisional standings" in standings
    # It closes again, as the first time.
    championship_services.stage_close(stage=first)
    assert Registration.objects.filter(tournament=nxt).count() == 8


def _one_deal(tournament) -> None:
    sheet = ScoreSheet.objects.filter(table__round__tournament=tournament).first()
    size = sheet.table.seats.count()
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=random_legal_deal(
            random.Random(1), len(active_positions(size, 0)), get_rule_set(tournament.rule_set)
        ),
        actor=Actor.table(page="test"),
    )


def test_reopening_is_refused_once_the_next_stage_has_a_deal():
    by = organiser()
    _championship, (first, second) = make_championship(12, cut=8, by=by)
    championship_services.stage_close(stage=first)
    nxt = tournament_of(second)
    _one_deal(nxt)
    refused = client_for(by).post(reverse("championships:stage_reopen", args=[first.pk]))
    assert refused.status_code == 422
    assert "The next stage has started" in refused.content.decode()
    first.refresh_from_db()
    assert first.closed_at is not None
    assert Registration.objects.filter(tournament=nxt).count() == 8
    page = client_for(by).get(reverse("championships:stage_close", args=[first.pk]))
    assert "The next stage has started" in page.content.decode()


def test_only_the_last_closed_stage_reopens():
    _championship, (first, second, _third) = make_championship(12, cut=8, next_sizes=(8, 4))
    first = championship_services.stage_close(stage=first)
    second.closed_at = first.closed_at  # as if the second stage were closed too
    second.save(update_fields=["closed_at"])
    with pytest.raises(ServiceError, match="The next stage is closed: reopen it first"):
        championship_services.stage_reopen(stage=first)
    with pytest.raises(ServiceError, match="This stage is not closed"):
        championship_services.stage_reopen(stage=_third)


def test_a_closed_stages_tournament_reopens_with_its_stage_never_alone():
    """Reopened alone, it would be provisional again while its stage stays closed and its
    qualifiers play on in the next stage: the organiser is sent to the stage's reopening."""
    by = organiser()
    _championship, (first, _second) = make_championship(12, cut=8, by=by)
    championship_services.stage_close(stage=first)
    tournament = tournament_of(first)
    url = reverse("tournaments:reopen", args=[tournament.slug])
    refused = client_for(by).post(url, {"reason": "Donne 3 mal saisie"})
    assert refused.status_code == 422
    assert (
        f"This tournament is the closed stage “{first.name}” of a championship: reopen the "
        "stage, not the tournament alone"
    ) in refused.content.decode()
    french = client_for(by).post(url, {"reason": "Donne 3"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "rouvrez l’étape, et non le tournoi seul" in french.content.decode()
    tournament.refresh_from_db()
    assert tournament.finished and len(tournament.finish_log) == 1
    # The stage reopens, its tournament with it (the reason names the stage).
    championship_services.stage_reopen(stage=first, by=by.get_username())
    tournament.refresh_from_db()
    assert not tournament.finished
    assert first.name in tournament.finish_log[-1]["reason"]

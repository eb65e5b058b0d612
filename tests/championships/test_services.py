"""Closing a stage: the preview is what closing does, all or nothing; carried points enter the
next stage's standings; round 1 by previous rank in a snake; withdrawals and invitations."""

from __future__ import annotations

import pytest

from scoring.standings import standings_data
from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.championships import rules, selectors
from tournaments.championships import services as championship_services
from tournaments.championships.models import CarriedPoints, Invitation, Stage
from tournaments.models import Player, Registration, Seat

from .conftest import make_championship, tournament_of

pytestmark = pytest.mark.django_db


def test_closing_registers_the_previewed_qualifiers_with_their_carried_points():
    _championship, (first, second) = make_championship(12, cut=8)
    preview = selectors.stage_state(first)
    assert preview.complete
    assert len(preview.cut.qualified) == 8
    championship_services.stage_close(stage=first, expected=preview.cut.qualified)
    first.refresh_from_db()
    assert first.closed_at is not None
    nxt = tournament_of(second)
    registrations = list(Registration.objects.filter(tournament=nxt))
    assert sorted(r.player_id for r in registrations) == sorted(preview.cut.qualified)
    assert {r.status for r in registrations} == {Registration.Status.PRESENT}
    rows = {row.player_id: row for row in preview.rows}
    carried = {
        c.registration.player_id: c
        for c in CarriedPoints.objects.select_related("registration", "source")
    }
    for player_id in preview.cut.qualified:
        assert carried[player_id].points == rules.carried_points(rows[player_id].total, "half")
        assert carried[player_id].previous_rank == rows[player_id].rank
        assert carried[player_id].source.tournament_id == tournament_of(first).pk
    # The next stage's standings start from the carried points, before any deal.
    data = standings_data(nxt)
    totals = {e.id: e.total for e in data.entries}
    by_registration = {r.pk: carried[r.player_id].points for r in registrations}
    assert totals == by_registration
    # A history of the carried points is kept.
    assert CarriedPoints.history.count() == 8


def test_round_one_of_the_next_stage_is_seated_by_previous_rank_in_a_snake():
    _championship, (first, second) = make_championship(12, cut=8)
    qualified = selectors.stage_state(first).cut.qualified
    championship_services.stage_close(stage=first)
    nxt = tournament_of(second)
    round_ = nxt.round_set.get()
    tables = {}
    for table, player_id in Seat.objects.filter(round=round_).values_list(
        "table__number", "registration__player_id"
    ):
        tables.setdefault(table, set()).add(player_id)
    order = list(qualified)
    expected = rules.snake(order, [4, 4])
    assert sorted(tables.values(), key=min) == sorted((set(t) for t in expected), key=min)
    assert tables[1] == set(expected[0])  # the leader's table, with the 4th, 5th and 8th


def test_random_seating_seats_everyone_once():
    _championship, (first, second) = make_championship(12, cut=8, seating=Stage.Seating.RANDOM)
    championship_services.stage_close(stage=first)
    round_ = tournament_of(second).round_set.get()
    assert Seat.objects.filter(round=round_).count() == 8


def test_closing_is_all_or_nothing():
    # Three qualifiers cannot be seated at tables of 4 or 5: the seating refuses at the end.
    _championship, (first, second) = make_championship(12, cut=2)
    with pytest.raises(ServiceError):
        championship_services.stage_close(stage=first)
    first.refresh_from_db()
    assert first.closed_at is None
    assert not Registration.objects.filter(tournament=tournament_of(second)).exists()
    assert not CarriedPoints.objects.exists()
    assert not tournament_of(second).round_set.exists()


def test_closing_refuses_an_unfinished_stage_and_a_stale_preview():
    _championship, (first, _second) = make_championship(12, cut=8, rounds=2, play_rounds=1)
    with pytest.raises(ServiceError, match="Close every round"):
        championship_services.stage_close(stage=first)
    _championship, (first, _second) = make_championship(12, cut=8, by=None, seed=6)
    with pytest.raises(ServiceError, match="standings changed"):
        championship_services.stage_close(stage=first, expected=(1, 2, 3))
    championship_services.stage_close(stage=first)
    with pytest.raises(ServiceError, match="already closed"):
        championship_services.stage_close(stage=first)


def test_a_withdrawal_is_replaced_and_an_invitation_added():
    _championship, (first, second) = make_championship(12, cut=8)
    state = selectors.stage_state(first)
    leader = state.rows[0]
    ninth = state.rows[8]
    registration = Registration.objects.get(pk=leader.registration_id)
    championship_services.withdrawal_add(stage=first, registration=registration)
    guest = Player.objects.create(first_name="Invitée", last_name="Wildcard")
    championship_services.invitation_add(stage=first, player=guest, kind=Invitation.Kind.WILDCARD)
    state = selectors.stage_state(first)
    assert leader.player_id not in state.cut.qualified
    assert state.cut.replaced == (leader.player_id,)
    if ninth.total != state.rows[7].total:
        assert ninth.player_id in state.cut.qualified
    assert state.cut.qualified[-1] == guest.pk
    championship_services.stage_close(stage=first)
    invited = Registration.objects.get(tournament=tournament_of(second), player=guest)
    assert invited.full_name == "Invitée Wildcard"
    assert invited.carried_points.points == 0
    assert Registration.objects.filter(tournament=tournament_of(second)).count() == 9


def test_a_withdrawal_names_a_player_of_the_stage():
    _championship, (first, _second) = make_championship(12, cut=8)
    other = services.tournament_create(
        created_by=None, name="Ailleurs", date=tournament_of(first).date
    )
    outsider = services.player_register(
        tournament=other, row=services.PlayerRow(last_name="Dehors"), present=True
    )
    with pytest.raises(ServiceError, match="did not play"):
        championship_services.withdrawal_add(stage=first, registration=outsider)


def test_a_tournament_belongs_to_one_stage():
    championship, (first, _second) = make_championship(12, cut=8)
    with pytest.raises(ServiceError, match="one stage only"):
        championship_services.stage_add(
            championship=championship, name="Encore", tournaments=[(tournament_of(first), "")]
        )


def test_the_final_ranking_is_the_final_then_the_eliminated_by_stage_rank():
    import random

    from scoring.demo import play_round
    from tournaments.championships.services import stage_close

    championship, (first, second) = make_championship(12, cut=8, next_sizes=(8,))
    stage_close(stage=first)
    nxt = tournament_of(second)
    round_ = nxt.round_set.get()
    play_round(round_, random.Random(1))
    services.round_close(round_=round_)
    view = selectors.championship_view(championship)
    second_rows = view.states[1].rows
    first_rows = view.states[0].rows
    assert [place.id for place, _name in view.final[:8]] == [r.player_id for r in second_rows]
    eliminated = [
        r.player_id for r in first_rows if r.player_id not in view.states[0].cut.qualified
    ]
    assert [place.id for place, _name in view.final[8:]] == eliminated
    assert len(view.final) == 12

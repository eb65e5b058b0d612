"""Seating rounds through the services: who sits where, what is refused and why."""

from __future__ import annotations

import contextlib
import itertools

import pytest

from scoring.models import Deal, Penalty, ScoreSheet
from scoring.services import Actor, deal_record, penalty_add, sheet_sign_with_pin
from tarot_club.errors import ServiceError
from tournaments import selectors, services
from tournaments.models import Registration, Round, Seat, Table

from .conftest import (
    add_players,
    add_teams,
    close,
    enter_first_deal,
    legal_deal,
    make_tournament,
    make_user,
    names_of,
    tables_of,
)

pytestmark = pytest.mark.django_db


def nothing_seated(tournament):
    return (
        not Round.objects.filter(tournament=tournament).exists()
        and not Table.objects.filter(round__tournament=tournament).exists()
        and not Seat.objects.filter(round__tournament=tournament).exists()
        and not ScoreSheet.objects.filter(table__round__tournament=tournament).exists()
    )


def pairs(tables):
    return {frozenset(p) for table in tables for p in itertools.combinations(table, 2)}


# --- refusals, before anything is written ------------------------------------------------------


def test_fewer_than_three_present_players_is_refused_with_the_reason():
    tournament = make_tournament(2, rounds=1)
    add_players(tournament, 5, present=False, prefix="Pas-la")
    with pytest.raises(ServiceError) as error:
        services.round_seat_next(tournament=tournament)
    assert str(error.value) == (
        "At least 3 present players are needed to seat a round; there are 2."
    )
    assert nothing_seated(tournament)


def test_teams_that_cannot_be_kept_apart_are_refused_before_anything_is_created():
    """Three teams of 4 give three tables of 4: two team-mates would have to share one."""
    tournament = make_tournament(0, format="teams_4", rounds=1)
    add_teams(tournament, 3)
    with pytest.raises(ServiceError) as error:
        services.round_seat_next(tournament=tournament)
    message = str(error.value)
    assert "Equipe 0" in message and "4 players present" in message and "3 tables" in message
    assert nothing_seated(tournament)


def test_teams_of_2_that_cannot_be_kept_apart_are_refused():
    """Two teams of 2 and nobody else: one table of 4, team-mates would meet."""
    tournament = make_tournament(0, format="teams_2", rounds=1)
    add_teams(tournament, 2)
    with pytest.raises(ServiceError, match="share a table"):
        services.round_seat_next(tournament=tournament)
    assert nothing_seated(tournament)


def test_no_round_beyond_the_tournaments_number_of_rounds():
    tournament = make_tournament(16, rounds=1)
    close(services.round_seat_next(tournament=tournament))
    with pytest.raises(ServiceError, match="The tournament's only round is seated"):
        services.round_seat_next(tournament=tournament)
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_next_round_waits_for_the_previous_one_to_close():
    tournament = make_tournament(16, rounds=3)
    services.round_seat_next(tournament=tournament)
    with pytest.raises(ServiceError, match="Close round 1 before seating the next one"):
        services.round_seat_next(tournament=tournament)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]


def test_closing_with_unsigned_sheets_needs_a_reason():
    tournament = make_tournament(16, rounds=2)
    round_ = services.round_seat_next(tournament=tournament)
    with pytest.raises(ServiceError, match="Tables 1, 2, 3, 4 have not signed"):
        services.round_close(round_=round_)
    round_.refresh_from_db()
    assert round_.status == "seated"
    close(round_)
    round_.refresh_from_db()
    assert (round_.status, round_.close_reason) == ("closed", "Feuilles papier (test)")
    assert round_.closed_at is not None


# --- table sizes and seats ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("present", "sizes"),
    [
        (3, [3]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [5, 5]),
        (11, [4, 4, 3]),
        (16, [4, 4, 4, 4]),
        (17, [5, 4, 4, 4]),
    ],
)
def test_table_sizes_and_every_present_player_seated_once(present, sizes):
    tournament = make_tournament(present, rounds=1)
    absent = add_players(tournament, 2, present=False, prefix="Absent")
    withdrawn = add_players(tournament, 1, prefix="Parti")[0]
    services.registration_set_status(registration=absent[1], status="absent")
    services.registration_set_status(registration=withdrawn, status="withdrawn")

    round_ = services.round_seat_next(tournament=tournament)
    tables = tables_of(round_)
    assert [len(t) for t in tables] == sizes
    assert list(round_.tables.values_list("number", flat=True)) == list(range(1, len(sizes) + 1))
    for table in round_.tables.all():
        assert sorted(table.seats.values_list("position", flat=True)) == list(
            range(table.seats.count())
        )
        assert ScoreSheet.objects.filter(table=table, status="not_started").exists()
    seated = [r for t in tables for r in t]
    present_ids = set(
        Registration.objects.filter(tournament=tournament, status="present").values_list(
            "pk", flat=True
        )
    )
    assert len(seated) == len(set(seated)) == present
    assert set(seated) == present_ids
    assert not {absent[0].pk, absent[1].pk, withdrawn.pk} & set(seated)


def test_round_one_is_reproducible_from_its_seed():
    first = make_tournament(16, rounds=1, seed=1)
    second = make_tournament(16, rounds=1, seed=2)
    a = services.round_seat_next(tournament=first, seed=2024)
    b = services.round_seat_next(tournament=second, seed=2024)
    assert a.seed == b.seed == 2024
    assert names_of(a) == names_of(b)


def test_round_one_uses_the_tournament_seed_by_default():
    first = make_tournament(16, rounds=1, seed=777)
    second = make_tournament(16, rounds=1, seed=1)
    a = services.round_seat_next(tournament=first)
    b = services.round_seat_next(tournament=second, seed=777)
    assert a.seed == 777
    assert names_of(a) == names_of(b)


def test_by_order_seats_in_list_order():
    tournament = make_tournament(9, rounds=1)
    order = selectors.present_registrations(tournament)
    round_ = services.round_seat_next(tournament=tournament, order=order)
    assert tables_of(round_) == [order[:5], order[5:]]


def test_by_order_must_list_every_present_player():
    tournament = make_tournament(8, rounds=1)
    order = selectors.present_registrations(tournament)
    with pytest.raises(ServiceError, match="every present player exactly once"):
        services.round_seat_next(tournament=tournament, order=order[:-1])
    assert nothing_seated(tournament)


def test_later_rounds_avoid_repeated_meetings():
    """16 players over 5 rounds: everybody meets everybody exactly once."""
    tournament = make_tournament(16, rounds=5)
    seen: set[frozenset] = set()
    for number in range(1, 6):
        round_ = services.round_seat_next(tournament=tournament)
        assert round_.number == number
        tables = tables_of(round_)
        met = pairs(tables)
        assert not met & seen, f"repeats in round {number}"
        assert selectors.round_quality(round_).repeat_count == 0
        seen |= met
        close(round_)
    assert len(seen) == 16 * 15 // 2


def test_team_mates_never_share_a_table():
    tournament = make_tournament(0, format="teams_2", rounds=3)
    add_teams(tournament, 8)
    team_of = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "team_id"))
    for _ in range(3):
        round_ = services.round_seat_next(tournament=tournament)
        for table in tables_of(round_):
            teams = [team_of[r] for r in table]
            assert len(teams) == len(set(teams))
        assert selectors.round_quality(round_).teammates_together == []
        close(round_)


def test_late_arrival_is_seated_in_the_next_round():
    tournament = make_tournament(16, rounds=2)
    close(services.round_seat_next(tournament=tournament))
    late = add_players(tournament, 1, prefix="Tard")[0]
    round_2 = services.round_seat_next(tournament=tournament)
    assert round_2.seats.filter(registration=late).exists()
    assert [len(t) for t in tables_of(round_2)] == [5, 4, 4, 4]


# --- regenerate --------------------------------------------------------------------------------


def test_regenerate_before_any_deal_seats_again():
    tournament = make_tournament(16, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    old_tables = set(Table.objects.filter(round=round_).values_list("pk", flat=True))
    late = add_players(tournament, 1, prefix="Tard")[0]

    again = services.round_regenerate(round_=round_, seed=99)
    assert (again.number, again.seed, again.status) == (1, 99, "seated")
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert not Table.objects.filter(pk__in=old_tables).exists()
    seated = [r for t in tables_of(again) for r in t]
    assert len(seated) == len(set(seated)) == 17
    assert late.pk in seated
    assert ScoreSheet.objects.filter(table__round=again).count() == 4


def test_regenerate_is_refused_once_a_deal_is_entered():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    enter_first_deal(round_)
    before = tables_of(round_)
    with pytest.raises(ServiceError, match="has started"):
        services.round_regenerate(round_=round_)
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert tables_of(round_) == before
    assert Deal.objects.filter(sheet__table__round=round_).count() == 1


def test_only_the_last_round_can_be_regenerated():
    tournament = make_tournament(16, rounds=2)
    round_1 = services.round_seat_next(tournament=tournament)
    close(round_1)
    services.round_seat_next(tournament=tournament)
    before = tables_of(round_1)
    with pytest.raises(ServiceError):
        services.round_regenerate(round_=round_1)
    assert tables_of(Round.objects.get(tournament=tournament, number=1)) == before
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_regenerate_of_an_earlier_round_reopened_is_refused():
    """Round 1 reopened is not 'started' by a deal, but round 2 exists: still refused."""
    tournament = make_tournament(16, rounds=2)
    round_1 = services.round_seat_next(tournament=tournament)
    close(round_1)
    services.round_seat_next(tournament=tournament)
    Round.objects.filter(pk=round_1.pk).update(status="seated")
    with pytest.raises(ServiceError, match="Only the last round"):
        services.round_regenerate(round_=round_1)
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_regenerate_that_became_infeasible_keeps_the_round():
    tournament = make_tournament(4, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    before = tables_of(round_)
    for registration in tournament.registrations.all()[:2]:
        services.registration_set_status(registration=registration, status="absent")
    with pytest.raises(ServiceError, match="At least 3"):
        services.round_regenerate(round_=round_)
    assert tables_of(Round.objects.get(tournament=tournament, number=1)) == before


# --- swap --------------------------------------------------------------------------------------


def two_rounds_of_16():
    """Round 1 closed, round 2 seated without repeats; returns (tournament, round 2)."""
    tournament = make_tournament(16, rounds=2)
    close(services.round_seat_next(tournament=tournament))
    return tournament, services.round_seat_next(tournament=tournament)


def repeating_swap(tournament, round_2):
    """Two players at different tables of round 2 whose swap makes a repeated meeting."""
    round_1 = Round.objects.get(tournament=tournament, number=1)
    table_1 = {r: i for i, t in enumerate(tables_of(round_1)) for r in t}
    tables = tables_of(round_2)
    a = tables[0][0]
    # b sat with a's round-2 table-mate in round 1: moving b to a's table repeats that pair.
    b = next(r for t in tables[1:] for r in t if table_1[r] == table_1[tables[0][1]])
    return Registration.objects.get(pk=a), Registration.objects.get(pk=b)


def table_of(round_, registration):
    return Seat.objects.get(round=round_, registration=registration).table.number


def test_swap_warns_about_repeats_and_needs_confirmation():
    tournament, round_2 = two_rounds_of_16()
    a, b = repeating_swap(tournament, round_2)
    before = tables_of(round_2)

    warnings = services.seats_swap(round_=round_2, first=a, second=b)
    assert warnings
    assert all("have already played at one table (once)." in w for w in warnings)
    assert tables_of(round_2) == before

    ta, tb = table_of(round_2, a), table_of(round_2, b)
    services.seats_swap(round_=round_2, first=a, second=b, confirmed=True)
    assert (table_of(round_2, a), table_of(round_2, b)) == (tb, ta)
    assert sorted(r for t in tables_of(round_2) for r in t) == sorted(r for t in before for r in t)
    round_2.refresh_from_db()
    assert round_2.seats_changed == 1
    quality = selectors.round_quality(round_2)
    assert quality.repeat_count >= 1
    # The repeats are the referee's swap, not the seating's: the round page says so.
    assert quality.explanation == (
        f"16 players, round 2: {quality.repeat_count} repeated meeting"
        f"{'s' if quality.repeat_count > 1 else ''}, with seats changed by hand since the draw."
    )
    # Seated again, the round is the seating's own again.
    round_2 = services.round_regenerate(round_=round_2)
    assert round_2.seats_changed == 0


def test_swap_without_repeat_is_made_at_once():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    tables = tables_of(round_)
    a = Registration.objects.get(pk=tables[0][1])
    b = Registration.objects.get(pk=tables[1][2])
    assert services.seats_swap(round_=round_, first=a, second=b) == []
    after = tables_of(round_)
    assert after[0][1] == b.pk and after[1][2] == a.pk


def test_swap_refuses_team_mates_at_one_table():
    tournament = make_tournament(0, format="teams_2", rounds=1)
    add_teams(tournament, 4)
    round_ = services.round_seat_next(tournament=tournament)
    team_of = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "team_id"))
    tables = tables_of(round_)
    a = tables[0][0]
    mate = next(r for r in tables[1] if team_of[r] == team_of[tables[0][1]])
    before = tables_of(round_)
    with pytest.raises(ServiceError, match="team-mates: they must not share a table"):
        services.seats_swap(
            round_=round_,
            first=Registration.objects.get(pk=a),
            second=Registration.objects.get(pk=mate),
            confirmed=True,
        )
    assert tables_of(round_) == before


def test_swap_is_refused_once_the_round_has_started():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    enter_first_deal(round_)
    tables = tables_of(round_)
    a, b = (Registration.objects.get(pk=tables[i][0]) for i in (0, 1))
    with pytest.raises(ServiceError, match="has started"):
        services.seats_swap(round_=round_, first=a, second=b, confirmed=True)
    assert tables_of(round_) == tables


def test_swap_puts_a_late_player_in_a_seat():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    seated = Registration.objects.get(pk=tables_of(round_)[0][0])
    late = add_players(tournament, 1, prefix="Tard")[0]
    services.seats_swap(round_=round_, first=seated, second=late)
    assert tables_of(round_)[0][0] == late.pk
    assert not Seat.objects.filter(round=round_, registration=seated).exists()


def test_swap_refuses_a_player_not_checked_in():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    seated = Registration.objects.get(pk=tables_of(round_)[0][0])
    absent = add_players(tournament, 1, present=False, prefix="Absent")[0]
    before = tables_of(round_)
    with pytest.raises(ServiceError, match="is not checked in"):
        services.seats_swap(round_=round_, first=seated, second=absent)
    assert tables_of(round_) == before


def test_swap_within_a_table_exchanges_the_seats():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    before = tables_of(round_)
    north, south = (Registration.objects.get(pk=before[0][i]) for i in (0, 2))
    assert services.seats_swap(round_=round_, first=north, second=south) == []
    after = tables_of(round_)
    assert after[0] == [before[0][2], before[0][1], before[0][0], before[0][3]]
    assert after[1] == before[1]


def test_swap_of_two_players_not_seated_is_refused():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    first, second = add_players(tournament, 2, prefix="Tard")
    before = tables_of(round_)
    with pytest.raises(ServiceError, match="Neither player is seated"):
        services.seats_swap(round_=round_, first=first, second=second)
    assert tables_of(round_) == before


def test_swap_refuses_the_same_player_twice():
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    a = tournament.registrations.first()
    with pytest.raises(ServiceError, match="two different players"):
        services.seats_swap(round_=round_, first=a, second=a)


# --- a penalty given before the first deal --------------------------------------------------


def penalised_round():
    """Round 1 (tables of 4, one deal each) where the player in North at table 1 got a
    lateness penalty before any deal was entered."""
    tournament = make_tournament(8, rounds=1, deals=1)
    round_ = services.round_seat_next(tournament=tournament)
    tables = tables_of(round_)
    late = Registration.objects.get(pk=tables[0][0])
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=1)
    referee = Actor.staff(make_user("arbitre-penalites"), page="/test")
    penalty_add(sheet=sheet, registration=late, amount=-20, reason="Retard", actor=referee)
    return tournament, round_, late, Registration.objects.get(pk=tables[1][0])


def test_swap_after_a_penalty_leaves_every_sheet_signable():
    _, round_, late, other = penalised_round()
    with contextlib.suppress(ServiceError):  # refusing the swap is a correct answer too
        services.seats_swap(round_=round_, first=late, second=other, confirmed=True)
    for sheet in ScoreSheet.objects.filter(table__round=round_):
        deal_record(sheet=sheet, number=1, kind="played", deal=legal_deal(), actor=Actor.table())
        for seat in sheet.table.seats.select_related("registration"):
            registration = seat.registration
            sheet_sign_with_pin(
                sheet=sheet,
                registration=registration,
                pin=registration.pin,
                client="test",
                actor=Actor.table(),
            )
        sheet.refresh_from_db()
        assert sheet.status == "signed"
    # The penalty is on the sheet of the table where its player sits.
    penalty = Penalty.objects.get()
    assert penalty.sheet.table == Seat.objects.get(round=round_, registration=late).table


def test_regenerate_after_a_penalty_keeps_it_or_is_refused():
    _, round_, late, _ = penalised_round()
    try:
        services.round_regenerate(round_=round_)
    except ServiceError:
        assert Round.objects.filter(pk=round_.pk).exists()
    penalty = Penalty.objects.get(registration=late)
    assert (penalty.amount, penalty.reason) == (-20, "Retard")

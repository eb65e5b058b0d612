"""Halls through the services: set before seating, rounds seated in them (filling them in
order, keeping players in their hall, the stranded repair), the refusals said, a referee's hall
and the warning when a swap crosses halls."""

from __future__ import annotations

import pytest

from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.halls.models import Hall, HallPlan, HallReferee
from tournaments.halls.services import HallRow, halls_set, referee_hall_set
from tournaments.models import Registration, StaffMember

from .conftest import close, make_tournament, make_user

pytestmark = pytest.mark.django_db

POURNY = HallRow("Salle Pourny", "pourny", 1, 2)
CAPUCINS = HallRow("Salle des Capucins", "capucins", 11, 12)


def halls_by_table(round_) -> dict[int, list[int]]:
    return {
        t.number: list(t.seats.order_by("position").values_list("registration_id", flat=True))
        for t in round_.tables.order_by("number")
    }


def test_halls_are_saved_and_replaced_before_seating():
    tournament = make_tournament(8)
    halls_set(tournament=tournament, halls=[POURNY, CAPUCINS], keep_players=True)
    assert list(Hall.objects.filter(tournament=tournament).values_list("slug", "first_table")) == [
        ("pourny", 1),
        ("capucins", 11),
    ]
    pourny = Hall.objects.get(tournament=tournament, slug="pourny")
    halls_set(tournament=tournament, halls=[HallRow("Pourny", "pourny", 1, 5)], keep_players=False)
    assert list(Hall.objects.filter(tournament=tournament)) == [pourny]  # the same hall, changed
    pourny.refresh_from_db()
    assert (pourny.name, pourny.last_table) == ("Pourny", 5)
    assert HallPlan.objects.get(tournament=tournament).keep_players is False
    assert pourny.history.count() == 2  # every change kept


def test_halls_sharing_a_table_are_refused_and_nothing_is_written():
    tournament = make_tournament(8)
    with pytest.raises(ServiceError) as caught:
        halls_set(
            tournament=tournament,
            halls=[POURNY, HallRow("Capucins", "capucins", 2, 4)],
            keep_players=True,
        )
    assert str(caught.value) == "Halls “pourny” and “capucins” both hold table 2."
    assert not Hall.objects.filter(tournament=tournament).exists()


def test_halls_are_refused_once_round_1_is_seated():
    tournament = make_tournament(8)
    services.round_seat_next(tournament=tournament)
    with pytest.raises(ServiceError) as caught:
        halls_set(tournament=tournament, halls=[POURNY], keep_players=True)
    assert str(caught.value) == "The halls are set before seating: round 1 is already seated."
    assert not Hall.objects.filter(tournament=tournament).exists()


def test_round_1_fills_the_halls_in_order_numbered_from_their_ranges():
    tournament = make_tournament(16, rounds=3)
    halls_set(tournament=tournament, halls=[POURNY, CAPUCINS], keep_players=True)
    round_ = services.round_seat_next(tournament=tournament)
    tables = halls_by_table(round_)
    assert sorted(tables) == [1, 2, 11, 12]
    assert sorted(p for ps in tables.values() for p in ps) == sorted(
        Registration.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )


def test_players_keep_their_hall_in_later_rounds():
    tournament = make_tournament(16, rounds=3)
    halls_set(tournament=tournament, halls=[POURNY, CAPUCINS], keep_players=True)
    first = halls_by_table(services.round_seat_next(tournament=tournament))
    close(tournament.round_set.get(number=1))
    second = halls_by_table(services.round_seat_next(tournament=tournament))

    def hall_players(tables, numbers):
        return {p for n in numbers for p in tables[n]}

    assert hall_players(second, [1, 2]) == hall_players(first, [1, 2])
    assert hall_players(second, [11, 12]) == hall_players(first, [11, 12])


def test_everyone_moves_when_the_organiser_says_so():
    tournament = make_tournament(16, rounds=3)
    halls_set(tournament=tournament, halls=[POURNY, CAPUCINS], keep_players=False)
    first = halls_by_table(services.round_seat_next(tournament=tournament))
    close(tournament.round_set.get(number=1))
    second = halls_by_table(services.round_seat_next(tournament=tournament))
    pourny_before = {p for n in (1, 2) for p in first[n]}
    pourny_after = {p for n in (1, 2) for p in second[n]}
    assert pourny_before != pourny_after  # fewest repeats: players cross halls


def test_stranded_players_get_a_table_of_3_from_the_other_hall():
    tournament = make_tournament(7, rounds=3)
    halls_set(
        tournament=tournament,
        halls=[HallRow("A", "a", 1, 1), HallRow("B", "b", 2, 2)],
        keep_players=True,
    )
    first = halls_by_table(services.round_seat_next(tournament=tournament))
    assert [len(first[1]), len(first[2])] == [4, 3]
    close(tournament.round_set.get(number=1))
    leaving = Registration.objects.get(pk=first[2][0])
    services.registration_set_status(registration=leaving, status=Registration.Status.WITHDRAWN)
    second = halls_by_table(services.round_seat_next(tournament=tournament))
    assert [len(second[1]), len(second[2])] == [3, 3]
    assert set(first[2][1:]) <= set(second[2])


def test_a_round_too_big_for_the_halls_is_refused_in_words():
    tournament = make_tournament(13, rounds=2)
    halls_set(
        tournament=tournament,
        halls=[HallRow("A", "a", 1, 1), HallRow("B", "b", 2, 2)],
        keep_players=True,
    )
    with pytest.raises(ServiceError) as caught:
        services.round_seat_next(tournament=tournament)
    assert str(caught.value) == (
        "This round needs 3 tables but the halls hold 2: widen a hall's range of tables."
    )
    assert not tournament.round_set.exists()


def test_a_referee_is_assigned_to_one_hall_of_their_tournament():
    tournament = make_tournament(8)
    halls_set(tournament=tournament, halls=[POURNY, CAPUCINS], keep_players=True)
    staff = StaffMember.objects.create(
        tournament=tournament, user=make_user("ref-hall"), role=StaffMember.Role.REFEREE
    )
    capucins = Hall.objects.get(tournament=tournament, slug="capucins")
    referee_hall_set(staff=staff, hall=capucins)
    assert HallReferee.objects.get(staff=staff).hall == capucins
    referee_hall_set(staff=staff, hall=None)
    assert not HallReferee.objects.filter(staff=staff).exists()
    other = make_tournament(4)
    halls_set(tournament=other, halls=[POURNY], keep_players=True)
    with pytest.raises(ServiceError):
        referee_hall_set(staff=staff, hall=Hall.objects.get(tournament=other))


def test_a_swap_across_halls_warns_and_waits_for_confirmation():
    tournament = make_tournament(8, rounds=1)
    halls_set(
        tournament=tournament,
        halls=[HallRow("Salle A", "a", 1, 1), HallRow("Salle B", "b", 2, 2)],
        keep_players=True,
    )
    round_ = services.round_seat_next(tournament=tournament)
    tables = halls_by_table(round_)
    first, second = (Registration.objects.get(pk=tables[n][0]) for n in (1, 2))
    warnings = services.seats_swap(round_=round_, first=first, second=second)
    assert warnings == ["This swap moves each player to the other's hall (Salle A, Salle B)."]
    assert halls_by_table(round_) == tables  # not swapped yet
    services.seats_swap(round_=round_, first=first, second=second, confirmed=True)
    assert halls_by_table(round_)[1][0] == second.pk
    same_hall = Registration.objects.get(pk=tables[1][1])
    assert services.seats_swap(round_=round_, first=second, second=same_hall) == []

"""The round pages a referee uses: seat, swap (with confirmation), regenerate, close."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import selectors, services
from tournaments.models import Registration, Round, StaffMember

from .conftest import (
    add_teams,
    close,
    en_client,
    enter_first_deal,
    make_tournament,
    make_user,
    snapshot,
    tables_of,
)
from .test_seating import repeating_swap, two_rounds_of_16

pytestmark = pytest.mark.django_db


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def action_url(tournament, number, action):
    return reverse("tournaments:round_action", args=[tournament.slug, number, action])


@pytest.fixture
def referee_of():
    def build(tournament):
        user = make_user(f"arb-{tournament.pk}")
        StaffMember.objects.create(tournament=tournament, user=user, role="referee")
        return en_client(user)

    return build


def test_dashboard_says_why_the_next_round_cannot_be_seated(referee_of):
    tournament = make_tournament(2, rounds=2)
    client = referee_of(tournament)
    url = reverse("tournaments:dashboard", args=[tournament.slug])
    response = client.get(url)
    problem = response.context["next_round_problem"]
    assert problem == "At least 3 present players are needed to seat a round; there are 2."
    html = response.content.decode()
    assert problem in html
    assert reverse("tournaments:seat_round", args=[tournament.slug]) not in html

    # Seating anyway (a stale page) is refused with the same reason and creates nothing.
    response = client.post(
        reverse("tournaments:seat_round", args=[tournament.slug]), {}, follow=True
    )
    assert messages_of(response) == [problem]
    assert not Round.objects.filter(tournament=tournament).exists()


def test_dashboard_says_which_team_cannot_be_kept_apart(referee_of):
    tournament = make_tournament(0, format="teams_4", rounds=1)
    add_teams(tournament, 3)
    response = referee_of(tournament).get(reverse("tournaments:dashboard", args=[tournament.slug]))
    problem = response.context["next_round_problem"]
    assert "Team “Equipe 0” has 4 players present but there are only 3 tables" in problem
    assert problem in response.content.decode()


def test_dashboard_asks_to_close_the_round_first(referee_of):
    tournament = make_tournament(16, rounds=2)
    services.round_seat_next(tournament=tournament)
    response = referee_of(tournament).get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert response.context["next_round_problem"] == ("Close round 1 before seating the next one.")
    assert response.context["counts"] == {
        "registered": 0,
        "present": 16,
        "absent": 0,
        "withdrawn": 0,
    }


def test_dashboard_offers_seating_when_possible(referee_of):
    tournament = make_tournament(16, rounds=2)
    response = referee_of(tournament).get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert response.context["next_round_problem"] is None
    assert response.context["next_number"] == 1
    assert reverse("tournaments:seat_round", args=[tournament.slug]) in response.content.decode()


def test_seat_round_with_a_seed_through_the_page(referee_of):
    tournament = make_tournament(16, rounds=1)
    twin = make_tournament(16, rounds=1, seed=5)
    response = referee_of(tournament).post(
        reverse("tournaments:seat_round", args=[tournament.slug]), {"seed": "31415"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:round", args=[tournament.slug, 1])
    round_ = Round.objects.get(tournament=tournament)
    assert round_.seed == 31415
    expected = services.round_seat_next(tournament=twin, seed=31415)
    names = {r.pk: r.last_name for r in Registration.objects.all()}
    assert [[names[r] for r in t] for t in tables_of(round_)] == [
        [names[r] for r in t] for t in tables_of(expected)
    ]


def test_seat_round_by_order_through_the_page(referee_of):
    tournament = make_tournament(7, rounds=1)
    referee_of(tournament).post(
        reverse("tournaments:seat_round", args=[tournament.slug]), {"by_order": "on"}
    )
    round_ = Round.objects.get(tournament=tournament)
    names = [[Registration.objects.get(pk=r).last_name for r in t] for t in tables_of(round_)]
    assert names == [[f"Joueur{i:02d}" for i in range(4)], [f"Joueur{i:02d}" for i in range(4, 7)]]


def test_by_order_does_not_repeat_round_one_in_round_two(referee_of):
    tournament = make_tournament(16, rounds=2)
    client = referee_of(tournament)
    url = reverse("tournaments:seat_round", args=[tournament.slug])
    client.post(url, {"by_order": "on"})
    close(Round.objects.get(tournament=tournament, number=1))
    client.post(url, {"by_order": "on"})
    round_2 = Round.objects.filter(tournament=tournament, number=2).first()
    # The option is for round 1: round 2 is refused, or seated like any later round,
    # without repeating round 1 table for table.
    assert round_2 is None or selectors.round_quality(round_2).repeat_count == 0
    # The dashboard no longer offers the option once round 1 is seated.
    response = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert "by_order" not in response.context["seat_form"].fields


def test_round_page_shows_tables_and_quality(referee_of):
    tournament = make_tournament(9, rounds=1)
    services.round_seat_next(tournament=tournament)
    response = referee_of(tournament).get(reverse("tournaments:round", args=[tournament.slug, 1]))
    assert response.status_code == 200
    tables = response.context["tables"]
    assert [(t.table.number, t.size, t.quota, t.status) for t in tables] == [
        (1, 5, 5, "not_started"),
        (2, 4, 4, "not_started"),
    ]
    assert response.context["quality"].sizes == [5, 4]
    assert response.context["quality"].repeat_count == 0
    assert response.context["is_last"] is True


def test_swap_through_the_page_asks_for_confirmation_then_swaps(referee_of):
    tournament, round_2 = two_rounds_of_16()
    client = referee_of(tournament)
    a, b = repeating_swap(tournament, round_2)
    before = tables_of(round_2)
    url = action_url(tournament, 2, "swap")

    response = client.post(url, {"first": a.pk, "second": b.pk})
    assert response.status_code == 200
    assert response.context["swap_warnings"]
    confirm = response.context["swap_form"]
    assert confirm.initial["confirmed"] is True
    assert confirm.initial["first"] == a and confirm.initial["second"] == b
    assert tables_of(round_2) == before

    response = client.post(url, {"first": a.pk, "second": b.pk, "confirmed": "True"}, follow=True)
    assert messages_of(response) == ["Seats swapped."]
    after = tables_of(round_2)
    assert after != before
    position = {r: (i, j) for i, t in enumerate(before) for j, r in enumerate(t)}
    moved = {r: (i, j) for i, t in enumerate(after) for j, r in enumerate(t)}
    assert moved[a.pk] == position[b.pk] and moved[b.pk] == position[a.pk]


def test_swap_refused_after_a_deal_through_the_page(referee_of):
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    enter_first_deal(round_)
    tables = tables_of(round_)
    client = referee_of(tournament)
    before = snapshot(tournament)
    response = client.post(
        action_url(tournament, 1, "swap"),
        {"first": tables[0][0], "second": tables[1][0], "confirmed": "True"},
        follow=True,
    )
    assert messages_of(response) == ["This round has started: seats can no longer be swapped."]
    assert snapshot(tournament) == before


def test_regenerate_through_the_page(referee_of):
    tournament = make_tournament(16, rounds=1)
    old = services.round_seat_next(tournament=tournament)
    response = referee_of(tournament).post(action_url(tournament, 1, "regenerate"), follow=True)
    new = Round.objects.get(tournament=tournament, number=1)
    assert new.pk != old.pk
    assert messages_of(response) == [f"Round seated again (seed {new.seed})."]
    assert sorted(r for t in tables_of(new) for r in t) == sorted(
        selectors.present_registrations(tournament)
    )


def test_regenerate_refused_after_a_deal_through_the_page(referee_of):
    tournament = make_tournament(8, rounds=1)
    round_ = services.round_seat_next(tournament=tournament)
    enter_first_deal(round_)
    client = referee_of(tournament)
    before = snapshot(tournament)
    response = client.post(action_url(tournament, 1, "regenerate"), follow=True)
    assert messages_of(response) == ["This round has started: it can no longer be seated again."]
    assert snapshot(tournament) == before


def test_close_through_the_page_needs_a_reason_while_sheets_are_unsigned(referee_of):
    tournament = make_tournament(8, rounds=1)
    services.round_seat_next(tournament=tournament)
    client = referee_of(tournament)
    response = client.post(action_url(tournament, 1, "close"), {"reason": ""}, follow=True)
    assert "Tables 1, 2 have not signed their sheet" in messages_of(response)[0]
    assert Round.objects.get(tournament=tournament).status == "seated"

    response = client.post(
        action_url(tournament, 1, "close"), {"reason": "Feuilles papier"}, follow=True
    )
    assert messages_of(response) == ["Round 1 is closed."]
    round_ = Round.objects.get(tournament=tournament)
    assert (round_.status, round_.close_reason) == ("closed", "Feuilles papier")

    response = client.post(action_url(tournament, 1, "reopen"), follow=True)
    assert messages_of(response) == ["Round 1 is open again."]
    assert Round.objects.get(tournament=tournament).status == "playing"


def test_round_actions_are_post_only(referee_of):
    tournament = make_tournament(8, rounds=1)
    services.round_seat_next(tournament=tournament)
    client = referee_of(tournament)
    for action in ("regenerate", "swap", "close", "reopen"):
        assert client.get(action_url(tournament, 1, action)).status_code == 405
    assert client.get(reverse("tournaments:seat_round", args=[tournament.slug])).status_code == 405

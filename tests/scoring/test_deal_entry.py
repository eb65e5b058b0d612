"""Deal entry through the services: every refusal, the quota, passed deals, scores derived."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.engine import Contract, Handful, HandfulSize
from scoring.models import Deal, Score, ScoreSheet, SheetEvent
from scoring.scores import deal_scores
from scoring.services import DealConflict, InvalidDealInput, deal_record
from tarot_club.errors import ServiceError

from .conftest import TABLE, legal, make_tournament, staff

pytestmark = pytest.mark.django_db


def fill(sheet, count, actor=TABLE):
    for number in range(1, count + 1):
        deal_record(
            sheet=sheet, number=number, kind="played", deal=legal(taker=number % 4), actor=actor
        )


def test_first_deal_is_scored_by_the_engine_and_logged(seated):
    _, _, sheet = seated
    deal = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    assert deal.scores == [198, -66, -66, -66]  # garde, 2 oudlers, 49: (25 + 8) x 2
    assert deal.scores == deal_scores(deal, 4, "fft")
    event = SheetEvent.objects.get(sheet=sheet)
    assert (event.action, event.actor, event.data["deal"]) == ("deal_created", None, 1)
    assert event.data["after"]["scores"] == [198, -66, -66, -66]
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.IN_PROGRESS


def test_a_double_click_records_nothing_twice(seated):
    _, _, sheet = seated
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    with pytest.raises(ServiceError, match=r"déjà enregistrée|already recorded"):
        deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_deals_are_entered_in_order_and_not_beyond_the_quota(seated):
    _, _, sheet = seated
    with pytest.raises(ServiceError):
        deal_record(sheet=sheet, number=2, kind="played", deal=legal(), actor=TABLE)
    fill(sheet, 4)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    with pytest.raises(ServiceError) as raised:
        deal_record(sheet=sheet, number=5, kind="played", deal=legal(), actor=TABLE)
    assert "4" in str(raised.value)
    assert Deal.objects.filter(sheet=sheet).count() == 4


def test_an_impossible_deal_is_refused_field_by_field(seated):
    _, _, sheet = seated
    bad = legal(
        points=40,
        oudlers=3,
        handfuls=(Handful(0, HandfulSize.SIMPLE), Handful(1, HandfulSize.DOUBLE)),
    )
    with pytest.raises(InvalidDealInput) as raised:
        deal_record(sheet=sheet, number=1, kind="played", deal=bad, actor=TABLE)
    assert set(raised.value.errors) == {"handfuls"}
    assert Deal.objects.count() == 0


def test_passed_deal_scores_zero_and_does_not_count_by_default(seated):
    _, _, sheet = seated
    deal = deal_record(sheet=sheet, number=1, kind="passed", deal=None, actor=TABLE)
    assert deal.scores == [0, 0, 0, 0] and deal.taker is None
    fill_from = 2
    for number in range(fill_from, fill_from + 4):
        deal_record(sheet=sheet, number=number, kind="played", deal=legal(), actor=TABLE)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    assert Deal.objects.filter(sheet=sheet).count() == 5


def test_passed_deals_count_when_the_tournament_says_so(db):
    _, round_ = make_tournament(4, passed_count=True)
    sheet = ScoreSheet.objects.get(table__round=round_)
    for number in range(1, 5):
        deal_record(sheet=sheet, number=number, kind="passed", deal=None, actor=TABLE)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE


def test_referee_decision_needs_a_reason_and_a_referee(seated, referee):
    _, _, sheet = seated
    with pytest.raises(ServiceError):
        deal_record(
            sheet=sheet, number=1, kind="referee", deal=legal(), actor=TABLE, note="renonce"
        )
    with pytest.raises(ServiceError):
        deal_record(sheet=sheet, number=1, kind="referee", deal=legal(), actor=staff(referee))
    deal = deal_record(
        sheet=sheet,
        number=1,
        kind="referee",
        deal=legal(),
        actor=staff(referee),
        note="Renonce de Nord : donne attribuée",
    )
    assert deal.kind == "referee" and sum(deal.scores) == 0 and deal.note


def test_table_of_five_the_dealer_sits_out_and_scores_zero(db):
    _, round_ = make_tournament(5, deals=4)
    sheet = ScoreSheet.objects.get(table__round=round_)
    # Deal 1: North (position 0) deals and sits out; engine seat 0 is East (position 1).
    deal = deal_record(sheet=sheet, number=1, kind="played", deal=legal(taker=0), actor=TABLE)
    assert deal.dealer == 0 and deal.taker == 1
    assert deal.scores[0] == 0 and sum(deal.scores) == 0
    assert deal.scores[1] == 3 * -deal.scores[2]
    # A passed deal keeps the same dead seat for the next deal.
    deal_record(sheet=sheet, number=2, kind="passed", deal=None, actor=TABLE)
    third = deal_record(sheet=sheet, number=3, kind="played", deal=legal(taker=0), actor=TABLE)
    assert third.dealer == 1 and third.taker == 0 and third.scores[1] == 0
    # A table of 5 plays one more deal than a table of 4: 5 counted deals.
    for number in range(4, 7):
        deal_record(sheet=sheet, number=number, kind="played", deal=legal(), actor=TABLE)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    dealers = list(Deal.objects.filter(sheet=sheet, kind="played").values_list("dealer", flat=True))
    assert sorted(dealers) == [0, 1, 2, 3, 4]  # everybody sat out exactly once


def test_table_of_three_plays_three_player_deals(db):
    _, round_ = make_tournament(3)
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal = deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(players=3, points="41.5", contract=Contract.PETITE),
        actor=TABLE,
    )
    assert deal.scores == [52, -26, -26]
    with pytest.raises(ServiceError):
        deal_record(sheet=sheet, number=2, kind="played", deal=legal(players=4), actor=TABLE)


def test_a_correction_with_a_stale_version_is_a_conflict(seated, referee):
    _, _, sheet = seated
    deal = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(points=60),
        actor=TABLE,
        version=deal.version,
    )
    with pytest.raises(DealConflict) as raised:
        deal_record(
            sheet=sheet,
            number=1,
            kind="played",
            deal=legal(points=30),
            actor=TABLE,
            version=deal.version,
        )
    assert raised.value.deal.points == 60
    assert Deal.objects.get(sheet=sheet, number=1).points == 60


def test_every_change_is_in_the_history(seated, referee):
    _, _, sheet = seated
    deal = deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(points=55),
        actor=staff(referee),
        version=deal.version,
        reason="mauvais comptage",
    )
    versions = list(Deal.history.filter(sheet_id=sheet.pk).order_by("history_date"))
    assert [(v.points, v.version) for v in versions] == [(49, 1), (55, 2)]
    assert versions[-1].history_user == referee
    assert versions[-1].history_change_reason == "mauvais comptage"
    events = list(SheetEvent.objects.filter(sheet=sheet).order_by("pk"))
    assert [e.action for e in events] == ["deal_created", "deal_corrected"]
    assert events[1].data["before"]["points"] == "49" and events[1].data["after"]["points"] == "55"
    assert events[1].reason == "mauvais comptage" and events[1].actor == referee


def test_changing_a_deal_to_passed_rederives_later_dealers_and_scores(db):
    _, round_ = make_tournament(5)
    sheet = ScoreSheet.objects.get(table__round=round_)
    first = deal_record(sheet=sheet, number=1, kind="played", deal=legal(taker=1), actor=TABLE)
    second = deal_record(sheet=sheet, number=2, kind="played", deal=legal(taker=2), actor=TABLE)
    assert second.dealer == 1
    deal_record(sheet=sheet, number=1, kind="passed", deal=None, actor=TABLE, version=first.version)
    second.refresh_from_db()
    assert second.dealer == 0 and second.scores[0] == 0
    assert second.scores == deal_scores(second, 5, "fft")


def assert_cache_matches_engine():
    """Deal.scores and the per-player Score rows both equal the engine's result."""
    for deal in Deal.objects.select_related("sheet__table"):
        seats = dict(deal.sheet.table.seats.values_list("registration_id", "position"))
        expected = deal_scores(deal, len(seats), "fft")
        assert deal.scores == expected
        rows = {r.registration_id: r.points for r in Score.objects.filter(deal=deal)}
        assert rows == {reg: expected[pos] for reg, pos in seats.items()}
    assert Score.objects.filter(deal__isnull=False).count() == sum(
        len(d.scores) for d in Deal.objects.all()
    )
    assert_seat_results_match_deals()


def assert_seat_results_match_deals():
    """Each seat's stored result (what the standings read) equals its deals, counted anew."""
    from scoring.engine import get_rule_set
    from scoring.engine.table import active_positions
    from tournaments.models import Seat

    for seat in Seat.objects.select_related("table__sheet"):
        sheet = seat.table.sheet
        size = seat.table.seats.count()
        deals = [d for d in Deal.objects.filter(sheet=sheet) if d.kind != "passed"]
        paper = sheet.paper_totals[seat.position] if sheet.paper_mode else 0
        assert seat.points == sum(d.scores[seat.position] for d in deals) + paper
        assert seat.deals_played == sum(
            seat.position in active_positions(size, d.dealer) for d in deals
        )
        assert seat.deals_taken == sum(d.taker == seat.position for d in deals)
        thresholds = get_rule_set("fft").thresholds
        assert seat.deals_made == sum(
            d.taker == seat.position and d.points >= thresholds[d.oudlers] for d in deals
        )


def test_cached_scores_always_equal_the_engine(db):
    from scoring.demo import create_demo

    result = create_demo(players=13, rounds=2, deals=4, seed=5)
    assert result.deals == Deal.objects.count()
    assert_cache_matches_engine()


def test_cached_scores_follow_every_kind_of_change(db, referee):
    _, round_ = make_tournament(5)
    sheet = ScoreSheet.objects.get(table__round=round_)
    first = deal_record(sheet=sheet, number=1, kind="played", deal=legal(taker=1), actor=TABLE)
    second = deal_record(sheet=sheet, number=2, kind="played", deal=legal(taker=2), actor=TABLE)
    assert_cache_matches_engine()
    first = deal_record(
        sheet=sheet,
        number=1,
        kind="played",
        deal=legal(taker=1, points=30),
        actor=TABLE,
        version=first.version,
    )  # corrected
    assert_cache_matches_engine()
    first = deal_record(
        sheet=sheet, number=1, kind="passed", deal=None, actor=TABLE, version=first.version
    )  # kind changed: later dealers move
    assert_cache_matches_engine()
    deal_record(
        sheet=sheet,
        number=2,
        kind="referee",
        deal=legal(taker=3),
        actor=staff(referee),
        version=Deal.objects.get(pk=second.pk).version,
        note="décision",
    )
    assert_cache_matches_engine()
    services.deal_delete_last(sheet=sheet, actor=staff(referee), reason="erreur")
    assert_cache_matches_engine()
    assert not Score.objects.filter(deal=first, played=True).exists()  # passed: nobody played


def test_remove_last_deal_is_for_referees_and_logged(seated, referee):
    _, _, sheet = seated
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    with pytest.raises(ServiceError):
        services.deal_delete_last(sheet=sheet, actor=TABLE)
    services.deal_delete_last(sheet=sheet, actor=staff(referee), reason="doublon")
    assert not Deal.objects.filter(sheet=sheet).exists()
    assert Deal.history.filter(sheet_id=sheet.pk, history_type="-").count() == 1
    assert SheetEvent.objects.filter(sheet=sheet, action="deal_removed", reason="doublon").exists()


def test_what_the_page_saw_is_read_again_when_the_sheet_changed_since(db):
    """Two phones on one table: the second saves with what its page read before the first
    saved. The sheet moved on (new version): the service reads the deals again."""
    from scoring.selectors import sheet_state as sheet_view
    from scoring.services import SheetSeen

    _, round_ = make_tournament(4)
    sheet = ScoreSheet.objects.get(table__round=round_)
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    view = sheet_view(sheet.pk)
    stale = SheetSeen(view.sheet.version, view.seats, view.deals)
    deal_record(sheet=sheet, number=2, kind="played", deal=legal(), actor=TABLE, seen=stale)
    third = deal_record(sheet=sheet, number=3, kind="played", deal=legal(), actor=TABLE, seen=stale)
    assert third.dealer == 2  # after deals 1 and 2, not as the stale page would have it
    assert [d.number for d in view.deals] == [1]  # the page's own objects are left alone
    assert_cache_matches_engine()

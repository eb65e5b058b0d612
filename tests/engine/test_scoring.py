"""Hand-made deals: each scoring rule, at 3, 4 and 5 players, with its explanation."""

from decimal import Decimal

import pytest

from scoring.engine import (
    FFT,
    Camp,
    Contract,
    Deal,
    Handful,
    HandfulSize,
    get_rule_set,
    score_deal,
)


def deal(**overrides) -> Deal:
    fields = {
        "players": 4,
        "taker": 0,
        "contract": Contract.GARDE,
        "oudlers": 2,
        "points": Decimal(41),
    }
    fields.update(overrides)
    if isinstance(fields["points"], int | str):
        fields["points"] = Decimal(fields["points"])
    return Deal(**fields)


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [
        (Contract.PETITE, 1),
        (Contract.GARDE, 2),
        (Contract.GARDE_SANS, 4),
        (Contract.GARDE_CONTRE, 6),
    ],
)
def test_multiplier_applies_to_contract_and_difference(contract, multiplier):
    result = score_deal(deal(contract=contract, points=51))  # won by 10
    assert result.explanation.multiplier == multiplier
    assert result.explanation.contract_points == 35 * multiplier
    assert result.scores == (105 * multiplier, -35 * multiplier, -35 * multiplier, -35 * multiplier)


@pytest.mark.parametrize(("oudlers", "threshold"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_thresholds_by_oudlers_and_juste_fait(oudlers, threshold):
    made = score_deal(deal(oudlers=oudlers, points=threshold, contract=Contract.PETITE))
    assert made.explanation.won and made.explanation.difference == 0
    assert made.scores[0] == 75
    failed = score_deal(deal(oudlers=oudlers, points=threshold - 1, contract=Contract.PETITE))
    assert not failed.explanation.won and failed.explanation.difference == 1
    assert failed.scores[0] == -78


def test_petit_au_bout_goes_to_its_camp_whatever_the_result():
    # Lost contract, petit au bout by the attack: still +10 x m for the attack.
    lost = score_deal(deal(points=30, oudlers=2, petit_au_bout=Camp.ATTACK))
    assert lost.explanation.petit_au_bout == 20
    assert lost.explanation.amount == -(25 + 11) * 2 + 20
    # Won contract, petit au bout by the defence: -10 x m.
    won = score_deal(deal(points=50, oudlers=2, petit_au_bout=Camp.DEFENCE))
    assert won.explanation.petit_au_bout == -20
    assert won.explanation.amount == (25 + 9) * 2 - 20


def test_handfuls_go_to_the_contract_winner_unmultiplied():
    shown = (Handful(seat=1, size=HandfulSize.SIMPLE), Handful(seat=0, size=HandfulSize.SIMPLE))
    won = score_deal(deal(contract=Contract.GARDE_SANS, points=41, handfuls=shown))
    assert won.explanation.handful_points == 40
    assert won.explanation.amount == 25 * 4 + 40
    lost = score_deal(deal(contract=Contract.GARDE_SANS, points=40, handfuls=shown))
    assert lost.explanation.handful_points == -40
    triple = score_deal(deal(points=30, handfuls=(Handful(seat=3, size=HandfulSize.TRIPLE),)))
    assert triple.explanation.handful_points == -40


@pytest.mark.parametrize(
    ("announced", "points", "oudlers", "slam", "slam_points"),
    [
        (True, 91, 3, Camp.ATTACK, 400),
        (False, 91, 3, Camp.ATTACK, 200),
        (True, 87, 2, Camp.ATTACK, 400),
        (True, 60, 2, None, -200),  # announced and failed, contract won
        (True, 30, 2, None, -200),  # announced and failed, contract lost
        (False, 3, 0, Camp.DEFENCE, -200),  # the taker keeps only the écart
        (True, 3, 0, Camp.DEFENCE, -400),
    ],
)
def test_slam_amounts(announced, points, oudlers, slam, slam_points):
    result = score_deal(deal(points=points, oudlers=oudlers, slam_announced=announced, slam=slam))
    assert result.explanation.slam_points == slam_points
    assert sum(result.scores) == 0


def test_defence_slam_gives_each_defender_200_more_paid_by_the_taker():
    without = score_deal(deal(points=3, oudlers=0, contract=Contract.PETITE))
    with_slam = score_deal(deal(points=3, oudlers=0, contract=Contract.PETITE, slam=Camp.DEFENCE))
    assert [b - a for a, b in zip(without.scores, with_slam.scores, strict=True)] == [
        -600,
        200,
        200,
        200,
    ]


def test_garde_contre_slam_with_the_dog_points_missing():
    result = score_deal(
        deal(contract=Contract.GARDE_CONTRE, points=80, oudlers=3, slam=Camp.ATTACK)
    )
    assert result.explanation.slam_points == 200


def test_three_players_taker_scores_twice_the_amount():
    result = score_deal(deal(players=3, taker=2, points=Decimal("56.5"), oudlers=1))
    assert result.explanation.difference == 6  # 5.5 rounds up for the winning camp
    assert result.scores == (-62, -62, 124)


@pytest.mark.parametrize("partner", [None, 2])
def test_five_players_taker_alone_scores_four_times(partner):
    result = score_deal(deal(players=5, taker=2, partner=partner, points=Decimal("45.5")))
    assert result.explanation.difference == 5
    assert result.explanation.taker_share == 4 and result.explanation.partner_share == 0
    assert result.scores == (-60, -60, 240, -60, -60)


def test_five_players_with_partner_shares_two_to_one():
    result = score_deal(deal(players=5, taker=1, partner=4, points=Decimal("40.5")))
    assert result.explanation.difference == 1 and not result.explanation.won
    assert result.scores == (52, -104, 52, 52, -52)


def test_rule_set_name_travels_with_the_result_and_house_variant_changes_handfuls():
    shown = (Handful(seat=0, size=HandfulSize.TRIPLE),)
    assert score_deal(deal(handfuls=shown)).explanation.rule_set == "fft"
    house = get_rule_set("house-handfuls-20-40-60")
    result = score_deal(deal(handfuls=shown), house)
    assert result.explanation.rule_set == "house-handfuls-20-40-60"
    assert result.explanation.handful_points == 60
    assert not house.official and FFT.official


def test_unknown_rule_set_is_named():
    with pytest.raises(KeyError, match="unknown rule set"):
        get_rule_set("pousse")

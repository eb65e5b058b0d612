"""Deals a referee would check by hand, with the scores the sheet must show.

Each bonus of each rule set appears in a deal the rules accept (a bonus only ever tested on a
refused deal could change unnoticed), and the explanation's every number is the one a referee
reads on the calculator.
"""

from dataclasses import replace
from decimal import Decimal

import pytest

from scoring.engine import (
    FFT,
    Camp,
    Contract,
    Deal,
    Explanation,
    Handful,
    HandfulSize,
    check_deal,
    score_deal,
)
from scoring.engine.rules import HANDFULS_20_40_60
from scoring.engine.types import HandfulLine

SIMPLE, DOUBLE, TRIPLE = HandfulSize.SIMPLE, HandfulSize.DOUBLE, HandfulSize.TRIPLE


def four(**fields) -> Deal:
    """A 4-player deal taken by seat 0 (a garde with 2 oudlers unless said otherwise)."""
    base = {"players": 4, "taker": 0, "contract": Contract.GARDE, "oudlers": 2}
    base.update(fields)
    base["points"] = Decimal(str(base["points"]))
    return Deal(**base)


# (what the referee sees, the deal, the taker's score under FFT, under the 20/40/60 house rules):
# at 4 players the taker scores 3M and each defender -M.
CASES = {
    "triple handful by the taker, garde won by 9": (
        four(points=50, handfuls=(Handful(seat=0, size=TRIPLE),)),
        3 * ((25 + 9) * 2 + 40),
        3 * ((25 + 9) * 2 + 60),
    ),
    "double handful by a defender, garde lost by 6": (
        four(points=35, handfuls=(Handful(seat=2, size=DOUBLE),)),
        3 * (-(25 + 6) * 2 - 30),
        3 * (-(25 + 6) * 2 - 40),
    ),
    "simple handful, garde made exactly": (
        four(points=41, handfuls=(Handful(seat=1, size=SIMPLE),)),
        3 * (25 * 2 + 20),
        3 * (25 * 2 + 20),
    ),
    "petit au bout by the attack in a garde lost (1 oudler, 45 for 51)": (
        four(oudlers=1, points=45, petit_au_bout=Camp.ATTACK),
        3 * (-(25 + 6) * 2 + 10 * 2),
        3 * (-(25 + 6) * 2 + 10 * 2),
    ),
    "petit au bout by the defence in a garde sans won by 9": (
        four(contract=Contract.GARDE_SANS, points=50, petit_au_bout=Camp.DEFENCE),
        3 * ((25 + 9) * 4 - 10 * 4),
        3 * ((25 + 9) * 4 - 10 * 4),
    ),
    "slam announced and made in a petite, 3 oudlers, petit au bout": (
        four(
            contract=Contract.PETITE,
            oudlers=3,
            points=91,
            petit_au_bout=Camp.ATTACK,
            slam=Camp.ATTACK,
            slam_announced=True,
        ),
        3 * ((25 + 55) + 10 + 400),
        3 * ((25 + 55) + 10 + 400),
    ),
    "slam made without announcing, 87 points with 2 oudlers": (
        four(points=87, slam=Camp.ATTACK),
        3 * ((25 + 46) * 2 + 200),
        3 * ((25 + 46) * 2 + 200),
    ),
    "slam announced and failed, garde won by 19": (
        four(points=60, slam_announced=True),
        3 * ((25 + 19) * 2 - 200),
        3 * ((25 + 19) * 2 - 200),
    ),
    "slam by the defence in a petite: the taker kept only his écart": (
        four(contract=Contract.PETITE, oudlers=0, points=3, slam=Camp.DEFENCE),
        3 * (-(25 + 53) - 200),
        3 * (-(25 + 53) - 200),
    ),
    "slam made in a garde contre: the dog stays with the defence": (
        four(contract=Contract.GARDE_CONTRE, oudlers=3, points=88, slam=Camp.ATTACK),
        3 * ((25 + 52) * 6 + 200),
        3 * ((25 + 52) * 6 + 200),
    ),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("rules", [FFT, HANDFULS_20_40_60], ids=lambda r: r.name)
def test_every_bonus_of_every_rule_set_in_an_accepted_deal(name, rules):
    deal, fft_taker, house_taker = CASES[name]
    assert check_deal(deal, rules) == []
    taker = fft_taker if rules is FFT else house_taker
    assert score_deal(deal, rules).scores == (taker, -taker // 3, -taker // 3, -taker // 3)


def test_the_explanation_of_a_five_player_deal_gives_every_number():
    """Garde called by seat 2 with seat 4, 45.5 points with 2 oudlers (41 needed): won by
    4.5, counted 5; petit au bout by the attack; a simple handful from seat 0 and a double
    from seat 3, both paid to the winning attack."""
    deal = Deal(
        players=5,
        taker=2,
        partner=4,
        contract=Contract.GARDE,
        oudlers=2,
        points=Decimal("45.5"),
        handfuls=(Handful(seat=0, size=SIMPLE), Handful(seat=3, size=DOUBLE)),
        petit_au_bout=Camp.ATTACK,
    )
    result = score_deal(deal)
    assert result.explanation == Explanation(
        rule_set="fft",
        won=True,
        threshold=41,
        points=Decimal("45.5"),
        difference=5,
        multiplier=2,
        contract_base=25,
        contract_points=60,
        petit_au_bout=20,
        handfuls=(
            HandfulLine(seat=0, size=SIMPLE, trumps=8, bonus=20),
            HandfulLine(seat=3, size=DOUBLE, trumps=10, bonus=30),
        ),
        handful_points=50,
        slam_points=0,
        amount=130,
        taker_share=2,
        partner_share=1,
        defender_count=3,
    )
    assert result.scores == (-130, -130, 260, -130, 130)


# The trumps a handful shows (FFT), by number of players: the explanation says them.
TRUMPS = {
    3: {SIMPLE: 13, DOUBLE: 15, TRIPLE: 18},
    4: {SIMPLE: 10, DOUBLE: 13, TRIPLE: 15},
    5: {SIMPLE: 8, DOUBLE: 10, TRIPLE: 13},
}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("size", [SIMPLE, DOUBLE, TRIPLE], ids=str)
def test_the_explanation_names_the_trumps_each_handful_shows(players, size):
    deal = Deal(
        players=players,
        taker=0,
        partner=1 if players == 5 else None,
        contract=Contract.GARDE,
        oudlers=2,
        points=Decimal(50),
        handfuls=(Handful(seat=players - 1, size=size),),
    )
    (line,) = score_deal(deal).explanation.handfuls
    assert (line.seat, line.trumps) == (players - 1, TRUMPS[players][size])


@pytest.mark.parametrize(
    ("players", "partner", "scores"),
    [
        # Garde won by 9 with 2 oudlers: M = 68.
        (3, None, (136, -68, -68)),
        (5, 3, (136, -68, -68, 68, -68)),  # called partner: taker 2M, partner M
        (5, None, (272, -68, -68, -68, -68)),  # the called king was in the dog: alone, 4M
        (5, 0, (272, -68, -68, -68, -68)),  # called his own king: alone, 4M
    ],
)
def test_shares_at_three_and_five_players(players, partner, scores):
    deal = Deal(
        players=players,
        taker=0,
        partner=partner,
        contract=Contract.GARDE,
        oudlers=2,
        points=Decimal(50),
    )
    assert score_deal(deal).scores == scores


# One typing mistake, one message: a refused number of card points is not judged again by the
# rules that read it (the oudlers' bounds, the dog, the slam), which would only repeat it.
# (what the referee sees, the deal, the one code the sheet must show)
ONE_MISTAKE = {
    "4.25 typed for 42.5 at five players, with one oudler": (
        Deal(
            players=5,
            taker=0,
            partner=1,
            contract=Contract.GARDE,
            oudlers=1,
            points=Decimal("4.25"),
        ),
        "points.half",
    ),
    "90.5 points for an attack slam at four players": (
        four(oudlers=3, points="90.5", slam=Camp.ATTACK),
        "points.half_at_four",
    ),
    "1 typed for 91 in an attack slam with the three oudlers": (
        four(oudlers=3, points=1, slam=Camp.ATTACK),
        "points.too_few_for_oudlers",
    ),
    "an attack slam of 91 points entered with only 2 oudlers": (
        four(oudlers=2, points=91, slam=Camp.ATTACK),
        "points.too_many_for_oudlers",
    ),
}


@pytest.mark.parametrize("name", ONE_MISTAKE)
def test_one_typing_mistake_gives_exactly_one_message(name):
    deal, code = ONE_MISTAKE[name]
    assert [(e.field, e.code) for e in check_deal(deal, FFT)] == [("points", code)]


def test_too_many_trumps_says_how_many():
    (error,) = check_deal(
        four(points=50, handfuls=(Handful(seat=0, size=SIMPLE), Handful(seat=1, size=DOUBLE))),
        FFT,
    )
    assert (error.field, error.code) == ("handfuls", "handfuls.too_many_trumps")
    assert error.message == (
        "These handfuls show 23 trumps, but the game has only 22 (21 trumps and the excuse)."
    )


# A club whose simple handful at 4 players is 11 trumps: two players can each show one, all 21
# trumps and the excuse between them; a double beside a simple is more than the game holds.
ELEVEN = replace(
    FFT,
    name="house-simple-11",
    official=False,
    handful_trumps={4: {SIMPLE: 11, DOUBLE: 13, TRIPLE: 15}},
)


def test_every_trump_and_the_excuse_may_be_shown_but_not_one_more():
    both = (Handful(seat=0, size=SIMPLE), Handful(seat=2, size=SIMPLE))
    deal = four(points=50, handfuls=both)
    assert check_deal(deal, ELEVEN) == []
    # Garde won by 9 with two simple handfuls (20 each, to the winning attack): M = 108.
    assert score_deal(deal, ELEVEN).scores == (324, -108, -108, -108)
    (error,) = check_deal(
        four(points=50, handfuls=(Handful(seat=0, size=SIMPLE), Handful(seat=2, size=DOUBLE))),
        ELEVEN,
    )
    assert error.code == "handfuls.too_many_trumps"
    assert error.message.startswith("These handfuls show 24 trumps, but the game has only 22")


# A house rule set with no triple handful, and no handful at all at 3 players.
NO_TRIPLE = replace(
    FFT,
    name="house-no-triple",
    official=False,
    handful_trumps={
        4: {SIMPLE: 10, DOUBLE: 13},
        5: {SIMPLE: 8, DOUBLE: 10},
    },
)


@pytest.mark.parametrize(
    ("players", "size", "message"),
    [
        (4, TRIPLE, "There is no \u201ctriple\u201d handful at 4 players in this rule set."),
        (3, SIMPLE, "There is no \u201csimple\u201d handful at 3 players in this rule set."),
    ],
)
def test_a_house_rule_set_without_a_handful_refuses_it_by_name(players, size, message):
    deal = Deal(
        players=players,
        taker=0,
        contract=Contract.GARDE,
        oudlers=2,
        points=Decimal(50),
        handfuls=(Handful(seat=1, size=size),),
    )
    errors = check_deal(deal, NO_TRIPLE)
    assert [(e.field, e.code, e.message) for e in errors] == [
        ("handfuls", "handfuls.size", message)
    ]
    assert errors[0].params == {"size": str(size), "players": players}
    # The same deal under FFT is accepted: the handful exists there.
    assert check_deal(deal, FFT) == []

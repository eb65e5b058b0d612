"""Every rejection rule, each with a legal neighbour that is accepted."""

import re
from decimal import Decimal

import pytest

from scoring.engine import (
    FFT,
    Camp,
    Contract,
    Deal,
    Handful,
    HandfulSize,
    InvalidDeal,
    check_deal,
    deal_from_dict,
    get_rule_set,
    score_deal,
)
from scoring.engine import validate as engine_validate

BASE = {
    "players": 4,
    "taker": 0,
    "partner": None,
    "contract": Contract.GARDE,
    "oudlers": 2,
    "points": Decimal(50),
}


def make(**overrides) -> Deal:
    fields = {**BASE, **overrides}
    fields["points"] = Decimal(str(fields["points"]))
    return Deal(**fields)


def h(seat, size):
    return Handful(seat=seat, size=HandfulSize(size))


# (rejected deal, its legal neighbour, field, code)
CASES = {
    "players": (dict(players=6), dict(players=5), "players", "players.range"),
    "taker-outside": (dict(taker=4), dict(taker=3), "taker", "taker.range"),
    "taker-negative": (dict(taker=-1), dict(taker=0), "taker", "taker.range"),
    "partner-at-4": (dict(partner=2), dict(partner=0), "partner", "partner.not_at_table_size"),
    "partner-at-3": (
        dict(players=3, partner=1),
        dict(players=3, partner=None),
        "partner",
        "partner.not_at_table_size",
    ),
    "partner-outside": (
        dict(players=5, partner=5),
        dict(players=5, partner=4),
        "partner",
        "partner.range",
    ),
    "oudlers-high": (dict(oudlers=4), dict(oudlers=3), "oudlers", "oudlers.range"),
    "oudlers-negative": (
        dict(oudlers=-1, points=30),
        dict(oudlers=0, points=30),
        "oudlers",
        "oudlers.range",
    ),
    "points-high": (
        dict(oudlers=3, points=92),
        dict(oudlers=3, points=91),
        "points",
        "points.range",
    ),
    "points-negative": (
        dict(oudlers=0, points=-1),
        dict(oudlers=0, points=0, contract=Contract.GARDE_CONTRE),
        "points",
        "points.range",
    ),
    # The taker's écart (petite, garde) or the dog (garde sans) is the attack's: 6 cards at 3
    # and 4 players, 3 at 5, each worth at least a half point.
    "garde-without-the-ecart": (
        dict(oudlers=0, points=0),
        dict(oudlers=0, points=3),
        "points",
        "points.discard_for_attack",
    ),
    "petite-without-the-ecart": (
        dict(oudlers=0, points=2, contract=Contract.PETITE),
        dict(oudlers=0, points=3, contract=Contract.PETITE),
        "points",
        "points.discard_for_attack",
    ),
    "garde-sans-without-the-dog": (
        dict(oudlers=0, points=2, contract=Contract.GARDE_SANS),
        dict(oudlers=0, points=3, contract=Contract.GARDE_SANS),
        "points",
        "points.discard_for_attack",
    ),
    "garde-sans-at-five-without-the-dog": (
        dict(players=5, partner=1, oudlers=0, points=1, contract=Contract.GARDE_SANS),
        dict(players=5, partner=1, oudlers=0, points="1.5", contract=Contract.GARDE_SANS),
        "points",
        "points.discard_for_attack",
    ),
    "garde-at-three-without-the-ecart": (
        dict(players=3, oudlers=0, points="2.5"),
        dict(players=3, oudlers=0, points=3),
        "points",
        "points.discard_for_attack",
    ),
    # In a garde contre the dog goes to the defence.
    "garde-contre-with-the-dog": (
        dict(oudlers=3, points=91, contract=Contract.GARDE_CONTRE),
        dict(oudlers=3, points=88, contract=Contract.GARDE_CONTRE),
        "points",
        "points.dog_for_defence",
    ),
    "garde-contre-with-the-dog-points": (
        dict(oudlers=3, points=89, contract=Contract.GARDE_CONTRE),
        dict(oudlers=3, points=88, contract=Contract.GARDE_CONTRE),
        "points",
        "points.dog_for_defence",
    ),
    "garde-contre-at-five-with-the-dog": (
        dict(players=5, partner=1, oudlers=3, points=90, contract=Contract.GARDE_CONTRE),
        dict(players=5, partner=1, oudlers=3, points="89.5", contract=Contract.GARDE_CONTRE),
        "points",
        "points.dog_for_defence",
    ),
    # Wrong points are one message: the slam is not judged on points already refused.
    "attack-slam-on-an-empty-ecart": (
        dict(oudlers=0, points=2, contract=Contract.PETITE, slam=Camp.ATTACK),
        dict(oudlers=0, points=3, contract=Contract.PETITE, slam=Camp.DEFENCE),
        "points",
        "points.discard_for_attack",
    ),
    "defence-slam-on-a-garde-contre-with-the-dog": (
        dict(oudlers=3, points=91, contract=Contract.GARDE_CONTRE, slam=Camp.DEFENCE),
        dict(oudlers=0, points=0, contract=Contract.GARDE_CONTRE, slam=Camp.DEFENCE),
        "points",
        "points.dog_for_defence",
    ),
    "garde-contre-slam-with-the-dog": (
        dict(oudlers=3, points=91, contract=Contract.GARDE_CONTRE, slam=Camp.ATTACK),
        dict(oudlers=3, points=88, contract=Contract.GARDE_CONTRE, slam=Camp.ATTACK),
        "points",
        "points.dog_for_defence",
    ),
    "points-quarter": (
        dict(players=3, points="50.25"),
        dict(players=3, points="50.5"),
        "points",
        "points.half",
    ),
    "half-point-at-4": (dict(points="50.5"), dict(points=50), "points", "points.half_at_four"),
    "half-point-at-5-ok": (
        dict(players=5, points="50.25"),
        dict(players=5, points="50.5"),
        "points",
        "points.half",
    ),
    "too-few-for-oudlers": (
        dict(players=3, oudlers=2, points="8.5"),
        dict(players=3, oudlers=2, points=9),
        "points",
        "points.too_few_for_oudlers",
    ),
    "too-many-for-oudlers": (
        dict(players=3, oudlers=0, points=78),
        dict(players=3, oudlers=0, points="77.5"),
        "points",
        "points.too_many_for_oudlers",
    ),
    "two-oudlers-max": (
        dict(oudlers=2, points=87),
        dict(oudlers=2, points=86),
        "points",
        "points.too_many_for_oudlers",
    ),
    "pab-attack-no-oudler": (
        dict(oudlers=0, points=60, petit_au_bout=Camp.ATTACK),
        dict(oudlers=1, points=60, petit_au_bout=Camp.ATTACK),
        "petit_au_bout",
        "petit_au_bout.attack_without_petit",
    ),
    "pab-defence-all-oudlers": (
        dict(oudlers=3, petit_au_bout=Camp.DEFENCE),
        dict(oudlers=2, petit_au_bout=Camp.DEFENCE),
        "petit_au_bout",
        "petit_au_bout.defence_with_all_oudlers",
    ),
    "pab-defence-in-attack-slam": (
        dict(oudlers=2, points=87, slam=Camp.ATTACK, petit_au_bout=Camp.DEFENCE),
        dict(oudlers=2, points=87, slam=Camp.ATTACK, petit_au_bout=Camp.ATTACK),
        "petit_au_bout",
        "petit_au_bout.against_attack_slam",
    ),
    "pab-attack-in-defence-slam": (
        dict(oudlers=1, points=20, slam=Camp.DEFENCE, petit_au_bout=Camp.ATTACK),
        dict(oudlers=1, points=20, slam=Camp.DEFENCE, petit_au_bout=None),
        "petit_au_bout",
        "petit_au_bout.against_defence_slam",
    ),
    "slam-attack-lost": (
        dict(contract=Contract.GARDE_CONTRE, oudlers=1, points=40, slam=Camp.ATTACK),
        dict(contract=Contract.GARDE_CONTRE, oudlers=1, points=51, slam=Camp.ATTACK),
        "slam",
        "slam.attack_lost",
    ),
    "slam-attack-few-points": (
        dict(oudlers=3, points=86, slam=Camp.ATTACK),
        dict(oudlers=3, points=91, slam=Camp.ATTACK),
        "slam",
        "slam.attack_points",
    ),
    "slam-attack-87-needs-2-oudlers": (
        dict(oudlers=3, points=87, slam=Camp.ATTACK),
        dict(oudlers=2, points=87, slam=Camp.ATTACK),
        "slam",
        "slam.attack_points",
    ),
    "slam-garde-contre-dog-to-defence": (
        dict(contract=Contract.GARDE, oudlers=3, points=80, slam=Camp.ATTACK),
        dict(contract=Contract.GARDE_CONTRE, oudlers=3, points=80, slam=Camp.ATTACK),
        "slam",
        "slam.attack_points",
    ),
    "slam-defence-won": (
        dict(oudlers=2, points=41, slam=Camp.DEFENCE),
        dict(oudlers=2, points=40, slam=Camp.DEFENCE),
        "slam",
        "slam.defence_won",
    ),
    "handful-twice": (
        dict(handfuls=(h(1, "simple"), h(1, "simple"))),
        dict(handfuls=(h(1, "simple"), h(2, "simple"))),
        "handfuls",
        "handfuls.twice",
    ),
    "handful-seat": (
        dict(handfuls=(h(4, "simple"),)),
        dict(handfuls=(h(3, "simple"),)),
        "handfuls",
        "handfuls.seat",
    ),
    "handfuls-23-trumps": (
        dict(handfuls=(h(0, "simple"), h(1, "double"))),
        dict(handfuls=(h(0, "simple"), h(1, "simple"))),
        "handfuls",
        "handfuls.too_many_trumps",
    ),
    "handfuls-at-3": (
        dict(players=3, handfuls=(h(0, "simple"), h(1, "simple"))),
        dict(players=3, handfuls=(h(0, "triple"),)),
        "handfuls",
        "handfuls.too_many_trumps",
    ),
    "handfuls-at-5": (
        dict(players=5, handfuls=(h(0, "simple"), h(1, "simple"), h(2, "simple"))),
        dict(players=5, handfuls=(h(0, "simple"), h(1, "double"))),
        "handfuls",
        "handfuls.too_many_trumps",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_rejection_and_its_legal_neighbour(name):
    rejected, neighbour, field, code = CASES[name]
    errors = check_deal(make(**rejected), FFT)
    # One typing mistake, one message: never a cascade from the same field.
    assert [(e.field, e.code) for e in errors] == [(field, code)]
    assert all(e.message and "{" not in e.message for e in errors)
    # The message names the values it is about (what was typed, the bound it broke), and
    # carries each one, so that the web layer can say it again in the user's language.
    template = engine_validate.MESSAGES[code]
    assert set(errors[0].params) == set(re.findall(r"\{(\w+)\}", template))
    for value in errors[0].params.values():
        assert value not in (None, "") and str(value) in errors[0].message
    legal = make(**neighbour)
    assert check_deal(legal, FFT) == []
    assert sum(score_deal(legal).scores) == 0


def test_an_unknown_rule_set_names_the_known_ones():
    with pytest.raises(KeyError, match=r"unknown rule set 'pousse'; known: fft, house-handfuls"):
        get_rule_set("pousse")


def test_fft_example_5_slam_with_87_points_and_2_oudlers_is_legal():
    assert check_deal(make(oudlers=2, points=87, slam=Camp.ATTACK, slam_announced=True), FFT) == []


def test_one_error_per_problem_all_reported():
    errors = check_deal(make(taker=7, oudlers=5, points="40.5"), FFT)
    assert {e.field for e in errors} == {"taker", "oudlers", "points"}


def test_score_deal_raises_with_every_error():
    with pytest.raises(InvalidDeal) as raised:
        score_deal(make(oudlers=9))
    assert [e.code for e in raised.value.errors] == ["oudlers.range"]


def test_half_point_message_says_it_is_a_counting_error():
    (error,) = check_deal(make(points="50.5"), FFT)
    assert "counting error" in error.message and "50.5" in error.message


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"players": 4, "taker": 0, "oudlers": 1, "points": 40}, "contract", "input.required"),
        (
            {**{"players": 4, "taker": 0, "oudlers": 1, "points": 40}, "contract": "pousse"},
            "contract",
            "input.choice",
        ),
        (
            {"players": 4, "taker": 0, "contract": "garde", "oudlers": 1, "points": "forty"},
            "points",
            "input.number",
        ),
        (
            {"players": 4, "taker": 0, "contract": "garde", "oudlers": 1.5, "points": 40},
            "oudlers",
            "input.integer",
        ),
        (
            {
                "players": 4,
                "taker": 0,
                "contract": "garde",
                "oudlers": 1,
                "points": 40,
                "handfuls": [{"seat": 0, "size": "huge"}],
            },
            "handfuls",
            "input.choice",
        ),
        (
            {
                "players": 4,
                "taker": 0,
                "contract": "garde",
                "oudlers": 1,
                "points": 40,
                "slam_announced": "yes",
            },
            "slam_announced",
            "input.boolean",
        ),
    ],
)
def test_unreadable_json_fields_are_named(data, field, code):
    with pytest.raises(InvalidDeal) as raised:
        deal_from_dict(data)
    assert (field, code) in [(e.field, e.code) for e in raised.value.errors]


def test_points_as_string_with_half():
    parsed = deal_from_dict(
        {"players": 3, "taker": 0, "contract": "petite", "oudlers": 2, "points": "40.5"}
    )
    assert parsed.points == Decimal("40.5")

"""Invariants over every valid deal (hypothesis)."""

from decimal import Decimal

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    FFT,
    RULE_SETS,
    Camp,
    Contract,
    Deal,
    Handful,
    HandfulSize,
    InvalidDeal,
    check_deal,
    deal_from_dict,
    deal_to_dict,
    score_deal,
)

camps = st.sampled_from([None, Camp.ATTACK, Camp.DEFENCE])


@st.composite
def any_deal(draw, players=None):
    """Deals drawn over (and a little beyond) every field's range: valid or not."""
    players = players or draw(st.sampled_from([3, 4, 5]))
    halves = draw(st.integers(min_value=-2, max_value=184))
    handful_seats = draw(st.lists(st.integers(0, players - 1), max_size=3))
    return Deal(
        players=players,
        taker=draw(st.integers(0, players - 1)),
        partner=draw(st.none() | st.integers(0, players - 1)) if players == 5 else None,
        contract=draw(st.sampled_from(list(Contract))),
        oudlers=draw(st.integers(0, 3)),
        points=Decimal(halves) / 2,
        handfuls=tuple(
            Handful(seat=s, size=draw(st.sampled_from(list(HandfulSize)))) for s in handful_seats
        ),
        petit_au_bout=draw(camps),
        slam_announced=draw(st.booleans()),
        slam=draw(camps),
    )


@st.composite
def valid_deal(draw, players=None):
    """Deals built inside the rules (so few are filtered out): the invariants' inputs."""
    players = players or draw(st.sampled_from([3, 4, 5]))
    oudlers = draw(st.integers(0, 3))
    contract = draw(st.sampled_from(list(Contract)))
    # Each oudler held brings 4.5, each one missing leaves 4.5 to the defence; the dog
    # (6 cards, 3 at 5 players, each worth at least 0.5) is the defence's in a garde contre,
    # the attack's otherwise (the écart, or the dog itself in a garde sans).
    in_dog = Decimal("0.5") * (3 if players == 5 else 6)
    low = Decimal("4.5") * oudlers
    high = Decimal(91) - Decimal("4.5") * (3 - oudlers)
    if contract == Contract.GARDE_CONTRE:
        high = min(high, Decimal(91) - in_dog)
    else:
        low = max(low, in_dog)
    if players == 4:  # whole points only
        points = Decimal(draw(st.integers(int(low.to_integral_value("ROUND_CEILING")), int(high))))
    else:
        points = Decimal(draw(st.integers(int(low * 2), int(high * 2)))) / 2
    camps_for_pab = (
        [None] + ([Camp.ATTACK] if oudlers else []) + ([Camp.DEFENCE] if oudlers < 3 else [])
    )
    slam = None
    won = points >= FFT.thresholds[oudlers]
    slam_choice = draw(st.sampled_from(["none"] * 6 + ["attack", "defence"]))
    if slam_choice == "attack" and won:
        if contract == Contract.GARDE_CONTRE:
            slam = Camp.ATTACK
        elif oudlers in FFT.slam_points_by_oudlers:
            slam, points = Camp.ATTACK, FFT.slam_points_by_oudlers[oudlers]
    elif slam_choice == "defence" and not won:
        slam = Camp.DEFENCE
    if slam is not None:
        # The slam's camp wins the last trick: only its petit au bout is possible.
        camps_for_pab = [c for c in camps_for_pab if c in (None, slam)]
    seats = draw(st.lists(st.integers(0, players - 1), max_size=2, unique=True))
    handfuls = []
    trumps_left = FFT.trumps_in_game  # the handfuls of one deal share the 22 trumps
    for seat in seats:
        sizes = [s for s, n in FFT.handful_trumps[players].items() if n <= trumps_left]
        if sizes:
            size = draw(st.sampled_from(sizes))
            trumps_left -= FFT.handful_trumps[players][size]
            handfuls.append(Handful(seat=seat, size=size))
    return Deal(
        players=players,
        taker=draw(st.integers(0, players - 1)),
        partner=draw(st.none() | st.integers(0, players - 1)) if players == 5 else None,
        contract=contract,
        oudlers=oudlers,
        points=points,
        handfuls=tuple(handfuls),
        petit_au_bout=draw(st.sampled_from(camps_for_pab)),
        slam_announced=draw(st.booleans()),
        slam=slam,
    )


def test_the_valid_strategy_mostly_builds_valid_deals():
    """Guard against a strategy that silently filters everything away."""
    from hypothesis import find

    find(valid_deal(), lambda d: not check_deal(d, FFT) and d.slam is not None)
    find(valid_deal(players=4), lambda d: not check_deal(d, FFT) and len(d.handfuls) == 2)


@settings(max_examples=500)
@given(valid_deal())
def test_every_deal_built_inside_the_rules_is_accepted_from_every_seat(deal):
    """No assume() here: a validator that refuses a legal deal fails this test, whoever took,
    whoever was called, under every rule set."""
    partners = [None, *range(deal.players)] if deal.players == 5 else [None]
    for taker in range(deal.players):
        for partner in partners:
            seated = Deal(**{**deal.__dict__, "taker": taker, "partner": partner})
            for name, rules in RULE_SETS.items():
                assert check_deal(seated, rules) == [], (name, seated)
                assert sum(score_deal(seated, rules).scores) == 0


def valid(deal: Deal) -> bool:
    return not check_deal(deal, FFT)


@settings(max_examples=600)
@given(valid_deal(), st.sampled_from(sorted(RULE_SETS)))
def test_every_valid_deal_sums_to_zero(deal, rule_set):
    rules = RULE_SETS[rule_set]
    assume(not check_deal(deal, rules))
    result = score_deal(deal, rules)
    assert sum(result.scores) == 0
    assert len(result.scores) == deal.players
    assert all(isinstance(s, int) for s in result.scores)


@settings(max_examples=400)
@given(valid_deal(players=4))
def test_at_four_players_the_taker_scores_minus_three_times_each_defender(deal):
    assume(valid(deal))
    scores = score_deal(deal).scores
    defenders = [s for seat, s in enumerate(scores) if seat != deal.taker]
    assert len(set(defenders)) == 1
    assert scores[deal.taker] == -3 * defenders[0]


@settings(max_examples=400)
@given(valid_deal(), st.integers(1, 20))
def test_more_card_points_never_lower_the_takers_score(deal, extra_halves):
    more = Deal(**{**deal.__dict__, "points": deal.points + Decimal(extra_halves) / 2})
    assume(valid(deal) and valid(more))
    assert score_deal(more).scores[deal.taker] >= score_deal(deal).scores[deal.taker]


@settings(max_examples=400)
@given(any_deal())
def test_invalid_deals_raise_with_named_fields_never_crash(deal):
    errors = check_deal(deal, FFT)
    if errors:
        try:
            score_deal(deal)
        except InvalidDeal as invalid:
            assert invalid.errors == errors
        else:
            raise AssertionError("an invalid deal was scored")
        fields = {
            "players",
            "taker",
            "partner",
            "oudlers",
            "points",
            "petit_au_bout",
            "slam",
            "handfuls",
        }
        assert {e.field for e in errors} <= fields


@settings(max_examples=400)
@given(any_deal())
def test_petit_au_bout_against_the_slam_camp_is_always_refused(deal):
    """The camp that makes a slam wins the last trick: a deal giving the other camp the petit
    au bout is refused, with the petit au bout named, whatever else is right or wrong."""
    errors = check_deal(deal, FFT)
    against = (
        deal.slam is not None and deal.petit_au_bout is not None and deal.petit_au_bout != deal.slam
    )
    named = [e for e in errors if e.code.startswith("petit_au_bout.against_")]
    assert bool(named) == against
    if against:
        assert named[0].field == "petit_au_bout"
        assert (deal.slam == Camp.ATTACK) == (named[0].code.endswith("attack_slam"))
        try:
            score_deal(deal)
        except InvalidDeal:
            pass
        else:
            raise AssertionError("a slam with the other camp's petit au bout was scored")


@settings(max_examples=300)
@given(any_deal())
def test_json_form_round_trips(deal):
    assert deal_from_dict(deal_to_dict(deal)) == deal


@settings(max_examples=300)
@given(valid_deal())
def test_the_taker_gains_exactly_when_the_amount_is_positive(deal):
    assume(valid(deal))
    result = score_deal(deal)
    e = result.explanation
    assert e.amount == e.contract_points + e.petit_au_bout + e.handful_points + e.slam_points
    assert (result.scores[deal.taker] > 0) == (e.amount > 0)

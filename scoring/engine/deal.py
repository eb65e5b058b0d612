"""Score one deal under a rule set: the official zero-sum score of every seat, explained."""

from __future__ import annotations

import math

from .rules import DEFAULT_RULE_SET, RuleSet
from .types import Camp, Deal, DealResult, Explanation, HandfulLine, InvalidDeal
from .validate import check_deal


def score_deal(deal: Deal, rules: RuleSet = DEFAULT_RULE_SET) -> DealResult:
    """Return every seat's score and how it was computed, or raise :class:`InvalidDeal`.

    The amount M that each defender pays is the contract ((base + difference) × multiplier,
    signed by the result), petit au bout (× multiplier, to the camp that took it whatever the
    result), handfuls (to the camp that wins the contract) and slam. The attack receives M from
    every defender, shared between taker and partner, so every deal sums to zero.
    """
    errors = check_deal(deal, rules)
    if errors:
        raise InvalidDeal(errors)

    threshold = rules.thresholds[deal.oudlers]
    won = deal.points >= threshold
    # At 3 and 5 players a half point goes to the winning camp: 40.5 for 41 fails by 1.
    difference = math.ceil(abs(deal.points - threshold))
    multiplier = rules.multipliers[deal.contract]
    result_sign = 1 if won else -1

    contract_points = result_sign * (rules.contract_base + difference) * multiplier

    petit_au_bout = 0
    if deal.petit_au_bout is not None:
        camp_sign = 1 if deal.petit_au_bout == Camp.ATTACK else -1
        petit_au_bout = camp_sign * rules.petit_au_bout * multiplier

    trumps_by_size = rules.handful_trumps[deal.players]
    handfuls = tuple(
        HandfulLine(
            seat=h.seat,
            size=h.size,
            trumps=trumps_by_size[h.size],
            bonus=result_sign * rules.handful_bonus[h.size],
        )
        for h in deal.handfuls
    )
    handful_points = sum(h.bonus for h in handfuls)

    slam_points = 0
    if deal.slam == Camp.ATTACK:
        slam_points = (
            rules.slam_announced_made if deal.slam_announced else rules.slam_unannounced_made
        )
    elif deal.slam_announced:
        slam_points = rules.slam_announced_failed
    if deal.slam == Camp.DEFENCE:
        slam_points -= rules.slam_by_defence

    amount = contract_points + petit_au_bout + handful_points + slam_points
    taker_share, partner_share = rules.shares(deal.players, deal.plays_alone)
    scores = [-amount] * deal.players
    scores[deal.taker] = taker_share * amount
    if partner_share:
        scores[deal.partner] = partner_share * amount  # type: ignore[index]

    explanation = Explanation(
        rule_set=rules.name,
        won=won,
        threshold=threshold,
        points=deal.points,
        difference=difference,
        multiplier=multiplier,
        contract_base=rules.contract_base,
        contract_points=contract_points,
        petit_au_bout=petit_au_bout,
        handfuls=handfuls,
        handful_points=handful_points,
        slam_points=slam_points,
        amount=amount,
        taker_share=taker_share,
        partner_share=partner_share,
        defender_count=len(deal.defence_seats),
    )
    return DealResult(scores=tuple(scores), explanation=explanation)

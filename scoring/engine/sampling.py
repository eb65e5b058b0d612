"""Random *legal* deals, for demonstrations, benchmarks and tests (plain Python)."""

from __future__ import annotations

import random
from decimal import Decimal

from .rules import DEFAULT_RULE_SET, RuleSet
from .types import Camp, Contract, Deal, Handful, HandfulSize
from .validate import check_deal

_CONTRACTS = (
    [Contract.PETITE] * 45
    + [Contract.GARDE] * 40
    + [Contract.GARDE_SANS] * 10
    + [Contract.GARDE_CONTRE] * 5
)
_OUDLERS = [0] * 10 + [1] * 35 + [2] * 40 + [3] * 15


def random_legal_deal(
    rng: random.Random, players: int = 4, rules: RuleSet = DEFAULT_RULE_SET
) -> Deal:
    """A plausible deal (threshold ± a spread, occasional bonuses) that the rules accept."""
    while True:
        oudlers = rng.choice(_OUDLERS)
        threshold = rules.thresholds[oudlers]
        points = Decimal(max(0, min(91, round(rng.gauss(threshold + 2, 9)))))
        if players != 4 and rng.random() < 0.3:
            points += Decimal("0.5")
        handfuls = ()
        if rng.random() < 0.08:
            handfuls = (Handful(seat=rng.randrange(players), size=HandfulSize.SIMPLE),)
        petit_au_bout = None
        if rng.random() < 0.06:
            petit_au_bout = rng.choice([Camp.ATTACK, Camp.DEFENCE])
        partner = rng.randrange(players) if players == 5 else None
        deal = Deal(
            players=players,
            taker=rng.randrange(players),
            partner=partner,
            contract=rng.choice(_CONTRACTS),
            oudlers=oudlers,
            points=points,
            handfuls=handfuls,
            petit_au_bout=petit_au_bout,
        )
        if not check_deal(deal, rules):
            return deal

"""Rule sets: every number the scoring uses, by name.

The FFT rule set is the default. A club's house variant is another :class:`RuleSet` instance
registered in :data:`RULE_SETS`; the scoring code never changes for it, and the rule set's name
travels with every result so that a sheet always says how it was scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from types import MappingProxyType

from .i18n import gettext_noop
from .types import Contract, HandfulSize


def _frozen(mapping: dict) -> Mapping:
    return MappingProxyType(mapping)


@dataclass(frozen=True)
class RuleSet:
    name: str
    label: str  # shown in the interface, translated (an English msgid)
    document_label: str  # printed on score sheets and fingerprinted: never changes
    official: bool
    multipliers: Mapping[Contract, int]
    thresholds: Mapping[int, int]  # card points the attack needs, by oudlers held
    contract_base: int
    petit_au_bout: int  # multiplied by the contract
    handful_bonus: Mapping[HandfulSize, int]  # not multiplied
    handful_trumps: Mapping[int, Mapping[HandfulSize, int]]  # by number of players
    slam_announced_made: int
    slam_unannounced_made: int
    slam_announced_failed: int  # paid by the attack, whatever the contract's result
    slam_by_defence: int  # received by each defender on top of the normal score
    total_points: Decimal = Decimal(91)
    oudler_value: Decimal = Decimal("4.5")
    trumps_in_game: int = 22  # 21 trumps and the excuse
    # The dog (chien) by number of players, and the least any card is worth: the taker's
    # écart (petite, garde) or the dog (garde sans) counts for the attack, and in a garde
    # contre the dog goes to the defence, so no pile can be empty of points.
    dog_cards: Mapping[int, int] = field(default_factory=lambda: _frozen({3: 6, 4: 6, 5: 3}))
    lowest_card_value: Decimal = Decimal("0.5")
    # Outside garde contre, an attack slam takes every card but the excuse it may have left with
    # the defence (which then gives back a half-point card): 91 with 3 oudlers, 87 with 2.
    slam_points_by_oudlers: Mapping[int, Decimal] = field(
        default_factory=lambda: _frozen({3: Decimal(91), 2: Decimal(87)})
    )

    def shares(self, players: int, alone: bool) -> tuple[int, int]:
        """(taker share, partner share) as multiples of the amount per defender."""
        if players == 3:
            return 2, 0
        if players == 4:
            return 3, 0
        return (4, 0) if alone else (2, 1)


FFT = RuleSet(
    name="fft",
    label=gettext_noop("FFT (official rules)"),
    document_label="FFT (règlement officiel)",
    official=True,
    multipliers=_frozen(
        {
            Contract.PETITE: 1,
            Contract.GARDE: 2,
            Contract.GARDE_SANS: 4,
            Contract.GARDE_CONTRE: 6,
        }
    ),
    thresholds=_frozen({0: 56, 1: 51, 2: 41, 3: 36}),
    contract_base=25,
    petit_au_bout=10,
    handful_bonus=_frozen({HandfulSize.SIMPLE: 20, HandfulSize.DOUBLE: 30, HandfulSize.TRIPLE: 40}),
    handful_trumps=_frozen(
        {
            3: _frozen({HandfulSize.SIMPLE: 13, HandfulSize.DOUBLE: 15, HandfulSize.TRIPLE: 18}),
            4: _frozen({HandfulSize.SIMPLE: 10, HandfulSize.DOUBLE: 13, HandfulSize.TRIPLE: 15}),
            5: _frozen({HandfulSize.SIMPLE: 8, HandfulSize.DOUBLE: 10, HandfulSize.TRIPLE: 13}),
        }
    ),
    slam_announced_made=400,
    slam_unannounced_made=200,
    slam_announced_failed=-200,
    slam_by_defence=200,
)

# A house variant some clubs play; never the default, always named on the sheet.
HANDFULS_20_40_60 = replace(
    FFT,
    name="house-handfuls-20-40-60",
    label=gettext_noop("House rules: handfuls 20/40/60 (not FFT)"),
    document_label="Maison : poignées 20/40/60 (non FFT)",
    official=False,
    handful_bonus=_frozen({HandfulSize.SIMPLE: 20, HandfulSize.DOUBLE: 40, HandfulSize.TRIPLE: 60}),
)

RULE_SETS: Mapping[str, RuleSet] = _frozen({r.name: r for r in (FFT, HANDFULS_20_40_60)})
DEFAULT_RULE_SET = FFT


def get_rule_set(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        raise KeyError(f"unknown rule set {name!r}; known: {', '.join(RULE_SETS)}") from None

"""The vocabulary of one deal, in plain Python.

Glossary (code word — French UI word — meaning). These words are used the same way everywhere in
the project: models, services, forms, templates and documents.

- deal — donne: one hand, from dealing to the last trick.
- round — position / séance: a block of deals after which players change tables.
- table — table; seat — place: Nord, Est, Sud, Ouest (N, E, S, O) and, at a table of 5, the
  fifth seat — Cinquième (5e), the one name every page and document uses.
- taker — preneur: won the bidding; plays alone, or with a called partner at 5 players.
- partner — partenaire (appelé): at 5 players, the holder of the called king.
- attack — attaque: the taker (and partner); defence — défense: everybody else.
- contract — contrat: petite, garde, garde sans (le chien), garde contre (le chien).
- oudlers — bouts: the petit (1 of trumps), the 21 and the excuse held by the attack at the end.
- card points — points: what the attack's pile is worth, 0 to 91, in half points at 3 and 5.
- handful — poignée: simple / double / triple, shown by any one player.
- petit au bout — petit au bout: the petit in the last trick.
- slam — chelem: one camp wins every trick; the taker may announce it.
- score sheet — feuille de marque: one per table and round; round total — bilan.
- dead seat — le mort: at a table of 5 in a 4-player game the dealer sits the deal out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum


class Contract(StrEnum):
    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


class Camp(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"


class HandfulSize(StrEnum):
    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"


@dataclass(frozen=True)
class Handful:
    seat: int
    size: HandfulSize


@dataclass(frozen=True)
class Deal:
    """What a table reports about one deal: the inputs of the score, nothing derived.

    Seats are numbered 0..players-1 in playing order. ``partner`` is only meaningful at 5 players:
    ``None`` (or the taker's own seat) means the taker plays alone.
    """

    players: int
    taker: int
    contract: Contract
    oudlers: int
    points: Decimal
    partner: int | None = None
    handfuls: tuple[Handful, ...] = ()
    petit_au_bout: Camp | None = None
    slam_announced: bool = False
    slam: Camp | None = None

    @property
    def plays_alone(self) -> bool:
        return self.partner is None or self.partner == self.taker

    @property
    def attack_seats(self) -> tuple[int, ...]:
        if self.plays_alone:
            return (self.taker,)
        return (self.taker, self.partner)  # type: ignore[return-value]

    @property
    def defence_seats(self) -> tuple[int, ...]:
        attack = set(self.attack_seats)
        return tuple(seat for seat in range(self.players) if seat not in attack)


@dataclass(frozen=True)
class DealError:
    """One reason a deal is impossible.

    ``code`` is stable (tests and translations key on it), ``field`` names the input at fault and
    ``message`` is the English sentence, already formatted with ``params``.
    """

    field: str
    code: str
    message: str
    params: dict = field(default_factory=dict, compare=False)


class InvalidDeal(ValueError):
    """Raised by :func:`score_deal` for an impossible deal; carries every error found."""

    def __init__(self, errors: list[DealError]):
        self.errors = errors
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in errors))


@dataclass(frozen=True)
class HandfulLine:
    seat: int
    size: HandfulSize
    trumps: int
    bonus: int


@dataclass(frozen=True)
class Explanation:
    """Every step from the inputs to the amount each defender pays, for people to check.

    Signed amounts are seen from the attack: positive when the attack gains.
    """

    rule_set: str
    won: bool
    threshold: int
    points: Decimal
    difference: int
    multiplier: int
    contract_base: int
    contract_points: int
    petit_au_bout: int
    handfuls: tuple[HandfulLine, ...]
    handful_points: int
    slam_points: int
    amount: int  # M: what each defender pays (negative: receives)
    taker_share: int  # how many times M the taker scores
    partner_share: int  # how many times M the partner scores (0 when none)
    defender_count: int

    def as_dict(self) -> dict:
        return {
            "rule_set": self.rule_set,
            "won": self.won,
            "threshold": self.threshold,
            "points": str(self.points),
            "difference": self.difference,
            "multiplier": self.multiplier,
            "contract_base": self.contract_base,
            "contract_points": self.contract_points,
            "petit_au_bout": self.petit_au_bout,
            "handfuls": [
                {"seat": h.seat, "size": str(h.size), "trumps": h.trumps, "bonus": h.bonus}
                for h in self.handfuls
            ],
            "handful_points": self.handful_points,
            "slam_points": self.slam_points,
            "amount_per_defender": self.amount,
            "taker_share": self.taker_share,
            "partner_share": self.partner_share,
            "defender_count": self.defender_count,
        }


@dataclass(frozen=True)
class DealResult:
    scores: tuple[int, ...]  # one per seat, in seat order; they sum to zero
    explanation: Explanation

"""A stored deal's scores at its table, and how many deals a table plays.

Shared by the services (which store scores) and the selectors, pages and archive (which read or
check them): the engine applied to the table positions of a stored :class:`~scoring.models.Deal`.
"""

from __future__ import annotations

from scoring.engine import (
    Camp,
    Contract,
    DealError,
    Handful,
    HandfulSize,
    InvalidDeal,
    get_rule_set,
    score_deal,
)
from scoring.engine import Deal as EngineDeal
from scoring.engine.table import active_positions, game_players
from scoring.models import Deal
from tournaments.models import Tournament

# Deals nobody played: everybody passed, or a misdeal (dealt again). They score 0 for all.
UNPLAYED = (Deal.Kind.PASSED, Deal.Kind.MISDEAL)


def deal_quota(tournament: Tournament, size: int) -> int:
    """The deals a table of ``size`` plays in a round."""
    return tournament.deals_at_table(size)


def counted(deals, tournament: Tournament) -> int:
    """How many of ``deals`` count toward the quota (passed deals only if the tournament says;
    a misdeal never: it is dealt again)."""
    return sum(
        1
        for d in deals
        if d.kind not in UNPLAYED or (d.kind == Deal.Kind.PASSED and tournament.passed_deals_count)
    )


def to_engine(deal: Deal, size: int) -> EngineDeal:
    """The stored inputs (table positions) as the engine's deal (seats of the active players)."""
    active = active_positions(size, deal.dealer)
    seat = {position: index for index, position in enumerate(active)}
    return EngineDeal(
        players=game_players(size),
        taker=seat.get(deal.taker, -1),
        partner=None,
        contract=Contract(deal.contract),
        oudlers=deal.oudlers,
        points=deal.points,
        handfuls=tuple(
            Handful(seat=seat.get(h["seat"], -1), size=HandfulSize(h["size"]))
            for h in deal.handfuls
        ),
        petit_au_bout=Camp(deal.petit_au_bout) if deal.petit_au_bout else None,
        slam_announced=deal.slam_announced,
        slam=Camp(deal.slam) if deal.slam else None,
    )


RULING_LIMIT = 100_000  # far above any deal (a slam garde contre scores under 5,000)


def ruling_error(scores, size: int, dealer: int) -> str | None:
    """Why ``scores`` (by table position) cannot be a referee's ruling, or None: one whole
    number per seat, each within ±100,000, summing to zero, 0 for the seat sitting out."""
    if not isinstance(scores, list) or len(scores) != size:
        return "ruling.seats"
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        return "ruling.seats"
    if any(abs(s) > RULING_LIMIT for s in scores):
        return "ruling.range"
    if size == 5 and scores[dealer] != 0:
        return "ruling.sitting_out"
    if sum(scores) != 0:
        return "ruling.sum"
    return None


def deal_scores(deal: Deal, size: int, rule_set: str) -> list[int]:
    """Every table position's score for a stored deal (0 for the sitting-out seat).

    A referee's ruling has no inputs to score: its typed scores are returned when they still
    make a ruling at this table (a dealer moved by an earlier correction may not)."""
    if deal.kind in UNPLAYED:
        return [0] * size
    if deal.kind == Deal.Kind.RULING:
        code = ruling_error(deal.scores, size, deal.dealer)
        if code is not None:
            raise InvalidDeal([DealError(field="scores", code=code, message=code, params={})])
        return list(deal.scores)
    result = score_deal(to_engine(deal, size), get_rule_set(rule_set))
    scores = [0] * size
    for index, position in enumerate(active_positions(size, deal.dealer)):
        scores[position] = result.scores[index]
    return scores


def score_rows(deal: Deal, size: int, rules) -> list[tuple[int, bool, bool, bool]]:
    """What one deal gives each table position: (points, played, took, made).

    The per-player Score rows and the seats' results are both made of these.
    """
    active = active_positions(size, deal.dealer)
    played = deal.kind not in UNPLAYED
    ruled = deal.kind == Deal.Kind.RULING  # no taker: nobody took or made a contract
    won = played and not ruled and deal.points >= rules.thresholds[deal.oudlers]
    return [
        (
            deal.scores[position],
            played and position in active,
            played and not ruled and position == deal.taker,
            won and position == deal.taker,
        )
        for position in range(size)
    ]

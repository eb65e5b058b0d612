"""Every reason a reported deal cannot have happened.

:func:`check_deal` returns one :class:`DealError` per problem (never stops at the first), each
naming the input field at fault. Rules are checked only when the fields they read are themselves
valid, so one typing mistake gives one message, not a cascade.

Messages are English templates; the web layer translates them through Django's catalogue, which is
why they are wrapped in ``gettext_noop`` (a marker for ``makemessages`` that does nothing here).
"""

from __future__ import annotations

from decimal import Decimal

from .i18n import gettext_noop
from .rules import RuleSet
from .shown import shown_number
from .types import Camp, Contract, Deal, DealError

MESSAGES: dict[str, str] = {
    "players.range": gettext_noop("A deal is played by 3, 4 or 5 players, not {players}."),
    "taker.range": gettext_noop("The taker must be one of the {players} seats at the table."),
    "partner.not_at_table_size": gettext_noop(
        "A partner is only called at 5 players; at {players} players the taker plays alone."
    ),
    "partner.range": gettext_noop("The called partner must be one of the {players} seats."),
    "oudlers.range": gettext_noop("The attack holds 0, 1, 2 or 3 oudlers, not {oudlers}."),
    "points.range": gettext_noop("Card points go from 0 to 91, not {points}."),
    "points.half": gettext_noop(
        "Card points are counted in half points: {points} is not possible."
    ),
    "points.half_at_four": gettext_noop(
        "At 4 players the taker's points are always a whole number: {points} is a counting "
        "error, count the cards again."
    ),
    "points.too_few_for_oudlers": gettext_noop(
        "With {oudlers} oudler(s) the attack has at least {minimum} points (each oudler is worth "
        "4.5), not {points}."
    ),
    "points.too_many_for_oudlers": gettext_noop(
        "With only {oudlers} oudler(s) the attack has at most {maximum} points (each missing "
        "oudler leaves 4.5 to the defence), not {points}."
    ),
    "points.discard_for_attack": gettext_noop(
        "The taker's discard (petite, garde) or the dog (garde sans) counts for the attack: "
        "{cards} cards, at least {minimum} points, not {points}."
    ),
    "points.dog_for_defence": gettext_noop(
        "In a garde contre the dog goes to the defence ({cards} cards, at least {minimum} "
        "points): the attack has at most {maximum} points, not {points}."
    ),
    "petit_au_bout.attack_without_petit": gettext_noop(
        "The attack cannot take the petit au bout without holding any oudler: the petit would be "
        "in its pile."
    ),
    "petit_au_bout.defence_with_all_oudlers": gettext_noop(
        "The defence cannot take the petit au bout when the attack ends with all 3 oudlers."
    ),
    "petit_au_bout.against_attack_slam": gettext_noop(
        "The attack made the slam, so it won the last trick: the petit au bout cannot go to the "
        "defence."
    ),
    "petit_au_bout.against_defence_slam": gettext_noop(
        "The defence made the slam, so it won the last trick: the petit au bout cannot go to the "
        "attack."
    ),
    "slam.attack_lost": gettext_noop(
        "The attack cannot win every trick and still lose the contract."
    ),
    "slam.attack_points": gettext_noop(
        "A slam by the attack takes every card: 91 points with 3 oudlers, or 87 with 2 when the "
        "defence kept the excuse — not {points} with {oudlers} oudler(s)."
    ),
    "slam.defence_won": gettext_noop(
        "The defence cannot win every trick while the taker wins the contract."
    ),
    "handfuls.seat": gettext_noop("A handful was shown by seat {seat}, which is not at the table."),
    "handfuls.twice": gettext_noop("Seat {seat} showed two handfuls; a player shows at most one."),
    "handfuls.size": gettext_noop(
        "There is no “{size}” handful at {players} players in this rule set."
    ),
    "handfuls.too_many_trumps": gettext_noop(
        "These handfuls show {trumps} trumps, but the game has only {available} (21 trumps and "
        "the excuse)."
    ),
}


def _error(field: str, code: str, **params) -> DealError:
    return DealError(field=field, code=code, message=MESSAGES[code].format(**params), params=params)


def _fmt(points: Decimal) -> str:
    return shown_number(points)


def check_deal(deal: Deal, rules: RuleSet) -> list[DealError]:
    errors: list[DealError] = []
    players = deal.players
    if players not in (3, 4, 5):
        return [_error("players", "players.range", players=shown_number(players))]

    if not 0 <= deal.taker < players:
        errors.append(_error("taker", "taker.range", players=players))
    if deal.partner is not None and deal.partner != deal.taker:
        if players != 5:
            errors.append(_error("partner", "partner.not_at_table_size", players=players))
        elif not 0 <= deal.partner < players:
            errors.append(_error("partner", "partner.range", players=players))

    oudlers_ok = 0 <= deal.oudlers <= 3
    if not oudlers_ok:
        errors.append(_error("oudlers", "oudlers.range", oudlers=shown_number(deal.oudlers)))

    points = deal.points
    points_ok = True
    if not Decimal(0) <= points <= rules.total_points:
        errors.append(_error("points", "points.range", points=_fmt(points)))
        points_ok = False
    elif (points * 2) % 1:
        errors.append(_error("points", "points.half", points=_fmt(points)))
        points_ok = False
    elif players == 4 and points % 1:
        errors.append(_error("points", "points.half_at_four", points=_fmt(points)))
        points_ok = False

    attack_slam = deal.slam == Camp.ATTACK
    dog_to_defence = deal.contract == Contract.GARDE_CONTRE
    if oudlers_ok and points_ok:
        minimum = rules.oudler_value * deal.oudlers
        maximum = rules.total_points - rules.oudler_value * (3 - deal.oudlers)
        if attack_slam and not dog_to_defence:
            maximum = max(maximum, rules.slam_points_by_oudlers.get(deal.oudlers, maximum))
        if points < minimum:
            errors.append(
                _error(
                    "points",
                    "points.too_few_for_oudlers",
                    oudlers=deal.oudlers,
                    minimum=_fmt(minimum),
                    points=_fmt(points),
                )
            )
            points_ok = False
        elif points > maximum:
            errors.append(
                _error(
                    "points",
                    "points.too_many_for_oudlers",
                    oudlers=deal.oudlers,
                    maximum=_fmt(maximum),
                    points=_fmt(points),
                )
            )
            points_ok = False
        else:
            points_ok = _check_dog(deal, rules, errors)

    if oudlers_ok:
        if deal.petit_au_bout == Camp.ATTACK and deal.oudlers == 0:
            errors.append(_error("petit_au_bout", "petit_au_bout.attack_without_petit"))
        if deal.petit_au_bout == Camp.DEFENCE and deal.oudlers == 3:
            errors.append(_error("petit_au_bout", "petit_au_bout.defence_with_all_oudlers"))
    # The camp that makes a slam wins the last trick (or leads the excuse to it, leaving the
    # petit au bout in the trick before): the petit au bout can only be that camp's.
    if deal.slam is not None and deal.petit_au_bout is not None and deal.petit_au_bout != deal.slam:
        code = (
            "petit_au_bout.against_attack_slam"
            if deal.slam == Camp.ATTACK
            else "petit_au_bout.against_defence_slam"
        )
        errors.append(_error("petit_au_bout", code))

    if oudlers_ok and points_ok and deal.slam is not None:
        won = points >= rules.thresholds[deal.oudlers]
        if attack_slam and not won:
            errors.append(_error("slam", "slam.attack_lost"))
        elif (
            attack_slam
            and not dog_to_defence
            and points != rules.slam_points_by_oudlers.get(deal.oudlers)
        ):
            errors.append(
                _error("slam", "slam.attack_points", points=_fmt(points), oudlers=deal.oudlers)
            )
        if deal.slam == Camp.DEFENCE and won:
            errors.append(_error("slam", "slam.defence_won"))

    errors.extend(_check_handfuls(deal, rules))
    return errors


def _check_dog(deal: Deal, rules: RuleSet, errors: list[DealError]) -> bool:
    """The pile the dog (or the écart) lands in holds at least its cards' lowest value."""
    cards = rules.dog_cards[deal.players]
    in_dog = rules.lowest_card_value * cards
    if deal.contract == Contract.GARDE_CONTRE:
        maximum = rules.total_points - in_dog
        if deal.points > maximum:
            errors.append(
                _error(
                    "points",
                    "points.dog_for_defence",
                    cards=cards,
                    minimum=_fmt(in_dog),
                    maximum=_fmt(maximum),
                    points=_fmt(deal.points),
                )
            )
            return False
    elif deal.points < in_dog:
        errors.append(
            _error(
                "points",
                "points.discard_for_attack",
                cards=cards,
                minimum=_fmt(in_dog),
                points=_fmt(deal.points),
            )
        )
        return False
    return True


def _check_handfuls(deal: Deal, rules: RuleSet) -> list[DealError]:
    errors: list[DealError] = []
    sizes = rules.handful_trumps.get(deal.players, {})
    seen: set[int] = set()
    trumps = 0
    for handful in deal.handfuls:
        if not 0 <= handful.seat < deal.players:
            errors.append(_error("handfuls", "handfuls.seat", seat=shown_number(handful.seat)))
        elif handful.seat in seen:
            errors.append(_error("handfuls", "handfuls.twice", seat=handful.seat))
        seen.add(handful.seat)
        if handful.size not in sizes:
            errors.append(
                _error("handfuls", "handfuls.size", size=str(handful.size), players=deal.players)
            )
        else:
            trumps += sizes[handful.size]
    if trumps > rules.trumps_in_game:
        errors.append(
            _error(
                "handfuls",
                "handfuls.too_many_trumps",
                trumps=trumps,
                available=rules.trumps_in_game,
            )
        )
    return errors

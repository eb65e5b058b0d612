"""Score sheets holding a deal of every kind, scored by the engine, for tables of 3, 4 and 5.

Every contract (« Garde contre » included), a slam announced and made, made without an
announcement, made by the defence, announced and failed; handfuls (one, two, triple); petit au
bout by either camp; a passed deal, a deal decided by the referee, a referee's ruling; penalties
of either sign. Long names, as a club's register holds them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

from scoring.documents.data import (
    SheetData,
    SheetDeal,
    SheetHandful,
    SheetPenalty,
    SheetPlayer,
    SheetSignature,
)
from scoring.documents.fingerprint import fingerprint, verification_code
from scoring.engine import Camp, Contract, Deal, Handful, HandfulSize, score_deal

from .conftest import DAY, PLACE, TOURNAMENT

NAMES = [
    "Marie-Christine Delacroix-Vandenberghe",
    "Jean-Baptiste Grandjean-Montmorency",
    "Éloïse de La Rochefoucauld",
    "Maximilien Wojciechowski",
    "Anne-Sophie Lemaire-Œuvray",
]
SEATS = ["N", "E", "S", "O", "5"]
A, D = Camp.ATTACK, Camp.DEFENCE
S, DB, T = HandfulSize.SIMPLE, HandfulSize.DOUBLE, HandfulSize.TRIPLE

# (contract, oudlers, points, extra Deal fields) for the taker in seat 0 of the active seats.
PLAYED = [
    (Contract.PETITE, 1, "45", {}),
    (Contract.GARDE, 2, "49", {"handfuls": ((0, S),), "petit_au_bout": A}),
    (Contract.GARDE_SANS, 2, "40", {"petit_au_bout": D}),
    (Contract.GARDE_CONTRE, 3, "88", {"slam_announced": True, "slam": A}),
    (Contract.GARDE_CONTRE, 3, "88", {"slam": A, "handfuls": ((0, T),)}),
    (Contract.PETITE, 0, "3", {"slam": D}),
    (Contract.GARDE, 2, "60", {"slam_announced": True}),
    (Contract.GARDE_CONTRE, 1, "41", {"handfuls": ((0, S), (1, S)), "petit_au_bout": D}),
]


def _deal(players: int, taker: int, spec, partner=None) -> Deal:
    contract, oudlers, points, extra = spec
    handfuls = tuple(Handful((taker + i) % players, size) for i, size in extra.get("handfuls", ()))
    if players == 3:  # 13 + 13 trumps: two handfuls cannot both be shown at 3 players
        handfuls = handfuls[:1]
    if players == 5 and points == "41":  # half points at 5 players
        points = "40.5"
    fields = {k: v for k, v in extra.items() if k != "handfuls"}
    return Deal(
        players=players,
        taker=taker,
        contract=contract,
        oudlers=oudlers,
        points=Decimal(points),
        partner=partner,
        handfuls=handfuls,
        **fields,
    )


def every_deal_sheet(size: int, *, called: bool = False) -> SheetData:
    """A table of ``size`` (3, 4 or 5) with a deal of every kind. A table of 5 in a 4-player
    game has the dealer sitting out; ``called`` plays the 5-player game with a called king."""
    names = NAMES[:size]
    players = tuple(
        SheetPlayer(seat, name, "Tarot Club de Saint-Germain-en-Laye", f"0{i}23456")
        for i, (seat, name) in enumerate(zip(SEATS, names, strict=False))
    )
    deals: list[SheetDeal] = []
    number = 0
    for spec in PLAYED:
        number += 1
        dealer = (number - 1) % size
        if size == 5 and not called:
            active = [p for p in range(5) if p != dealer]
            game = 4
        else:
            active = list(range(size))
            game = size
        taker = number % game
        partner = (taker + 2) % game if called else None
        deal = _deal(game, taker, spec, partner)
        result = score_deal(deal)
        scores = [0] * size
        for seat, score in zip(active, result.scores, strict=True):
            scores[seat] = score
        deals.append(
            SheetDeal(
                number=number,
                kind="referee" if number == 3 else "played",
                dealer=names[dealer],
                sitting_out=names[dealer] if size == 5 and not called else "",
                taker=names[active[taker]],
                partner=names[active[partner]] if partner is not None else "",
                contract=str(deal.contract),
                oudlers=deal.oudlers,
                points=deal.points,
                handfuls=tuple(
                    SheetHandful(names[active[h.seat]], str(h.size)) for h in deal.handfuls
                ),
                petit_au_bout=str(deal.petit_au_bout or ""),
                slam_announced=deal.slam_announced,
                slam=str(deal.slam or ""),
                scores=tuple(scores),
                note="Carte exposée par le preneur pendant le jeu de la carte"
                if number == 3
                else "",
            )
        )
    number += 1
    deals.append(SheetDeal(number=number, kind="passed", dealer=names[(number - 1) % size]))
    number += 1
    ruling = [120 if i == 0 else 0 for i in range(size)]
    ruling[1] = -120
    deals.append(
        SheetDeal(
            number=number,
            kind="ruling",
            dealer=names[(number - 1) % size],
            scores=tuple(ruling),
            note="Renonce constatée : l'arbitre attribue la donne à la défense",
        )
    )
    at = datetime(2025, 5, 17, 15, 0, tzinfo=UTC)
    data = SheetData(
        tournament=TOURNAMENT,
        tournament_date=DAY,
        place=PLACE,
        round_number=2,
        table_number=17,
        rule_set="FFT (règlement officiel)",
        players=players,
        deals=tuple(deals),
        deals_expected=len(deals),
        penalties=(
            SheetPenalty(names[1], -40, "Retard à la table après l'appel de l'arbitre", "Chloé"),
            SheetPenalty(names[2], 30, "Bonus de l'arbitre", "Chloé"),
        ),
        signatures=tuple(SheetSignature(name, "pin", at) for name in names),
        status="signed",
        referee="Chloé Arbitre",
        verification_url="https://tarot.example.org/verifier/feuille/8f3a2c/",
    )
    fp = fingerprint(data)
    return replace(data, fingerprint=fp, verification_code=verification_code(fp))


def every_deal_sheets() -> list[SheetData]:
    return [
        every_deal_sheet(3),
        every_deal_sheet(4),
        every_deal_sheet(5),
        every_deal_sheet(5, called=True),
    ]

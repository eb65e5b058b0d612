"""A demonstration championship (the Pontarlier funnel) played through the real services:
each stage's tournament is created, its players registered, its rounds seated and every deal
entered; closing each stage registers and seats the next one."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from scoring.demo import CLUBS, FIRST_NAMES, LAST_NAMES, play_round
from tournaments import services
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.championships.models import Championship, Stage
from tournaments.models import Round


@dataclass
class DemoChampionship:
    championship: Championship
    summary: dict


def create_demo_championship(
    *,
    players: int,
    stages: list[int],
    seed: int = 1,
    rounds: int = 2,
    deals: int = 2,
    final_deals: int = 5,
    carry: str = Stage.Carry.HALF,
    created_by=None,
) -> DemoChampionship:
    """``stages``: the field of each stage (the first is ``players``); the last is the final,
    one round of ``final_deals`` deals."""
    rng = random.Random(seed)
    championship = championship_services.championship_create(
        name=f"Championnat de démonstration ({players} joueurs)", created_by=created_by, seed=seed
    )
    day = date.today()
    stage_objects = []
    for index in range(len(stages)):
        final = index == len(stages) - 1
        tournament = services.tournament_create(
            created_by=created_by,
            name=f"{championship.name} — " + ("finale" if final else f"étape {index + 1}"),
            date=day + timedelta(days=index),
            place="Pontarlier",
            rounds=1 if final else rounds,
            deals_per_round=final_deals if final else deals,
            seed=seed * 10 + index,
        )
        stage_objects.append(
            championship_services.stage_add(
                championship=championship,
                name="Finale" if final else f"Étape {index + 1}",
                tournaments=[(tournament, "")],
                cut_value=0 if final else stages[index + 1],
                carry=Stage.Carry.NONE if final else carry,
                seating=Stage.Seating.SNAKE,
            )
        )
    first = stage_objects[0].groups.get().tournament
    for i in range(players):
        services.player_register(
            tournament=first,
            row=services.PlayerRow(
                last_name=rng.choice(LAST_NAMES),
                first_name=rng.choice(FIRST_NAMES),
                club=rng.choice(CLUBS),
                licence=f"C{seed % 1000:03d}{i:05d}",
            ),
            present=True,
        )
    summary = []
    for stage in stage_objects:
        tournament = stage.groups.get().tournament
        for number in range(1, tournament.rounds + 1):
            round_ = Round.objects.filter(tournament=tournament, number=number).first()
            if round_ is None:
                round_ = services.round_seat_next(tournament=tournament, seed=seed * 100 + number)
            play_round(round_, rng)
            services.round_close(round_=round_)
        state = championship_selectors.stage_state(stage)
        summary.append(
            {
                "stage": stage.name,
                "players": len(state.rows),
                "qualified": len(state.cut.qualified),
                "ties": len(state.cut.ties),
            }
        )
        championship_services.stage_close(stage=stage)
    view = championship_selectors.championship_view(championship)
    return DemoChampionship(
        championship=championship,
        summary={
            "slug": championship.slug,
            "players": players,
            "stages": summary,
            "winner": view.final[0][1] if view.final else None,
        },
    )

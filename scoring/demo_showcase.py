"""What ``setup_demo`` adds so that every page of an open has real content in the demo: the
team tournament's two halls (seated and played in them), its categories and prize list, and
a small championship whose first stage is played (its cut and close preview to try) and whose
final waits for it."""

from __future__ import annotations

from datetime import date, timedelta

from scoring.demo import create_demo
from scoring.prizes import services as prize_services
from tournaments import services
from tournaments.championships import services as championship_services
from tournaments.championships.models import Championship, Stage
from tournaments.halls.services import HallRow
from tournaments.models import Tournament

HALLS = [
    HallRow(name="Salle Pourny", slug="pourny", first=1, last=3),
    HallRow(name="Salle des Capucins", slug="capucins", first=4, last=10),
]


def add_prize_list(tournament: Tournament) -> None:
    """Dames, Jeunes under 18, Seniors from 65 and the Promotion série, each with its first
    prize; the scratch podium; one prize per player (the organiser's order)."""
    prize_services.prizes_add(
        tournament=tournament,
        category=None,
        first_place=1,
        last_place=3,
        description="Coupe et bon d'achat",
    )
    for position, (kind, age, series, prize) in enumerate(
        [
            ("women", None, "", "Coupe des Dames"),
            ("youth", 18, "", "Coupe des Jeunes"),
            ("senior", 65, "", "Coupe des Seniors"),
            ("series", None, "Promotion", "Coupe Promotion"),
        ],
        start=1,
    ):
        category = prize_services.category_add(
            tournament=tournament, kind=kind, age=age, series=series, position=position
        )
        prize_services.prizes_add(
            tournament=tournament, category=category, first_place=1, description=prize
        )


def create_demo_stages(*, created_by=None) -> Championship:
    """« Championnat du club »: 16 players play stage 1 (two rounds, every deal entered and
    signed, its rounds closed, the stage not yet closed); the top 8 go on to the final (one
    table-round of 5 deals), half their points carried, seated in a snake."""
    championship = championship_services.championship_create(
        name="Championnat du club", created_by=created_by, seed=3
    )
    first = create_demo(
        players=16,
        rounds=2,
        deals=2,
        seed=21,
        play_rounds=2,
        name="Championnat du club — étape 1",
        created_by=created_by,
        details=True,
    ).tournament
    add_prize_list(first)
    final = services.tournament_create(
        created_by=created_by,
        name="Championnat du club — finale",
        date=date.today() + timedelta(days=7),
        place="Salle des fêtes",
        rounds=1,
        deals_per_round=5,
        seed=22,
    )
    championship_services.stage_add(
        championship=championship,
        name="Étape 1",
        tournaments=[(first, "")],
        cut_value=8,
        carry=Stage.Carry.HALF,
        seating=Stage.Seating.SNAKE,
    )
    championship_services.stage_add(
        championship=championship, name="Finale", tournaments=[(final, "")]
    )
    return championship

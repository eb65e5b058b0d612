"""A demonstration tournament played through the same services a referee uses."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import date

from scoring import services as scoring_services
from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.engine.table import active_positions
from scoring.models import ScoreSheet
from scoring.selectors import round_tables
from scoring.services import Actor
from tournaments import selectors, services
from tournaments.halls.services import halls_set
from tournaments.models import Registration, Round, Tournament
from tournaments.rows import series_of
from tournaments.services import ending

FIRST_NAMES = [
    "Camille",
    "Louis",
    "Léa",
    "Hugo",
    "Chloé",
    "Jules",
    "Manon",
    "Gabriel",
    "Inès",
    "Arthur",
    "Zoé",
    "Raphaël",
    "Océane",
    "Théo",
    "Élodie",
    "Noël",
    "Anaïs",
    "François",
    "Cécile",
    "Loïc",
    "Maëlle",
    "Benoît",
    "Hélène",
    "Jérôme",
    "Agnès",
    "Rémi",
    "Solène",
    "Gaëtan",
    "Irène",
    "Yves",
]
LAST_NAMES = [
    "Martin",
    "Bernard",
    "Dubois",
    "Thomas",
    "Robert",
    "Richard",
    "Petit",
    "Durand",
    "Leroy",
    "Moreau",
    "Simon",
    "Laurent",
    "Lefèvre",
    "Michel",
    "Garcia",
    "David",
    "Bertrand",
    "Roux",
    "Vincent",
    "Fournier",
    "Morel",
    "Girard",
    "André",
    "Lefebvre",
    "Mercier",
    "Dupont",
    "Lambert",
    "Bonnet",
    "François",
    "Martinez",
    "Œuvray",
    "Légaré",
    "Chevalier",
    "Faure",
    "Rousseau",
]
CLUBS = [
    "Tarot Club de Lyon",
    "Les Bouts d'Annecy",
    "Excuse Nantaise",
    "Petit au Bout Rennais",
    "Cercle du 21 Lille",
    "Garde Contre Marseille",
]


@dataclass
class DemoResult:
    tournament: Tournament
    deals: int
    repeat_meetings: int
    teammates_together: int

    def as_dict(self) -> dict:
        t = self.tournament
        rounds = list(Round.objects.filter(tournament=t).order_by("number"))
        sizes: Counter = Counter()
        tables_per_round = []
        for r in rounds:
            tables = round_tables(r)
            tables_per_round.append(len(tables))
            sizes.update(len(table.seats.all()) for table in tables)
        return {
            "slug": t.slug,
            "players": t.registrations.count(),
            "rounds": len(rounds),
            "tables_per_round": tables_per_round,
            "table_sizes": {str(k): v for k, v in sorted(sizes.items())},
            "repeat_meetings": self.repeat_meetings,
            "teammates_together": self.teammates_together,
            "deals": self.deals,
        }


def create_demo(
    *,
    players: int,
    rounds: int,
    deals: int,
    teams: int = 0,
    seed: int = 1,
    play_rounds: int | None = None,
    name: str | None = None,
    created_by=None,
    details: bool = False,
    halls: list | None = None,
) -> DemoResult:
    """Create a tournament with invented players, seat every round and play every deal.
    ``details``: each player also has a série, a sex and a year of birth (what categories
    read); ``halls``: the tournament's halls (``tournaments.halls.services.HallRow``), set
    before round 1."""
    rng = random.Random(seed)
    fmt = {
        0: Tournament.Format.INDIVIDUAL,
        2: Tournament.Format.TEAMS_OF_2,
        4: Tournament.Format.TEAMS_OF_4,
    }[teams]
    tournament = services.tournament_create(
        created_by=created_by,
        name=name or f"Tournoi de démonstration ({players} joueurs)",
        date=date.today(),
        place="Salle des fêtes",
        format=fmt,
        rounds=rounds,
        deals_per_round=deals,
        seed=seed,
    )
    rows = [
        services.PlayerRow(
            last_name=rng.choice(LAST_NAMES),
            first_name=rng.choice(FIRST_NAMES),
            club=rng.choice(CLUBS),
            licence=f"D{seed % 1000:03d}{i:05d}",
            **(details_of(i, seed, tournament.series_list) if details else {}),
        )
        for i in range(players)
    ]
    if halls:
        halls_set(tournament=tournament, halls=halls, keep_players=True)
    if teams:
        for start in range(0, players - players % teams, teams):
            services.team_register(
                tournament=tournament,
                name=f"Équipe {start // teams + 1}",
                members=rows[start : start + teams],
                present=True,
            )
    else:
        for row in rows:
            services.player_register(tournament=tournament, row=row, present=True)
    played = 0
    repeats = clashes = 0
    for number in range(1, (rounds if play_rounds is None else play_rounds) + 1):
        round_ = services.round_seat_next(tournament=tournament, seed=seed * 100 + number)
        quality = selectors.round_quality(round_)
        repeats += quality.repeat_count
        clashes += len(quality.teammates_together)
        played += play_round(round_, rng)
        services.round_close(round_=round_)
    return DemoResult(tournament, played, repeats, clashes)


def details_of(index: int, seed: int, series_list: str) -> dict:
    """A demo player's série, sex and year of birth, from their own draw (the deals' draw is
    left as it was): about two women in five, a few young and a few senior players, most in
    the lower séries."""
    rng = random.Random(seed * 10_007 + index)
    series = series_of(series_list)
    return {
        "series": rng.choices(series, weights=([1, 2, 3, 3, 2] + [2] * len(series))[: len(series)])[
            0
        ]
        if series
        else "",
        "sex": "F" if rng.random() < 0.4 else "M",
        "birth_year": date.today().year - rng.choice([*range(12, 18), *range(20, 88, 3)]),
    }


def play_round(round_: Round, rng: random.Random) -> int:
    """Enter random legal deals at every table and have every player sign with their PIN."""
    tournament = round_.tournament
    rules = get_rule_set(tournament.rule_set)
    actor = Actor.table(page="demo")
    played = 0
    for table in round_tables(round_):
        sheet = table.sheet
        size = len(table.seats.all())
        number = 1
        while True:
            sheet = ScoreSheet.objects.get(pk=sheet.pk)
            deals = list(sheet.deals.all())
            if scoring_services.next_deal_number(sheet, deals, size) is None:
                break
            players = len(active_positions(size, 0))
            if rng.random() < 0.03:
                scoring_services.deal_record(
                    sheet=sheet, number=number, kind="passed", deal=None, actor=actor
                )
            else:
                deal = random_legal_deal(rng, players, rules)
                scoring_services.deal_record(
                    sheet=sheet, number=number, kind="played", deal=deal, actor=actor
                )
            number += 1
            played += 1
        for seat in table.seats.all():
            registration: Registration = seat.registration
            scoring_services.sheet_sign_with_pin(
                sheet=sheet,
                registration=registration,
                pin=registration.pin,
                client="demo",
                actor=actor,
            )
    return played


@dataclass
class DemoSeason:
    club: object  # tournaments.models.Club
    season: object  # tournaments.models.Season
    tournaments: list[Tournament]  # played and closed, by date
    upcoming: Tournament | None
    members: int


def create_demo_season(
    *,
    tournaments: int,
    players: int,
    seed: int = 1,
    rounds: int = 2,
    deals: int = 2,
    club_name: str = "Club de Tarot de Villeurbanne",
    organiser=None,
    upcoming: bool = True,
    formula: dict | None = None,
) -> DemoSeason:
    """A club's season played through the real services: ``tournaments`` tournaments of
    ``players`` players each, drawn from the club's members (a quarter more than a field, so
    attendance varies), each seated, played, signed, closed and marked finished; then, when
    ``upcoming``, the next tournament, open for online registration."""
    from datetime import timedelta

    from tournaments.models import Club
    from tournaments.services import clubs

    rng = random.Random(seed)
    club = clubs.club_create(name=club_name, place="Villeurbanne", organiser=organiser, ask=False)
    pool_size = players + max(1, players // 4)
    pool = [
        services.PlayerRow(
            last_name=LAST_NAMES[i % len(LAST_NAMES)],
            first_name=FIRST_NAMES[(i * 7 + seed) % len(FIRST_NAMES)],
            club=club.name,
            licence=f"S{seed % 1000:03d}{i:05d}",
        )
        for i in range(pool_size)
    ]
    today = date.today()
    first_day = today - timedelta(days=7 * tournaments)
    season_year = first_day.year if first_day.month >= 9 else first_day.year - 1  # from September
    season = clubs.season_create(
        club=club,
        name=f"Saison {season_year}-{season_year + 1}",
        start=first_day,
        end=today + timedelta(days=60),
        **(formula or {"kind": "places", "best": max(1, tournaments * 3 // 4)}),
    )
    played = []
    for index in range(tournaments):
        tournament = services.tournament_create(
            created_by=organiser,
            name=f"Tournoi n° {index + 1}",
            date=first_day + timedelta(days=7 * index),
            place=club.place,
            rounds=rounds,
            deals_per_round=deals,
            seed=seed * 1000 + index,
        )
        clubs.tournament_season_set(user=None, tournament=tournament, season=season)
        for row in rng.sample(pool, players):
            services.player_register(tournament=tournament, row=row, present=True)
        for number in range(1, rounds + 1):
            round_ = services.round_seat_next(tournament=tournament, seed=seed * 100 + number)
            play_round(round_, rng)
            services.round_close(round_=round_)
        tournament = ending.tournament_finish(
            tournament=tournament, by=organiser.get_username() if organiser else "demo"
        )
        played.append(tournament)
    next_one = None
    if upcoming:
        next_one = services.tournament_create(
            created_by=organiser,
            name=f"Tournoi n° {tournaments + 1}",
            date=today + timedelta(days=7),
            place=club.place,
            rounds=rounds,
            deals_per_round=deals,
            seed=seed * 1000 + tournaments,
        )
        clubs.tournament_season_set(user=None, tournament=next_one, season=season)
        services.tournament_update(tournament=next_one, capacity=players)
        next_one.refresh_from_db()
    club.refresh_from_db()
    return DemoSeason(
        club=club,
        season=season,
        tournaments=played,
        upcoming=next_one,
        members=Club.objects.get(pk=club.pk).player_set.count(),
    )

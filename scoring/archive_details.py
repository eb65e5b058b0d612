"""What a tournament archive (:mod:`scoring.archive`) carries besides play: the tournament's
homologation number and séries, each registration's série, sex and year of birth, and the
prize list's categories, prizes and rule. Archives made before these existed import with the
defaults (no série, no category)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.archive_values import Value, max_length
from scoring.prizes import rules
from scoring.prizes.models import Category, Prize, PrizeSettings
from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.models import Club, Player, Registration, Tournament

REGISTRATION_DETAILS = ("series", "sex", "birth_year")


def tournament_details(tournament: Tournament) -> dict:
    return {"homologation": tournament.homologation, "series_list": tournament.series_list}


def import_tournament_details(data: Value) -> dict:
    return {
        "homologation": data.get("homologation", "").text(max_length(Tournament, "homologation")),
        "series_list": data.get("series_list", limits.DEFAULT_SERIES).text(limits.SERIES_LIST),
    }


def registration_details(registration: Registration) -> dict:
    return {name: getattr(registration, name) for name in REGISTRATION_DETAILS}


def _choices(model, field: str) -> list[str]:
    return [value for value, _label in model._meta.get_field(field).choices]


def import_registration(r: Value, tournament: Tournament, teams: dict) -> Registration:
    first_name = r["first_name"].name(max_length(Player, "first_name"))
    last_name = r["last_name"].name(max_length(Player, "last_name"), blank=False)
    club_name = r["club"].name(max_length(Club, "name"))
    licence = r["licence"].text(max_length(Player, "licence"))
    team_key = r["team"].int(-(10**18), 10**18, null=True)
    if team_key is not None and team_key not in teams:
        r["team"].fail(_("no team has this key"))
    status = r["status"].choice(_choices(Registration, "status"))
    pin = r["pin"].text(max_length(Registration, "pin"), blank=False)
    if not (pin.isascii() and pin.isdigit()):
        r["pin"].fail(_("a PIN is made of digits"))
    withdrawn = r["withdrawn_after_round"].int(0, tournament.rounds, null=True)
    details = {
        "series": r.get("series", "").name(limits.SERIES),
        "sex": r.get("sex", "").choice(_choices(Registration, "sex"), blank=True),
        "birth_year": r.get("birth_year").int(
            limits.OLDEST_BIRTH_YEAR, tournament.date.year, null=True
        ),
    }
    player = None
    if licence:
        player = Player.objects.filter(licence=licence).first()
        if player is not None and player.last_name.casefold() != last_name.casefold():
            raise ServiceError(
                _(
                    "Licence %(licence)s belongs here to %(name)s, not to %(other)s: nothing "
                    "was imported."
                )
                % {"licence": licence, "name": player.full_name, "other": last_name}
            )
    if player is None:
        club = Club.objects.get_or_create(name=club_name)[0] if club_name else None
        player = Player.objects.create(
            first_name=first_name, last_name=last_name, club=club, licence=licence
        )
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        r.fail(_("the same player registered twice"))
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        # The tournament's own record, as it was printed and sealed at its origin.
        first_name=first_name,
        last_name=last_name,
        club_name=club_name,
        licence=licence,
        team=teams[team_key] if team_key is not None else None,
        status=status,
        pin=pin,
        withdrawn_after_round=withdrawn,
        **details,
    )


def export_prizes(tournament: Tournament) -> dict:
    settings = PrizeSettings.objects.filter(tournament=tournament).first()
    return {
        "cumulative": settings.cumulative if settings else False,
        "scratch_position": settings.scratch_position if settings else 0,
        "categories": [
            {
                "key": c.pk,
                "kind": c.kind,
                "age": c.age,
                "series": c.series,
                "position": c.position,
            }
            for c in Category.objects.filter(tournament=tournament)
        ],
        "prizes": [
            {"category": p.category_id, "place": p.place, "description": p.description}
            for p in Prize.objects.filter(tournament=tournament).order_by("category_id", "place")
        ],
    }


def import_prizes(root: Value, tournament: Tournament) -> None:
    """The prize list's settings, categories and prizes, checked as the organiser's page
    checks them (the database's constraints refuse a category or a prize twice)."""
    if "prizes" not in root:
        return
    data = root["prizes"]
    PrizeSettings.objects.create(
        tournament=tournament,
        cumulative=data["cumulative"].bool(),
        scratch_position=data["scratch_position"].int(0, 1000),
    )
    categories = {}
    for c in data["categories"].list(max_items=1000):
        key = c["key"].int(-(10**18), 10**18)
        if key in categories:
            c["key"].fail(_("the same key twice"))
        kind = c["kind"].choice(rules.KINDS)
        age = c["age"].int(1, 120, null=True)
        if kind in (rules.YOUTH, rules.SENIOR) and age is None:
            c["age"].fail(_("an age is needed"))
        categories[key] = Category.objects.create(
            tournament=tournament,
            kind=kind,
            age=age,
            series=c["series"].name(limits.SERIES),
            position=c["position"].int(0, 1000),
        )
    for p in data["prizes"].list(max_items=100_000):
        key = p["category"].int(-(10**18), 10**18, null=True)
        if key is not None and key not in categories:
            p["category"].fail(_("no category has this key"))
        Prize.objects.create(
            tournament=tournament,
            category=categories.get(key) if key is not None else None,
            place=p["place"].int(1, 1000),
            description=p["description"].text(limits.PRIZE),
        )

"""What a tournament archive (:mod:`scoring.archive`) carries besides play: the tournament's
homologation number and séries, each registration's série, sex and year of birth, and the
prize list's rule, categories and prizes. Read and checked here (no writes: the prize list is
written by ``scoring.prizes.services.prizes_restore``). Archives made before these existed
import with the defaults (the default séries, no série, no category)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.archive_checks import choices_of
from scoring.archive_values import Value, max_length
from scoring.prizes import rules
from scoring.prizes.models import Category, Prize, PrizeSettings
from tournaments import limits
from tournaments.models import Registration, Tournament

REGISTRATION_DETAILS = ("series", "sex", "birth_year")


def tournament_details(tournament: Tournament) -> dict:
    return {"homologation": tournament.homologation, "series_list": tournament.series_list}


def tournament_details_of(data: Value) -> dict:
    return {
        "homologation": data.get("homologation", "").text(max_length(Tournament, "homologation")),
        "series_list": data.get("series_list", limits.DEFAULT_SERIES).text(limits.SERIES_LIST),
    }


def registration_details(registration: Registration) -> dict:
    return {name: getattr(registration, name) for name in REGISTRATION_DETAILS}


def registration_details_of(r: Value, tournament: Tournament) -> dict:
    return {
        "series": r.get("series", "").name(limits.SERIES),
        "sex": r.get("sex", "").choice(choices_of(Registration, "sex"), blank=True),
        "birth_year": r.get("birth_year").int(
            limits.OLDEST_BIRTH_YEAR, tournament.date.year, null=True
        ),
    }


def export_prizes(tournament: Tournament) -> dict:
    settings = PrizeSettings.objects.filter(tournament=tournament).first()
    return {
        "cumulative": settings.cumulative if settings else False,
        "scratch_position": settings.scratch_position if settings else 0,
        "categories": [
            {"key": c.pk, "kind": c.kind, "age": c.age, "series": c.series, "position": c.position}
            for c in Category.objects.filter(tournament=tournament)
        ],
        "prizes": [
            {"category": p.category_id, "place": p.place, "description": p.description}
            for p in Prize.objects.filter(tournament=tournament).order_by("category_id", "place")
        ],
    }


def prizes_of(root: Value) -> dict | None:
    """The archive's prize list, checked (None in an archive made before prize lists): the
    arguments of ``prizes_restore``."""
    if "prizes" not in root:
        return None
    data = root["prizes"]
    categories: dict = {}
    for c in data["categories"].list(max_items=1000):
        key = c["key"].int(-(10**18), 10**18)
        if key in categories:
            c["key"].fail(_("the same key twice"))
        kind = c["kind"].choice(rules.KINDS)
        age = c["age"].int(1, 120, null=True)
        if kind in (rules.YOUTH, rules.SENIOR) and age is None:
            c["age"].fail(_("an age is needed"))
        categories[key] = {
            "kind": kind,
            "age": age,
            "series": c["series"].name(limits.SERIES),
            "position": c["position"].int(0, 1000),
        }
    prizes = []
    seen = set()
    for p in data["prizes"].list(max_items=100_000):
        key = p["category"].int(-(10**18), 10**18, null=True)
        if key is not None and key not in categories:
            p["category"].fail(_("no category has this key"))
        place = p["place"].int(1, 1000)
        if (key, place) in seen:
            p.fail(_("the same prize twice"))
        seen.add((key, place))
        prizes.append(
            {"category": key, "place": place, "description": p["description"].text(limits.PRIZE)}
        )
    return {
        "cumulative": data["cumulative"].bool(),
        "scratch_position": data["scratch_position"].int(0, 1000),
        "categories": categories,
        "prizes": prizes,
    }

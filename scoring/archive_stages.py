"""A tournament archive's stage of a championship (``"stage"``): the championship (short name,
name, draw seed), the stage's number, name, cut rule, carried points share, round 1's seating
and when it closed, this tournament's group, the points each registration carried in (with the
tournament they came from and their rank there), the stage's invitations and this tournament's
withdrawals. A part of :mod:`scoring.archive_parts`; a tournament in no stage has no ``"stage"``
key (older archives import unchanged).

A championship's stages are archived one tournament at a time and imported in any order: the
first one imported creates the championship and each one its stage; a player who played an
earlier (or later) stage already imported here is the same person (same licence, or same name,
club and no licence), so the championship's final ranking comes out as it was. The
championship's organiser is not archived (an archive grants no access)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.archive_checks import choices_of
from scoring.archive_values import Value, max_length
from tarot_club.errors import ServiceError
from tournaments.championships.models import (
    CarriedPoints,
    Championship,
    Invitation,
    Stage,
    StageGroup,
    Withdrawal,
)
from tournaments.championships.selectors import person_of
from tournaments.championships.services import stage_restore
from tournaments.models import Club, Player, Registration, Tournament

CHOICES = ("cut_mode", "scope", "carry", "seating")
SETTINGS = ("cut_mode", "cut_value", "scope", "carry", "seating")


def export_stage(tournament: Tournament) -> dict:
    group = (
        StageGroup.objects.filter(tournament=tournament)
        .select_related("stage__championship")
        .first()
    )
    if group is None:
        return {}
    stage, championship = group.stage, group.stage.championship
    carried = CarriedPoints.objects.filter(registration__tournament=tournament).select_related(
        "source__tournament"
    )
    invitations = Invitation.objects.filter(stage=stage).select_related("player__club")
    withdrawals = Withdrawal.objects.filter(stage=stage, registration__tournament=tournament)
    return {
        "stage": {
            "championship": {
                "slug": championship.slug,
                "name": championship.name,
                "seed": championship.seed,
            },
            "number": stage.number,
            "name": stage.name,
            **{name: getattr(stage, name) for name in SETTINGS},
            "closed_at": stage.closed_at.isoformat() if stage.closed_at else None,
            "group": group.name,
            "carried": [
                {
                    "registration": c.registration_id,
                    "points": c.points,
                    "from": c.source.tournament.slug if c.source_id else None,
                    "previous_rank": c.previous_rank,
                }
                for c in carried.order_by("registration_id")
            ],
            "invitations": sorted(
                ({"kind": i.kind, **person_of(i.player)} for i in invitations),
                key=lambda i: (i["last_name"], i["first_name"], i["licence"], i["kind"]),
            ),
            "withdrawals": sorted(w.registration_id for w in withdrawals),
        }
    }


def import_stage(root: Value, tournament: Tournament, registrations: dict) -> None:
    """Put the tournament being imported in its stage (``stage_restore``: created if this
    database does not have it yet), with its carried points, invitations and withdrawals
    (``registrations``: the archive's keys to the registrations imported)."""
    if "stage" not in root:
        return
    data = root["stage"]
    c = data["championship"]
    carried, seen = [], set()
    for row in data["carried"].list():
        carried.append(
            {
                "registration": _registration(row["registration"], registrations, seen),
                "points": row["points"].int(-(10**9), 10**9),
                "from": row["from"].text(max_length(Tournament, "slug"), null=True),
                "previous_rank": row["previous_rank"].int(1, 10**6, null=True),
            }
        )
    withdrawals, seen = [], set()
    for key in data["withdrawals"].list():
        withdrawals.append(_registration(key, registrations, seen))
    restored = {
        "championship": {
            "slug": c["slug"].text(max_length(Championship, "slug"), blank=False),
            "name": c["name"].name(max_length(Championship, "name"), blank=False),
            "seed": c["seed"].int(0, 2**31 - 1),
        },
        "number": data["number"].int(1, 1000),
        "settings": {
            "name": data["name"].name(max_length(Stage, "name"), blank=False),
            "cut_value": data["cut_value"].int(0, 10**6),
            "closed_at": data["closed_at"].time(),
            **{name: data[name].choice(choices_of(Stage, name)) for name in CHOICES},
        },
        "group": data["group"].name(max_length(StageGroup, "name")),
        "carried": carried,
        "invitations": [_invitation(i) for i in data["invitations"].list(max_items=10_000)],
        "withdrawals": withdrawals,
    }
    try:
        stage_restore(tournament=tournament, data=restored)
    except ServiceError as error:
        data["number"].fail(str(error))


def _registration(key: Value, registrations: dict, seen: set) -> Registration:
    number = key.int(-(10**18), 10**18)
    if number not in registrations:
        key.fail(_("no registration has this key"))
    if number in seen:
        key.fail(_("the same player twice"))
    seen.add(number)
    return registrations[number]


def _invitation(i: Value) -> dict:
    return {
        "kind": i["kind"].choice(choices_of(Invitation, "kind")),
        "first_name": i["first_name"].name(max_length(Player, "first_name")),
        "last_name": i["last_name"].name(max_length(Player, "last_name"), blank=False),
        "club": i["club"].name(max_length(Club, "name")),
        "licence": i["licence"].text(max_length(Player, "licence")),
    }

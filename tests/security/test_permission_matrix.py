"""Every URL of the project × GET and POST × every role, with the exact answer expected.

The refusal policy (tournaments/permissions.py): anonymous on staff pages → the login page; a
staff member on a tournament they do not work on → 404; organiser-only pages for a referee → 404;
creating a tournament without the organiser permission → 403; public pages → 200 for everyone;
a table link reaches only its own sheet.

Each cell runs in its own savepoint, rolled back afterwards, so that every cell sees the same
tournament (round 1 played, signed and closed; round 2 seated, table 1 has one deal). A refused
request, and every GET, must leave the database exactly as it was; an accepted POST that is
meant to write must have written something (so the payload really exercised the view).

Roles: "table_link" is North's phone, an anonymous client that has opened its own table's
link (round 2, table 1) and must get nothing more from it; the table URL is tried with that
token, with another table's token (a signed sheet of the closed round 1) and with a forged one.
The "elsewhere" staff work on a second tournament; both organisers are in the "Organisateurs"
group (the organiser permission), as ``setup_demo`` makes them.

A new URL without a row here fails ``test_every_project_url_has_a_permission_decision``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scoring.models import ScoreSheet
from tournaments.models import Tournament

from .conftest import LOGIN_PREFIX, World, client_for, db_state, rolled_back

ROLES = (
    "anonymous",
    "table_link",
    "referee",
    "referee_elsewhere",
    "organiser",
    "organiser_elsewhere",
    "superuser",
)
# Extra rows for a URL already covered with every role: one anonymous, one allowed, one outsider.
VARIANT = ("table_link", "referee", "organiser_elsewhere")
# Rows that use another tournament's address to reach our objects: its staff matter most.
CROSS = ("table_link", "referee", "referee_elsewhere", "organiser_elsewhere", "superuser")
LOGIN = "login"  # expected: 302 to /connexion/?next=...
OK = "ok"  # expected: the row's own answer for an allowed role

# Who is allowed, per kind of page; everyone else gets the refusal written next to them.
ACCESS = {
    # Public pages, the calculator, the login page, the verification page and table links.
    "public": dict.fromkeys(ROLES, OK),
    # Any logged-in user (the list of *their* tournaments).
    "logged_in": {
        "anonymous": LOGIN,
        "table_link": LOGIN,
        **dict.fromkeys(ROLES[2:], OK),
    },
    # Tournament creation: the organiser permission (group "Organisateurs") or superuser.
    "create": {
        "anonymous": LOGIN,
        "table_link": LOGIN,
        "referee": 403,
        "referee_elsewhere": 403,
        "organiser": OK,
        "organiser_elsewhere": OK,
        "superuser": OK,
    },
    # Running the day: the tournament's referees and organisers.
    "staff": {
        "anonymous": LOGIN,
        "table_link": LOGIN,
        "referee": OK,
        "referee_elsewhere": 404,
        "organiser": OK,
        "organiser_elsewhere": 404,
        "superuser": OK,
    },
    # Changing the tournament itself, its players in bulk and its referees.
    "organiser": {
        "anonymous": LOGIN,
        "table_link": LOGIN,
        "referee": 404,
        "referee_elsewhere": 404,
        "organiser": OK,
        "organiser_elsewhere": 404,
        "superuser": OK,
    },
}

VALID_DEAL = {
    "kind": "played",
    "taker": "0",
    "contract": "garde",
    "oudlers": "2",
    "points": "49",
    "points_camp": "attack",
}
CSV = "nom;prénom;club\nNouveau;Nina;Club test\n".encode()


@dataclass
class Row:
    """One URL (with its arguments) and what GET and POST answer to an allowed role.

    ``get``/``post``: the status for an allowed role (None: that method is not tried here,
    another row with the same URL covers it). ``writes``: whether the allowed POST changes the
    database. ``location``: where an allowed 302 must point (path, or a callable of the world).
    """

    name: str
    label: str
    access: str
    kwargs: Callable[[World], dict]
    get: int | None = 200
    post: int | None = 405
    data: Callable[[World], dict] = lambda w: {}
    writes: bool = False
    location: Callable[[World], str] | None = None
    roles: tuple[str, ...] | None = None  # None: every role (the first row of a URL name)


def archive_upload(tournament: Tournament, slug: str | None = None) -> SimpleUploadedFile:
    from scoring.archive import export_tournament

    archive = export_tournament(tournament)
    if slug is not None:
        archive["tournament"]["slug"] = slug
    return SimpleUploadedFile("archive.json", json.dumps(archive).encode(), "application/json")


def latest_job_url(w: World) -> str:
    from scoring.jobs.models import Job

    return reverse("jobs:job", args=[Job.objects.latest("pk").pk])


def slug(w: World) -> dict:
    return {"slug": w.tournament.slug}


def sheet_url(w: World) -> str:
    return reverse("sheet", args=[w.tournament.slug, w.open_table.pk])


def table_url(w: World) -> str:
    return reverse("table_sheet", args=[w.open_table.sheet.token])


def round_url(number: int):
    return lambda w: reverse("tournaments:round", args=[w.tournament.slug, number])


def settings_data(w: World) -> dict:
    t = w.tournament
    return {
        "name": "Tournoi renommé",
        "date": t.date.isoformat(),
        "place": t.place,
        "format": t.format,
        "rounds": t.rounds,
        "deals_per_round": t.deals_per_round,
        "rule_set": t.rule_set,
        "visibility": t.visibility,
        "tie_breaks": t.tie_breaks,
        "odd_tables": t.odd_tables,
        "seating_priority": t.seating_priority,
    }


def paper_totals(w: World) -> dict:
    return {"action": "paper", "total_0": 10, "total_1": -10, "total_2": 5, "total_3": -5}


ROWS: list[Row] = [
    # -- scoring.urls ------------------------------------------------------------------------
    Row(
        "home",
        "calculator (home)",
        "public",
        lambda w: {},
        post=200,
        data=lambda w: {"players": "4", **VALID_DEAL},
    ),
    Row(
        "calculator",
        "calculator",
        "public",
        lambda w: {},
        post=200,
        data=lambda w: {"players": "4", **VALID_DEAL},
    ),
    Row(
        "sheet",
        "referee sheet: next deal",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
        post=302,
        data=lambda w: {"action": "deal", "number": "2", **VALID_DEAL},
        writes=True,
        location=sheet_url,
    ),
    Row(
        "sheet",
        "referee sheet: penalty",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
        get=None,
        post=302,
        data=lambda w: {
            "action": "penalty",
            "registration": w.registration.pk,
            "amount": "-5",
            "reason": "Retard",
        },
        writes=True,
        location=sheet_url,
        roles=VARIANT,
    ),
    Row(
        "sheet",
        "referee sheet: remove last deal",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
        get=None,
        post=302,
        data=lambda w: {"action": "delete_last", "reason": "erreur"},
        writes=True,
        location=sheet_url,
        roles=VARIANT,
    ),
    Row(
        "sheet",
        "referee sheet: paper totals refused (deals exist)",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
        get=None,
        post=422,
        data=paper_totals,
        roles=VARIANT,
    ),
    Row(
        "sheet",
        "referee sheet: paper signature refused (incomplete)",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
        get=None,
        post=302,
        data=lambda w: {"action": "sign_paper"},
        location=sheet_url,
        roles=VARIANT,
    ),
    Row(
        "sheet",
        "referee sheet: unknown action",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
        get=None,
        post=404,
        data=lambda w: {"action": "drop_tables"},
        roles=VARIANT,
    ),
    # Staff of the other tournament, through their own tournament's address, at our table.
    Row(
        "sheet",
        "our table under the other tournament's address",
        "logged_in",
        lambda w: {"slug": w.other.slug, "table_id": w.open_table.pk},
        get=404,
        post=404,
        data=lambda w: {"action": "deal", "number": "2", **VALID_DEAL},
    ),
    Row(
        "sheet_history",
        "sheet history",
        "staff",
        lambda w: {**slug(w), "table_id": w.open_table.pk},
    ),
    Row(
        "sheet_history",
        "our table's history under the other tournament's address",
        "logged_in",
        lambda w: {"slug": w.other.slug, "table_id": w.open_table.pk},
        get=404,
        post=None,
        roles=CROSS,
    ),
    Row(
        "table_sheet",
        "table link: own table, next deal",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        post=302,
        data=lambda w: {"action": "deal", "number": "2", **VALID_DEAL},
        writes=True,
        location=table_url,
    ),
    Row(
        "table_sheet_deal",
        "table link's queue: the next deal, recorded once per key",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        get=200,
        post=201,
        data=lambda w: {"action": "deal", "number": "2", **VALID_DEAL, "key": "k" * 32},
        writes=True,
    ),
    Row(
        "table_sheet_deal",
        "table link's queue: another table's token reaches only that table",
        "public",
        lambda w: {"token": "forged-token"},
        get=None,
        post=404,
        data=lambda w: {"action": "deal", "number": "2", **VALID_DEAL, "key": "k" * 32},
        roles=VARIANT,
    ),
    Row("table_service_worker", "the table links' service worker", "public", lambda w: {}),
    Row(
        "table_sheet",
        "table link: referee actions are not there",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        get=None,
        post=404,
        data=lambda w: {
            "action": "penalty",
            "registration": w.registration.pk,
            "amount": "-5",
            "reason": "x",
        },
        roles=VARIANT,
    ),
    Row(
        "table_sheet",
        "table link: cannot remove a deal",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        get=None,
        post=404,
        data=lambda w: {"action": "delete_last"},
        roles=VARIANT,
    ),
    Row(
        "table_sheet",
        "table link: cannot sign on paper",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        get=None,
        post=404,
        data=lambda w: {"action": "sign_paper"},
        roles=VARIANT,
    ),
    Row(
        "table_sheet",
        "table link: a referee's decision is refused",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        get=None,
        post=422,
        data=lambda w: {
            "action": "deal",
            "number": "2",
            **VALID_DEAL,
            "kind": "referee",
            "note": "moi",
        },
        roles=VARIANT,
    ),
    Row(
        "table_sheet",
        "table link: sign another table's player",
        "public",
        lambda w: {"token": w.open_table.sheet.token},
        get=None,
        post=422,
        data=lambda w: {
            "action": "sign",
            "registration": w.other_registration.pk,
            "pin": w.other_registration.pin,
        },
        roles=VARIANT,
    ),
    Row(
        "table_sheet",
        "another table's link: closed round, signed",
        "public",
        lambda w: {"token": w.closed_table.sheet.token},
        post=409,  # the sheet stopped taking deals: said, nothing written
        data=lambda w: {"action": "deal", "number": "3", **VALID_DEAL},
        roles=VARIANT,
    ),
    Row(
        "table_sheet",
        "forged table link",
        "public",
        lambda w: {"token": "x" + w.open_table.sheet.token[1:][::-1]},
        get=404,
        post=404,
        data=lambda w: {"action": "deal", "number": "2", **VALID_DEAL},
        roles=VARIANT,
    ),
    Row(
        "sheet_document",
        "one sheet (PDF)",
        "staff",
        lambda w: {**slug(w), "number": 1, "table_number": 1, "fmt": "pdf"},
    ),
    Row(
        "sheet_document",
        "our sheet under the other tournament's address",
        "logged_in",
        lambda w: {"slug": w.other.slug, "number": 1, "table_number": 1, "fmt": "pdf"},
        get=404,
        post=None,
        roles=CROSS,
    ),
    Row(
        "sheet_document",
        "a table that does not exist",
        "staff",
        lambda w: {**slug(w), "number": 9, "table_number": 1, "fmt": "pdf"},
        get=404,
        roles=VARIANT,
    ),
    Row("verify", "verification form", "public", lambda w: {}, post=405),
    Row(
        "switch_language",
        "language switch of the public pages (a cookie, no data)",
        "public",
        lambda w: {"code": "en"},
        get=302,
        post=405,
        location=lambda w: "/",
    ),
    Row(
        "verify_code",
        "verification of a sealed sheet",
        "public",
        lambda w: {"code": w.seal.code},
        post=405,
    ),
    Row(
        "verify_code",
        "unknown verification code",
        "public",
        lambda w: {"code": "ZZZZ-ZZZZ"},
        get=404,
        post=405,
        roles=VARIANT,
    ),
    # -- tournaments.urls --------------------------------------------------------------------
    Row("tournaments:list", "my tournaments", "logged_in", lambda w: {}),
    Row(
        "tournaments:create",
        "new tournament",
        "create",
        lambda w: {},
        post=302,
        data=lambda w: {
            "name": "Nouveau tournoi",
            "date": "2026-06-01",
            "format": "individual",
            "rounds": "3",
            "deals_per_round": "4",
            "rule_set": "fft",
            "visibility": "during",
            "tie_breaks": "",
            "odd_tables": "three",
            "seating_priority": "repeats",
        },
        writes=True,
        location=lambda w: reverse(
            "tournaments:dashboard", args=[Tournament.objects.latest("pk").slug]
        ),
    ),
    Row(
        "tournaments:archive_import",
        "archive import: our own archive again (refused: exists)",
        "create",
        lambda w: {},
        post=422,
        data=lambda w: {"file": archive_upload(w.tournament)},
    ),
    Row(
        "tournaments:archive_import",
        "archive import: a copy of the other tournament",
        "create",
        lambda w: {},
        get=None,
        post=302,
        data=lambda w: {"file": archive_upload(w.other, slug="copie-importee")},
        writes=True,
        location=lambda w: reverse("tournaments:dashboard", args=["copie-importee"]),
        roles=VARIANT,
    ),
    Row("tournaments:archive", "archive export (JSON)", "organiser", slug),
    Row(
        "tournaments:prizes",
        "categories and prize list",
        "organiser",
        slug,
        post=302,
        data=lambda w: {"action": "settings", "cumulative": "on", "scratch_position": "0"},
        writes=True,
        location=lambda w: reverse("tournaments:prizes", args=[w.tournament.slug]),
    ),
    Row("tournaments:dashboard", "dashboard", "staff", slug),
    Row(
        "tournaments:finish",
        "finish the tournament: refused while a round is open",
        "organiser",
        slug,
        get=405,
        post=422,
    ),
    Row(
        "tournaments:reopen",
        "reopen the tournament: refused, it is not finished",
        "organiser",
        slug,
        get=405,
        post=422,
        data=lambda w: {"reason": "correction"},
    ),
    Row(
        "tournaments:settings",
        "settings",
        "organiser",
        slug,
        post=302,
        data=settings_data,
        writes=True,
        location=lambda w: reverse("tournaments:dashboard", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:seat_round",
        "seat the next round (refused: round 2 open)",
        "staff",
        slug,
        get=405,
        post=302,
        data=lambda w: {"seed": "5"},
        location=lambda w: reverse("tournaments:dashboard", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:players",
        "players: register a late player",
        "staff",
        slug,
        post=302,
        data=lambda w: {"last_name": "Retardataire", "first_name": "Rémi", "present": "on"},
        writes=True,
        location=lambda w: reverse("tournaments:players", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:all_present",
        "check-in: « tous présents », the question before it",
        "staff",
        slug,
        get=405,
        post=200,
    ),
    Row(
        "tournaments:all_present_undo",
        "check-in: undo « tous présents » (nothing to undo in this session)",
        "staff",
        slug,
        get=405,
        post=302,
        location=lambda w: reverse("tournaments:players", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:checkin",
        "check-in: absent",
        "staff",
        lambda w: {**slug(w), "registration_id": w.registration.pk},
        get=405,
        post=302,
        data=lambda w: {"status": "absent"},
        writes=True,
        location=lambda w: reverse("tournaments:players", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:checkin",
        "check-in of our player under the other tournament",
        "logged_in",
        lambda w: {"slug": w.other.slug, "registration_id": w.registration.pk},
        get=None,
        post=404,
        data=lambda w: {"status": "withdrawn"},
    ),
    Row(
        "tournaments:player_correct",
        "correct a player: refused once they signed a sheet",
        "organiser",
        lambda w: {**slug(w), "registration_id": w.registration.pk},
        post=422,
        data=lambda w: {"last_name": "Autre", "first_name": "Nom"},
    ),
    Row(
        "tournaments:player_correct",
        "correct our player under the other tournament's address",
        "logged_in",
        lambda w: {"slug": w.other.slug, "registration_id": w.registration.pk},
        get=404,
        post=404,
        data=lambda w: {"last_name": "Autre"},
        roles=CROSS,
    ),
    Row(
        "tournaments:player_remove",
        "remove a player: refused (seated), said on the players page",
        "organiser",
        lambda w: {**slug(w), "registration_id": w.registration.pk},
        get=405,
        post=302,
        location=lambda w: reverse("tournaments:players", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:player_merge",
        "merge a player: refused (seated), said on the players page",
        "organiser",
        lambda w: {**slug(w), "registration_id": w.registration.pk},
        get=405,
        post=302,
        data=lambda w: {"into": w.other_registration.pk},
        location=lambda w: reverse("tournaments:players", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:import",
        "import: preview only",
        "organiser",
        slug,
        post=200,
        data=lambda w: {"file": SimpleUploadedFile("joueurs.csv", CSV, "text/csv")},
    ),
    Row(
        "tournaments:import",
        "import: confirm an unknown preview",
        "organiser",
        slug,
        get=None,
        post=302,
        data=lambda w: {"confirm": "0123456789abcdef"},
        location=lambda w: reverse("tournaments:import", args=[w.tournament.slug]),
        roles=VARIANT,
    ),
    Row(
        "tournaments:staff",
        "referees: add one",
        "organiser",
        slug,
        post=302,
        data=lambda w: {"username": "nouvel-arbitre", "password": "Excuse-au-bout-1987"},
        writes=True,
        location=lambda w: reverse("tournaments:staff", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:halls",
        "halls: set them (refused: round 1 is seated)",
        "organiser",
        slug,
        post=422,
        data=lambda w: {"halls": "Salle A : tables 1-2"},
    ),
    Row("tournaments:pin_slips", "PIN slips (every player)", "staff", slug),
    Row("tournaments:round", "round 2", "staff", lambda w: {**slug(w), "number": 2}),
    Row(
        "tournaments:round",
        "a round that does not exist",
        "staff",
        lambda w: {**slug(w), "number": 9},
        get=404,
        roles=VARIANT,
    ),
    Row(
        "tournaments:round_action",
        "close round 2",
        "staff",
        lambda w: {**slug(w), "number": 2, "action": "close"},
        get=405,
        post=302,
        data=lambda w: {"reason": "Fin de la position"},
        writes=True,
        location=round_url(2),
    ),
    Row(
        "tournaments:round_action",
        "regenerate round 2 (refused: started)",
        "staff",
        lambda w: {**slug(w), "number": 2, "action": "regenerate"},
        get=405,
        post=302,
        location=round_url(2),
        roles=VARIANT,
    ),
    Row(
        "tournaments:round_action",
        "swap in round 2 (refused: started)",
        "staff",
        lambda w: {**slug(w), "number": 2, "action": "swap"},
        get=None,
        post=302,
        data=lambda w: {
            "first": w.registration.pk,
            "second": w.other_registration.pk,
            "confirmed": "on",
        },
        location=round_url(2),
        roles=VARIANT,
    ),
    Row(
        "tournaments:round_action",
        "reopen round 1 (refused: round 2 seated)",
        "staff",
        lambda w: {**slug(w), "number": 1, "action": "reopen"},
        get=None,
        post=302,
        location=round_url(1),
        roles=VARIANT,
    ),
    Row(
        "tournaments:round_action",
        "unknown round action",
        "staff",
        lambda w: {**slug(w), "number": 2, "action": "delete"},
        get=405,
        post=404,
        roles=VARIANT,
    ),
    Row(
        "tournaments:round_pdf",
        "seating plan",
        "staff",
        lambda w: {**slug(w), "number": 2, "kind": "plan"},
    ),
    Row(
        "tournaments:round_pdf",
        "table cards (with the PINs)",
        "staff",
        lambda w: {**slug(w), "number": 2, "kind": "cards"},
        roles=VARIANT,
    ),
    # -- scoring.urls_public: read-only pages, GET and HEAD only (POST is 405) -----------
    Row("public:home", "public home", "public", slug, post=405),
    Row("public:standings", "public standings", "public", slug, post=405),
    Row(
        "public:standings_export",
        "standings CSV",
        "public",
        lambda w: {**slug(w), "fmt": "csv"},
        post=405,
    ),
    Row(
        "public:standings_export",
        "standings in an unknown format",
        "public",
        lambda w: {**slug(w), "fmt": "exe"},
        get=404,
        post=405,
        roles=VARIANT,
    ),
    Row(
        "public:round",
        "public round results",
        "public",
        lambda w: {**slug(w), "number": 1},
        post=405,
    ),
    Row("public:find_me", "find me", "public", slug, post=405),
    Row(
        "public:player",
        "a player's page",
        "public",
        lambda w: {**slug(w), "registration_id": w.registration.pk},
        post=405,
    ),
    Row(
        "public:player",
        "a player of another tournament",
        "public",
        lambda w: {"slug": w.other.slug, "registration_id": w.registration.pk},
        get=404,
        post=405,
    ),
    Row("public:tv", "TV screen", "public", slug, post=405),
    Row("public:categories", "category standings", "public", slug, post=405),
    Row(
        "public:prizes_export",
        "prize list PDF",
        "public",
        lambda w: {**slug(w), "fmt": "pdf"},
        post=405,
    ),
    Row(
        "public:seat_request",
        "asking for a seat at the next tournament",
        "public",
        lambda w: {"slug": w.other.slug},
        post=200,
        data=lambda w: {"last_name": "Nouvelle", "first_name": "Nina", "licence": "", "club": ""},
        writes=True,
    ),
    Row(
        "public:seat_request",
        "asking for a seat at a tournament already started",
        "public",
        slug,
        post=200,
        data=lambda w: {"last_name": "Tardive", "first_name": "Tina"},
        roles=VARIANT,
    ),
    Row(
        "public:seat_request_status",
        "a seat request's private status page, with a link nobody was given",
        "public",
        lambda w: {"token": "1:forged-signature"},
        get=404,
    ),
    Row(
        "championships:public",
        "a championship's public page",
        "public",
        lambda w: {"slug": w.championship.slug},
    ),
    Row(
        "championships:stage_close",
        "a stage's close preview (closing refused while its rounds are open)",
        "organiser",
        lambda w: {"pk": w.stage.pk},
        post=422,
        data=lambda w: {"shown": "x"},
    ),
    Row(
        "championships:stage_reopen",
        "reopening a stage (refused: the stage is not closed)",
        "organiser",
        lambda w: {"pk": w.stage.pk},
        get=405,
        post=422,
    ),
    Row(
        "championships:staff_list",
        "my championships (a new one: refused without its name)",
        "create",
        lambda w: {},
        post=422,
    ),
    Row(
        "championships:staff",
        "a championship's stages (a new stage: refused without its tournaments)",
        "organiser",
        lambda w: {"slug": w.championship.slug},
        post=422,
    ),
    Row(
        "jobs:championship_report",
        "« Préparer le rapport » of a championship (JSON), as a job",
        "organiser",
        lambda w: {"slug": w.championship.slug, "fmt": "json"},
        get=405,
        post=302,
        writes=True,
        location=latest_job_url,
    ),
    Row(
        "championships:stage_withdraw",
        "a qualifier withdraws from the next stage",
        "organiser",
        lambda w: {"pk": w.stage.pk},
        get=405,
        post=302,
        data=lambda w: {"registration": w.registration.pk},
        writes=True,
    ),
    Row(
        "championships:stage_invite",
        "an invitation at a stage's cut (refused: no player has this licence)",
        "organiser",
        lambda w: {"pk": w.stage.pk},
        get=405,
        post=422,
        data=lambda w: {"licence": "nobody", "kind": "wildcard"},
    ),
    Row("public:club", "club page", "public", lambda w: {"slug": w.club.slug}),
    Row(
        "public:season",
        "season standings",
        "public",
        lambda w: {"slug": w.club.slug, "season_id": w.season.pk},
    ),
    Row(
        "public:season_export",
        "season standings export",
        "public",
        lambda w: {"slug": w.club.slug, "season_id": w.season.pk, "fmt": "csv"},
    ),
    Row(
        "public:career",
        "a player's career at the club",
        "public",
        lambda w: {"slug": w.club.slug, "player_id": w.registration.player_id},
    ),
    Row(
        "public:season",
        "another club's address for the season",
        "public",
        lambda w: {"slug": "ailleurs", "season_id": w.season.pk},
        get=404,
        post=None,
        roles=("anonymous", "superuser"),
    ),
    Row(
        "tournaments:seat_requests",
        "seat requests (an unknown request)",
        "organiser",
        slug,
        post=302,
        data=lambda w: {"action": "confirm", "request": "0"},
        location=lambda w: reverse("tournaments:seat_requests", args=[w.tournament.slug]),
    ),
    Row(
        "tournaments:seat_requests_export",
        "seat requests as CSV, with the e-mails (organiser only)",
        "organiser",
        slug,
    ),
    # -- background jobs (scoring/jobs) ----------------------------------------------------
    Row(
        "jobs:job", "a job's page (the tournament's staff)", "staff", lambda w: {"job_id": w.job.pk}
    ),
    Row("jobs:progress", "a job's progress (htmx)", "staff", lambda w: {"job_id": w.job.pk}),
    Row("jobs:file", "a failed job's file: none", "staff", lambda w: {"job_id": w.job.pk}, get=404),
    Row(
        "jobs:restart",
        "« Relancer » a failed job",
        "staff",
        lambda w: {"job_id": w.job.pk},
        get=405,
        post=302,
        writes=True,
        location=lambda w: reverse("jobs:job", args=[w.job.pk]),
    ),
    Row(
        "jobs:sheets_tournament",
        "« Préparer le PDF »: every sheet, as a job",
        "staff",
        lambda w: {**slug(w), "fmt": "pdf"},
        get=405,
        post=302,
        writes=True,
        location=latest_job_url,
    ),
    Row(
        "jobs:sheets_round",
        "« Préparer le classeur »: round 1, as a job",
        "staff",
        lambda w: {**slug(w), "number": 1, "fmt": "xlsx"},
        get=405,
        post=302,
        writes=True,
        location=latest_job_url,
    ),
    Row(
        "jobs:sheets_tournament",
        "unknown document format",
        "staff",
        lambda w: {**slug(w), "fmt": "exe"},
        get=405,
        post=404,
        roles=VARIANT,
    ),
    Row(
        "jobs:results_report",
        "« Préparer le rapport » (CSV), as a job",
        "organiser",
        lambda w: {**slug(w), "fmt": "csv"},
        get=405,
        post=302,
        writes=True,
        location=latest_job_url,
    ),
    Row(
        "jobs:seating",
        "seating the next round of a large field, as a job",
        "staff",
        slug,
        get=405,
        post=302,
        writes=True,
        location=latest_job_url,
    ),
    Row(
        "jobs:player_import",
        "a long player import's confirmation (its preview expired)",
        "organiser",
        slug,
        get=405,
        post=302,
        location=lambda w: reverse("tournaments:import", args=[w.tournament.slug]),
    ),
    Row(
        "jobs:season_archive",
        "the season's archive, as a job",
        "organiser",
        lambda w: {"slug": w.club.slug, "season_id": w.season.pk},
        get=405,
        post=302,
        writes=True,
        location=latest_job_url,
    ),
    Row(
        "jobs:season_import",
        "a season archive's import, as a job",
        "create",
        lambda w: {},
        post=302,
        data=lambda w: {"file": SimpleUploadedFile("saison.json", b"{}", "application/json")},
        writes=True,
        location=latest_job_url,
    ),
    # -- a club's staff pages ----------------------------------------------------------------
    Row(
        "tournaments:season_archive",
        "the season's archive (club organiser who organises its tournaments)",
        "organiser",
        lambda w: {"slug": w.club.slug, "season_id": w.season.pk},
    ),
    Row(
        "tournaments:licensees",
        "the licensee list: a file previewed",
        "create",
        lambda w: {},
        post=200,
        data=lambda w: {
            "file": SimpleUploadedFile("licencies.csv", b"licence;nom\n123;Dupont\n", "text/csv")
        },
    ),
    Row(
        "tournaments:clubs",
        "my clubs, a new club page",
        "create",
        lambda w: {},
        post=302,
        data=lambda w: {"name": "Nouveau club", "place": "Lyon"},
        writes=True,
        location=lambda w: reverse("tournaments:club", args=["nouveau-club"]),
    ),
    Row(
        "tournaments:club",
        "the club: a new season",
        "organiser",
        lambda w: {"slug": w.club.slug},
        post=302,
        data=lambda w: {
            "action": "season",
            "season-name": "Saison suivante",
            "season-start": "2026-09-01",
            "season-end": "2027-06-30",
            "season-kind": "places",
            "season-best": "0",
            "season-place_points": "100, 90, 80",
            "season-scale_to": "0",
            "season-attendance_bonus": "0",
            "season-tie_breaks": "",
        },
        writes=True,
    ),
    Row(
        "tournaments:season",
        "the season: its formula",
        "organiser",
        lambda w: {"slug": w.club.slug, "season_id": w.season.pk},
        post=302,
        data=lambda w: {
            "action": "formula",
            "name": w.season.name,
            "start": w.season.start.isoformat(),
            "end": w.season.end.isoformat(),
            "kind": "places",
            "best": "3",
            "place_points": "100, 80",
            "scale_to": "0",
            "attendance_bonus": "2",
            "tie_breaks": "",
        },
        writes=True,
        location=lambda w: reverse("tournaments:season", args=[w.club.slug, w.season.pk]),
    ),
    Row(
        "tournaments:season",
        "the season: a tournament taken out",
        "organiser",
        lambda w: {"slug": w.club.slug, "season_id": w.season.pk},
        get=None,
        post=302,
        data=lambda w: {"action": "remove", "tournament": w.tournament.pk},
        writes=True,
        location=lambda w: reverse("tournaments:season", args=[w.club.slug, w.season.pk]),
        roles=("anonymous", "referee", "organiser_elsewhere", "organiser", "superuser"),
    ),
    # -- tarot_club.urls ---------------------------------------------------------------------
    Row(
        "login",
        "login page (wrong password)",
        "public",
        lambda w: {},
        post=200,
        data=lambda w: {"username": "arbitre-ici", "password": "mauvais"},
    ),
    Row(
        "logout",
        "logout",
        "public",
        lambda w: {},
        get=405,
        post=302,
        location=lambda w: reverse("home"),
    ),
]

EXCLUDED_PREFIXES = ("admin/", "i18n/")


def project_url_names() -> tuple[set[str], list[str]]:
    """Qualified names of every URL pattern outside admin/ and i18n/, and unnamed patterns."""
    names: set[str] = set()
    unnamed: list[str] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(EXCLUDED_PREFIXES):
                continue
            if isinstance(pattern, URLResolver):
                ns = namespace
                if pattern.namespace:
                    ns = f"{namespace}{pattern.namespace}:"
                walk(pattern.url_patterns, route, ns)
            elif isinstance(pattern, URLPattern):
                if pattern.name:
                    names.add(namespace + pattern.name)
                else:
                    unnamed.append(route)

    walk(get_resolver().url_patterns, "", "")
    return names, unnamed


def test_every_project_url_has_a_permission_decision():
    names, unnamed = project_url_names()
    assert not unnamed, f"URL patterns without a name (give them one and a row): {unnamed}"
    missing = sorted(names - {row.name for row in ROWS})
    assert not missing, f"URLs with no permission decision in ROWS: {missing}"
    stale = sorted({row.name for row in ROWS} - names)
    assert not stale, f"ROWS name URLs that no longer exist: {stale}"


def expected_for(row: Row, role: str, method: str):
    """The expected status (or LOGIN) of one cell; None when the cell is not tried."""
    if row.roles is not None and role not in row.roles:
        return None
    own = row.get if method == "get" else row.post
    if own is None:
        return None
    decision = ACCESS[row.access][role]
    return own if decision == OK else decision


class Clients:
    """One client per role, logged in once (outside the rolled-back savepoints)."""

    def __init__(self, world: World):
        self.world = world
        self.clients: dict[str, Client] = {}

    def __getitem__(self, role: str) -> Client:
        if role not in self.clients:
            client = client_for(self.world.users[role], HTTP_ACCEPT_LANGUAGE="fr")
            if role == "table_link":
                # North has opened the table's own link: it must grant nothing else.
                assert client.get(table_url(self.world)).status_code == 200
            self.clients[role] = client
        return self.clients[role]

    def forget(self, role: str) -> None:
        self.clients.pop(role, None)


def run_cell(world, clients, baseline, row, role, method, expected) -> str | None:
    """Send one request in a rolled-back savepoint; return a description of what went wrong."""
    url = reverse(row.name, kwargs=row.kwargs(world))
    where = f"{role:20} {method.upper():4} {url} [{row.label}]"
    client = clients[role]
    problem = None
    with rolled_back():
        try:
            if method == "get":  # noqa: SIM108  (the data callable runs only for a POST)
                response = client.get(url)
            else:
                response = client.post(url, row.data(world))
        except Exception as exc:  # a 500: report it with the other cells
            clients.forget(role)
            return f"{where}: expected {expected}, got 500 ({type(exc).__name__}: {exc})"
        status = response.status_code
        location = response.get("Location", "")
        refused = expected in (LOGIN, 403, 404, 405)
        if expected == LOGIN:
            if status != 302 or not location.startswith(LOGIN_PREFIX):
                problem = f"expected the login page, got {status} {location}"
        elif status != expected:
            problem = f"expected {expected}, got {status} {location}"
        elif status == 302:
            want = row.location if method == "post" else None
            if want is not None and location != want(world):
                problem = f"redirected to {location}, expected {want(world)}"
        if problem is None:
            after = db_state()
            if method == "get" or refused or not row.writes:
                if after != baseline:
                    changed = sorted(k for k in after if after[k] != baseline[k])
                    problem = f"{status} but the database changed: {changed}"
            elif after == baseline:
                problem = f"{status} but nothing was written (payload did not reach the service)"
    client.cookies.pop("messages", None)
    if row.name == "logout" or (world.users[role] and "sessionid" not in client.cookies):
        clients.forget(role)
    return f"{where}: {problem}" if problem else None


def test_permission_matrix(world):
    clients = Clients(world)
    for role in ROLES:
        clients[role]  # log everyone in before the baseline
    baseline = db_state()
    problems = []
    cells = 0
    for row in ROWS:
        for method in ("get", "post"):
            for role in ROLES:
                expected = expected_for(row, role, method)
                if expected is None:
                    continue
                cells += 1
                problem = run_cell(world, clients, baseline, row, role, method, expected)
                if problem:
                    problems.append(problem)
    assert not problems, f"{len(problems)} of {cells} cells wrong:\n" + "\n".join(problems)


# -- What the public may see ------------------------------------------------------------------


def hide_standings(world: World) -> None:
    """The organiser chose "standings visible only at the end" (and the day is not over)."""
    Tournament.objects.filter(pk=world.tournament.pk).update(
        visibility=Tournament.Visibility.AT_THE_END, finished=False, changed_at=timezone.now()
    )


def test_hidden_standings_stay_hidden_on_the_public_pages(world):
    hide_standings(world)
    client = client_for()
    slug_ = world.tournament.slug
    for name in ("public:standings", "public:tv", "public:categories"):
        response = client.get(reverse(name, args=[slug_]))
        assert response.status_code == 200
        assert "public/hidden.html" in [t.name for t in response.templates], name
    for fmt in ("csv", "csv-fr", "xlsx", "pdf"):
        url = reverse("public:standings_export", args=[slug_, fmt])
        assert client.get(url).status_code == 404, fmt
        url = reverse("public:prizes_export", args=[slug_, fmt])
        assert client.get(url).status_code == 404, fmt
    home = client.get(reverse("public:home", args=[slug_]))
    assert home.status_code == 200 and "top" not in home.context
    results = client.get(reverse("public:round", args=[slug_, 1]))
    assert results.status_code == 200
    assert results.context["show_scores"] is False
    assert 'class="num' not in results.content.decode()


def test_hidden_standings_do_not_leak_through_the_player_pages(world):
    hide_standings(world)
    client = client_for()
    seat = world.closed_table.seats.order_by("position").first()
    response = client.get(
        reverse("public:player", args=[world.tournament.slug, seat.registration_id])
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="num' not in page, "round totals / deal scores are shown"


def test_no_public_page_reveals_a_table_link(world):
    """Table links are bearer secrets: only the staff pages and the table itself show them."""
    tokens = list(ScoreSheet.objects.values_list("token", flat=True))
    client = client_for()
    slug_ = world.tournament.slug
    urls = [
        reverse("public:home", args=[slug_]),
        reverse("public:standings", args=[slug_]),
        reverse("public:standings_export", args=[slug_, "csv"]),
        reverse("public:round", args=[slug_, 1]),
        reverse("public:round", args=[slug_, 2]),
        reverse("public:find_me", args=[slug_]) + "?q=" + world.registration.last_name,
        reverse("public:tv", args=[slug_]),
        reverse("verify_code", args=[world.seal.code]),
        reverse("calculator"),
    ] + [
        reverse("public:player", args=[slug_, pk])
        for pk in world.tournament.registrations.values_list("pk", flat=True)
    ]
    for url in urls:
        page = client.get(url).content.decode()
        leaked = [t for t in tokens if t in page]
        assert not leaked, f"{url} shows a table link"
    # The table's own page shows no other table's link.
    own = world.open_table.sheet.token
    page = client.get(reverse("table_sheet", args=[own])).content.decode()
    assert not [t for t in tokens if t != own and t in page]
    # Positive control: the referee's page does show this table's link (so the check works).
    referee = client_for(world.users["referee"])
    page = referee.get(reverse("sheet", args=[slug_, world.open_table.pk])).content.decode()
    assert own in page


def test_the_admin_is_for_superusers_only(world):
    for role in ("anonymous", "referee", "organiser"):
        response = client_for(world.users[role]).get("/admin/")
        assert response.status_code == 302, role
        assert response["Location"].startswith("/admin/login/"), role
    assert client_for(world.users["superuser"]).get("/admin/").status_code == 200


# -- HEAD answers like GET, on every URL pattern ----------------------------------------------

HEAD_ROLES = ("anonymous", "referee", "superuser")


def admin_and_i18n_paths(world: World) -> list[str]:
    """A concrete path for every pattern under admin/ and i18n/ (ROWS covers the others), with
    the objects of the world where a pattern names one (the superuser, the organisers' group)."""
    from django.apps import apps
    from django.contrib.contenttypes.models import ContentType
    from django.urls.resolvers import RegexPattern

    superuser = world.users["superuser"]
    regex_paths = {
        "^(?P<app_label>auth|axes|django_tasks_database)/$": "auth/",
        "(?P<url>.*)$": "nowhere/",
    }
    paths: list[str] = []

    def object_id(route: str) -> str:
        if route.startswith("admin/r/"):  # "view on site": the content type given just before
            return str(superuser.pk)
        app_label, model_name = route.split("/")[1:3]
        obj = apps.get_model(app_label, model_name)._default_manager.order_by("pk").first()
        return str(obj.pk if obj is not None else 1)

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
                continue
            raw = str(pattern.pattern)
            route = prefix + raw
            if not route.startswith(EXCLUDED_PREFIXES):
                continue
            if isinstance(pattern.pattern, RegexPattern):
                assert raw in regex_paths, f"no example path for the pattern {route!r}"
                paths.append("/" + prefix + regex_paths[raw])
                continue
            user_type = ContentType.objects.get_for_model(superuser)
            path = route.replace("<path:content_type_id>", str(user_type.pk))
            if "<path:object_id>" in path or "<id>" in path:
                path = path.replace("<path:object_id>", object_id(route))
                path = path.replace("<id>", object_id(route))
            assert "<" not in path, f"no example value for {route!r}"
            paths.append("/" + path)

    walk(get_resolver().url_patterns, "")
    return paths


def test_head_answers_like_get_on_every_url_pattern(world):
    """Monitors, link checkers and some phones ask HEAD: it answers what GET answers (Django
    drops the body), never 405 where GET is 200. Every URL pattern is tried, each with real
    objects of the world: the project's through ROWS, the admin's and i18n's by walking them."""
    from django.urls import resolve

    requests = [
        (role, reverse(row.name, kwargs=row.kwargs(world)), row.label)
        for row in ROWS
        if row.get is not None
        for role in HEAD_ROLES
        if expected_for(row, role, "get") is not None
    ]
    requests += [("superuser", path, "admin/i18n") for path in admin_and_i18n_paths(world)]
    clients = Clients(world)
    problems, routes, ok = [], set(), 0
    for role, url, label in requests:
        routes.add(resolve(url.split("?")[0]).route)
        with rolled_back():
            get = clients[role].get(url)
            head = clients[role].head(url)
        answers = [
            (r.status_code, r.get("Location", ""), r.get("Content-Type")) for r in (get, head)
        ]
        if answers[0] != answers[1]:
            problems.append(f"{role:10} {url} [{label}]: GET {answers[0]}, HEAD {answers[1]}")
        ok += get.status_code == 200
    assert not problems, "HEAD differs from GET:\n" + "\n".join(problems)

    every_route: set[str] = set()

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                every_route.add(prefix + str(pattern.pattern).lstrip("^"))  # as resolve() has it

    walk(get_resolver().url_patterns, "")
    assert every_route - routes == set(), "URL patterns HEAD was not tried on"
    assert ok > 40, "most pages answer GET with 200 here, so HEAD is really compared with them"


# -- Seating on the day: referees seat, swap and draw again (a decision, README "A tournament
# day") ---------------------------------------------------------------------------------------
#
# At 14:05 a player is missing at table 6 and another arrived late: the one who fixes it is
# whoever runs the room, usually the referee at the laptop, while the organiser is at the bar,
# playing, or greeting people. Referees already seat each round and run check-in, so they also
# swap two players and draw a round again, before play starts (a started round is fixed for
# everyone). The organiser keeps what changes the tournament itself: settings, referees, the
# bulk import and the archive.


def _seated_round_day(world: World):
    """A seated round nobody has started, on the other tournament (8 present players), with
    our referee and organiser named on it too."""
    from tournaments import services
    from tournaments.models import StaffMember

    other = world.other
    for i in range(8):
        services.player_register(
            tournament=other,
            row=services.PlayerRow(last_name=f"Voisin{i}", first_name="Val"),
            present=True,
        )
    round_ = services.round_seat_next(tournament=other, seed=3)
    StaffMember.objects.create(
        tournament=other, user=world.users["referee"], role=StaffMember.Role.REFEREE
    )
    return other, round_


def _seating(round_) -> list:
    return list(
        round_.seats.order_by("table__number", "position").values_list(
            "table__number", "position", "registration_id"
        )
    )


def test_referees_swap_players_and_draw_a_round_again(world):
    other, round_ = _seated_round_day(world)
    seats = list(round_.seats.order_by("table__number", "position"))
    first, last = seats[0].registration_id, seats[-1].registration_id
    swap = reverse("tournaments:round_action", args=[other.slug, round_.number, "swap"])
    redraw = reverse("tournaments:round_action", args=[other.slug, round_.number, "regenerate"])
    expected = {
        "anonymous": LOGIN,
        "referee": 302,
        "referee_elsewhere": 302,  # the other tournament's own referee
        "organiser": 404,  # organises our tournament, not this one
        "organiser_elsewhere": 302,
        "superuser": 302,
    }
    for role, answer in expected.items():
        client = client_for(world.users[role])
        with rolled_back():
            page = client.get(reverse("tournaments:round", args=[other.slug, round_.number]))
            before = _seating(round_)
            response = client.post(
                swap, {"first": first, "second": last, "confirmed": "on"}, follow=False
            )
            after = _seating(round_)
            if answer == LOGIN:
                assert response["Location"].startswith(LOGIN_PREFIX), role
                assert after == before
                continue
            assert response.status_code == answer, role
            if answer == 404:
                assert page.status_code == 404 and after == before, role
                continue
            html = page.content.decode()
            assert swap in html and redraw in html, f"{role} sees no swap or draw button"
            assert after != before, f"{role}: the swap did not happen"
        with rolled_back():
            seed_before = other.round_set.get(number=1).seed
            response = client.post(redraw)
            assert response.status_code == 302, role
            assert other.round_set.get(number=1).seed != seed_before, role


def _links_and_forms(html: str) -> set[str]:
    import re

    found = set(re.findall(r'<a [^>]*href="(/[^"#?]*)', html))
    found |= set(re.findall(r'<form [^>]*action="(/[^"#?]*)', html))
    found |= set(re.findall(r'hx-(?:post|get)="(/[^"#?]*)', html))
    return found


def test_no_page_offers_a_role_what_it_cannot_use(world):
    """Every link, form and htmx action on the staff pages a role sees leads to something the
    matrix above allows that role (a referee sees no archive, settings or referees link)."""
    from django.urls import Resolver404, resolve

    slug_ = world.tournament.slug
    pages = [
        reverse("tournaments:list"),
        reverse("tournaments:dashboard", args=[slug_]),
        reverse("tournaments:players", args=[slug_]),
        reverse("tournaments:round", args=[slug_, 1]),
        reverse("tournaments:round", args=[slug_, 2]),
        reverse("sheet", args=[slug_, world.open_table.pk]),
        reverse("sheet", args=[slug_, world.closed_table.pk]),
        reverse("sheet_history", args=[slug_, world.closed_table.pk]),
        reverse("tournaments:import", args=[slug_]),
        reverse("tournaments:staff", args=[slug_]),
        reverse("tournaments:settings", args=[slug_]),
    ]
    access_of = {}
    for row in ROWS:
        access_of.setdefault(row.name, set()).add(row.access)
    problems, checked = [], 0
    for role in ("referee", "organiser"):
        client = client_for(world.users[role])
        for page in pages:
            response = client.get(page)
            if response.status_code != 200:
                assert role == "referee" and response.status_code == 404, (role, page)
                continue
            for target in _links_and_forms(response.content.decode()):
                try:
                    match = resolve(target)
                except Resolver404:
                    continue  # static files
                name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
                if name not in access_of:
                    continue  # admin, i18n
                checked += 1
                if any(ACCESS[access][role] != OK for access in access_of[name]):
                    problems.append(f"{role} on {page}: offered {target} ({name})")
    assert not problems, "\n".join(problems)
    assert checked > 50

"""Every text a person types has one limit (``tournaments.limits``), the same in the form, the
model, the history tables and the archive: at its limit it is stored whole, on SQLite and on
PostgreSQL alike; one character more is a form error in the user's language that keeps what
was typed and writes nothing.

The forms are enumerated from the apps' form modules, so a new text field fails
:func:`test_every_text_field_of_every_form_is_walked` until it has a limit and a way here.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django import forms
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse

import scoring.forms
import tournaments.forms
from scoring.models import Deal, Penalty, ScoreSheet, SheetEvent
from scoring.services import Actor, deal_record
from tournaments import limits, services
from tournaments.models import Club, Registration, Round, Season, SeatRequest, Team, Tournament

from .conftest import legal_deal, make_tournament

pytestmark = pytest.mark.django_db

FORM_MODULES = (tournaments.forms, scoring.forms)

# What each form needs to be built (its fields may depend on it).
FORM_ARGUMENTS: dict[str, dict] = {
    "TeamForm": {"team_size": 2},
    "SwapForm": {"tournament": Tournament(pk=0)},
    "DealForm": {"seat_names": ["A", "B", "C", "D"]},
    "DealEntryForm": {"referee": True, "seat_names": ["A", "B", "C", "D"]},
    "PenaltyForm": {"players": [(1, "A")]},
    "PaperTotalsForm": {"players": [(0, "A")]},
    "PinForm": {"players": [(1, "A")]},
    "SeatRoundForm": {"first_round": True},
}


HIDDEN: dict[str, bool] = {}  # ``Form.field`` -> whether the page fills it (a hidden input)


def text_fields() -> dict[str, int | None]:
    """``Form.field`` -> its limit, for every text field of every form of the apps."""
    found = {}
    for module in FORM_MODULES:
        for name, cls in vars(module).items():
            if not (
                inspect.isclass(cls)
                and issubclass(cls, forms.BaseForm)
                and cls.__module__ == module.__name__
            ):
                continue
            form = cls(**FORM_ARGUMENTS.get(name, {}))
            for field_name, field in form.fields.items():
                if isinstance(field, forms.CharField):
                    found[f"{name}.{field_name}"] = field.max_length
                    HIDDEN[f"{name}.{field_name}"] = field.widget.is_hidden
    return found


# ---------------------------------------------------------------------------------------------
# The world each case starts from, and how each field is typed through its page
# ---------------------------------------------------------------------------------------------


@dataclass
class World:
    tournament: Tournament
    organiser_client: object
    referee_client: object
    organiser: object

    def sheet(self) -> ScoreSheet:
        round_ = self.tournament.round_set.first() or services.round_seat_next(
            tournament=self.tournament
        )
        return ScoreSheet.objects.filter(table__round=round_).order_by("table__number").first()

    def sheet_url(self, sheet: ScoreSheet) -> str:
        return reverse("sheet", args=[self.tournament.slug, sheet.table_id])


@pytest.fixture
def world(tournament, organiser_client, referee_client, organiser) -> World:
    return World(tournament, organiser_client, referee_client, organiser)


DEAL = {
    "action": "deal",
    "number": "1",
    "kind": "played",
    "taker": "0",
    "contract": "garde",
    "oudlers": "2",
    "points": "49",
    "points_camp": "attack",
}


def _tournament_form(w: World, field: str, value: str, *, settings: bool):
    data = {
        "name": "Open du club",
        "date": "2026-03-14",
        "place": "",
        "format": "individual",
        "rounds": "1",
        "deals_per_round": "4",
        "odd_tables": Tournament.OddTables.FIVE,
        "seating_priority": Tournament.SeatingPriority.REPEATS,
        "rule_set": "fft",
        "visibility": "during",
        "tie_breaks": "",
        field: value,
    }
    if settings:
        url = reverse("tournaments:settings", args=[w.tournament.slug])
    else:
        url = reverse("tournaments:create")
    response = w.organiser_client.post(url, data)
    if settings:
        written = Tournament.objects.filter(pk=w.tournament.pk)
    else:
        written = Tournament.objects.exclude(pk=w.tournament.pk)
    return response, lambda: list(written.values_list(field, flat=True))


def _player_form(w: World, field: str, value: str):
    data = {"last_name": "Nom", field: value}
    url = reverse("tournaments:players", args=[w.tournament.slug])
    response = w.organiser_client.post(url, data)

    def stored():
        registration = (
            Registration.objects.filter(tournament=w.tournament).select_related("player__club")
        ).order_by("-pk")[0]
        player = registration.player
        if field == "club":
            return [registration.club_name, player.club.name if player.club else ""]
        return [getattr(registration, field), getattr(player, field)]

    return response, stored


def _correct_form(w: World, field: str, value: str):
    """The organiser corrects this tournament's record of a player."""
    registration = Registration.objects.filter(tournament=w.tournament).first()
    url = reverse("tournaments:player_correct", args=[w.tournament.slug, registration.pk])
    response = w.organiser_client.post(url, {"last_name": "Nom", field: value})

    def stored():
        registration.refresh_from_db()
        return [getattr(registration, "club_name" if field == "club" else field)]

    return response, stored


def _team_form(w: World, field: str, value: str):
    teams = make_tournament(format=Tournament.Format.TEAMS_OF_2, organiser=w.organiser)
    data = {"name": "Équipe", "last_name_0": "Un", "last_name_1": "Deux", field: value}
    response = w.organiser_client.post(reverse("tournaments:players", args=[teams.slug]), data)

    def stored():
        if field == "name":
            return list(Team.objects.filter(tournament=teams).values_list("name", flat=True))
        name, index = field.rsplit("_", 1)
        registration = Registration.objects.filter(tournament=teams).order_by("pk")[int(index)]
        return [getattr(registration, "club_name" if name == "club" else name)]

    return response, stored


def _staff_form(w: World, field: str, value: str):
    data = {"username": "arbitre-neuf", "password": "Tarot-Arbitre-2026", field: value}
    response = w.organiser_client.post(reverse("tournaments:staff", args=[w.tournament.slug]), data)

    def stored():
        user = get_user_model().objects.filter(username=data["username"]).first()
        if user is None:
            return []
        if field == "username":
            return [user.get_username()]
        return [value] if user.check_password(value) else ["(another password)"]

    return response, stored


def _close_form(w: World, field: str, value: str):
    round_ = w.sheet().table.round  # seated, no sheet signed: closing needs a reason
    url = reverse("tournaments:round_action", args=[w.tournament.slug, round_.number, "close"])
    response = w.referee_client.post(url, {field: value})
    return response, lambda: [Round.objects.get(pk=round_.pk).close_reason]


def _calculator(w: World, field: str, value: str):
    data = {**DEAL, "players": "4", field: value}
    del data["action"], data["number"], data["kind"]
    response = w.organiser_client.post(reverse("calculator"), data)
    return response, None


def _deal_entry(w: World, field: str, value: str):
    sheet = w.sheet()
    url = w.sheet_url(sheet)
    if field == "reason":  # a correction of deal 1, with its reason
        deal_record(sheet=sheet, number=1, kind="played", deal=legal_deal(), actor=Actor.table())
        deal = Deal.objects.get(sheet=sheet)
        data = {**DEAL, "points": "45", "version": str(deal.version), "reason": value}
    elif field == "note":  # a deal decided by the referee
        data = {**DEAL, "kind": "referee", "note": value}
    else:
        data = {**DEAL, field: value}
    response = w.referee_client.post(url, data)

    def stored():
        deal = Deal.objects.filter(sheet=sheet).first()
        if deal is None:
            return []
        if field == "reason":
            event = SheetEvent.objects.filter(sheet=sheet, action="deal_corrected").first()
            change = deal.history.order_by("-history_id")[0].history_change_reason
            return [change, event.reason if event else ""]
        if field == "note":
            return [deal.note]
        if field == "key":
            return [deal.entry_key]
        return [value]  # the points: the deal was recorded

    return response, stored


def _delete_last(w: World, field: str, value: str):
    sheet = w.sheet()
    deal_record(sheet=sheet, number=1, kind="played", deal=legal_deal(), actor=Actor.table())
    response = w.referee_client.post(w.sheet_url(sheet), {"action": "delete_last", field: value})

    def stored():
        if Deal.objects.filter(sheet=sheet).exists():
            return []
        event = SheetEvent.objects.get(sheet=sheet, action="deal_removed")
        change = Deal.history.filter(sheet=sheet, history_type="-").get().history_change_reason
        return [event.reason, change]

    return response, stored


def _penalty(w: World, field: str, value: str):
    sheet = w.sheet()
    registration = sheet.table.seats.first().registration_id
    data = {"action": "penalty", "registration": registration, "amount": "-10", field: value}
    response = w.referee_client.post(w.sheet_url(sheet), data)

    def stored():
        penalty = Penalty.objects.filter(sheet=sheet).first()
        event = SheetEvent.objects.filter(sheet=sheet, action="penalty").first()
        return [penalty.reason, event.reason] if penalty and event else []

    return response, stored


def _paper(w: World, field: str, value: str):
    sheet = w.sheet()
    totals = {f"total_{p}": str(t) for p, t in enumerate([30, -10, -10, -10])}
    response = w.referee_client.post(
        w.sheet_url(sheet), {"action": "paper", **totals, field: value}
    )

    def stored():
        event = SheetEvent.objects.filter(sheet=sheet, action="paper_totals").first()
        return [event.reason] if event else []

    return response, stored


def _pin(w: World, field: str, value: str):
    sheet = w.sheet()
    for number in range(1, w.tournament.deals_per_round + 1):  # complete: the players sign
        deal_record(
            sheet=ScoreSheet.objects.get(pk=sheet.pk),
            number=number,
            kind="played",
            deal=legal_deal(),
            actor=Actor.table(),
        )
    registration = sheet.table.seats.first().registration_id
    data = {"action": "sign", "registration": registration, field: value}
    return w.referee_client.post(w.sheet_url(sheet), data), None


def _club_form(w: World, field: str, value: str):
    """The organiser opens a club page."""
    data = {"name": "Club des Rois", "place": "", field: value}
    response = w.organiser_client.post(reverse("tournaments:clubs"), data)
    return response, lambda: list(
        Club.objects.filter(organisers=w.organiser).values_list(field, flat=True)
    )


def _season_form(w: World, field: str, value: str):
    """The organiser of a club page starts a season."""
    club = Club.objects.create(name="Club des Rois", slug="club-des-rois")
    club.organisers.add(w.organiser)
    data = {
        "action": "season",
        "season-name": "Saison 2026",
        "season-start": "2026-01-01",
        "season-end": "2026-12-31",
        "season-kind": Season.Kind.PLACES,
        "season-best": "0",
        "season-place_points": "100,90,80",
        "season-scale_to": "0",
        "season-attendance_bonus": "0",
        "season-tie_breaks": "",
        f"season-{field}": value,
    }
    response = w.organiser_client.post(reverse("tournaments:club", args=[club.slug]), data)
    return response, lambda: list(Season.objects.filter(club=club).values_list(field, flat=True))


def _seat_request_form(w: World, field: str, value: str):
    """A player asks for a seat on the public page (the page answers 200, not a redirect)."""
    Tournament.objects.filter(pk=w.tournament.pk).update(capacity=1000)  # no round yet
    data = {"last_name": "Nom", "first_name": "Prénom", "licence": "", "club": "", "email": ""}
    data[field] = value
    url = reverse("public:seat_request", args=[w.tournament.slug])
    response = w.organiser_client.post(url, data)
    return response, lambda: list(
        SeatRequest.objects.filter(tournament=w.tournament).values_list(field, flat=True)
    )


# A form whose page answers a success with a page of its own rather than a redirect.
SUCCESS_STATUS = {"SeatRequestForm": 200}

Case = Callable[[World, str, str], tuple]
CASES: dict[str, Case] = {
    "TournamentForm": lambda w, f, v: _tournament_form(w, f, v, settings=False),
    "TournamentSettingsForm": lambda w, f, v: _tournament_form(w, f, v, settings=True),
    "PlayerForm": _player_form,
    "PlayerRecordForm": _correct_form,
    "TeamForm": _team_form,
    "StaffForm": _staff_form,
    "CloseRoundForm": _close_form,
    "DealForm": _calculator,
    "DealEntryForm": _deal_entry,
    "DeleteLastForm": _delete_last,
    "PenaltyForm": _penalty,
    "PaperTotalsForm": _paper,
    "PinForm": _pin,
    "ClubForm": _club_form,
    "SeasonForm": _season_form,
    "SeatRequestForm": _seat_request_form,
}


def typed(field: str, length: int) -> str:
    """A text of ``length`` characters the field would otherwise accept: accented letters
    (two bytes each in UTF-8: a limit counts characters) unless the field wants otherwise."""
    if field == "username":
        return "a" * length
    if field == "password":
        return ("Tarot-Arbitre-" + "é" * length)[:length]
    if field == "points":
        return "49".rjust(length, "0")
    if field == "key":
        return "k" * length
    if field == "pin":
        return "9" * length
    if field == "verify_url":
        site = "https://tarot.example.org/"
        return site + "a" * (length - len(site))
    if field == "email":
        domain = "@club.fr"
        return "a" * (length - len(domain)) + domain
    if field == "place_points":
        # 200 places (the most a season takes), never worth more than the place before:
        # "10000,9999,...,9999" is 1,000 characters; one more is a trailing digit.
        text = ",".join(["10000", *["9999"] * 199])
        return text[:length] if length <= len(text) else text + "0" * (length - len(text))
    if field == "series_list":
        # Distinct séries of a few characters, one a line (as stored): never a blank end.
        text = "\n".join(f"Série {n}" for n in range(1, 100))[:length]
        return text if text[-1].strip() else text[:-1] + "x"
    return "é" * length


FIELDS = text_fields()


def test_every_text_field_of_every_form_is_walked():
    assert {name: limit for name, limit in FIELDS.items() if limit is None} == {}
    assert {name.split(".")[0] for name in FIELDS} <= set(CASES)


def test_one_limit_per_kind_of_text():
    """The forms and the models read the same numbers."""
    numbers = {value for key, value in vars(limits).items() if key.isupper()}
    for name, limit in FIELDS.items():
        assert limit in numbers, name
    for model, field, limit in [
        ("tournaments.Registration", "last_name", limits.NAME),
        ("tournaments.Registration", "club_name", limits.CLUB),
        ("tournaments.Player", "licence", limits.LICENCE),
        ("tournaments.Round", "close_reason", limits.REASON),
        ("scoring.Deal", "note", limits.REASON),
        ("scoring.Penalty", "reason", limits.REASON),
        ("scoring.SheetEvent", "reason", limits.REASON),
        ("scoring.HistoricalDeal", "history_change_reason", limits.REASON),
        ("scoring.HistoricalPenalty", "history_change_reason", limits.REASON),
        ("scoring.HistoricalScoreSheet", "history_change_reason", limits.REASON),
        ("tournaments.HistoricalRegistration", "history_change_reason", limits.REASON),
        ("tournaments.HistoricalRegistration", "club_name", limits.CLUB),
    ]:
        assert apps.get_model(model)._meta.get_field(field).max_length == limit, (model, field)


def rows() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_a_text_at_its_limit_is_kept_whole(world, name):
    form, field = name.split(".")
    limit = FIELDS[name]
    value = typed(field, limit)
    response, stored = CASES[form](world, field, value)
    content = html.unescape(response.content.decode())
    assert f"at most {limit} characters" not in content, name
    if stored is not None:
        expected = SUCCESS_STATUS.get(form, 302)
        assert response.status_code == expected, (name, response.status_code)
        found = stored()
        assert found and all(text == value for text in found), (name, found)


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_one_character_more_is_a_form_error_that_writes_nothing(world, name):
    form, field = name.split(".")
    limit = FIELDS[name]
    value = typed(field, limit + 1)
    before: dict[str, int] = {}

    # The case builds its starting point (a seated round, a deal) before posting: count the
    # rows just before the post by wrapping the clients' post.
    def counting(client):
        post = client.post

        def wrapped(*args, **kwargs):
            before.update(rows())
            return post(*args, **kwargs)

        client.post = wrapped

    counting(world.organiser_client)
    counting(world.referee_client)
    response, _stored = CASES[form](world, field, value)
    assert response.status_code == 422, (name, response.status_code)
    assert rows() == before, name
    if HIDDEN.get(name):  # made by the page, not typed: refused, nothing more to show
        return
    content = html.unescape(response.content.decode())
    assert f"at most {limit} characters (it has {limit + 1})" in content, name
    if field not in ("password", "pin"):  # never shown again
        assert value in content, f"{name}: what was typed is lost"

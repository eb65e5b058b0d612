"""Archive import checks every value as the forms would: types, limits, lists of choices, scores
scored again and zero-sum; a refusal says where and what in the user's language and writes
nothing. What the archive says someone did is never attributed to an account of this
installation."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from scoring.archive import export_tournament, import_json
from scoring.demo import create_demo
from scoring.models import Deal, Penalty, ScoreSheet, SheetEvent, SheetSeal, Signature
from scoring.selectors import current_canonical
from scoring.services import Actor, penalty_add
from tarot_club.errors import ServiceError
from tournaments.models import Player, Registration, Round, Tournament
from tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db

MODELS = [Tournament, Registration, Player, Round, Deal, Signature, SheetEvent, SheetSeal, Penalty]


def counts():
    return {
        **{m.__name__: m.objects.count() for m in MODELS},
        "users": get_user_model().objects.count(),
        "history": Deal.history.count(),
    }


@pytest.fixture
def archive(db, settings, tmp_path, django_user_model):
    settings.SEAL_KEY_FILE = str(tmp_path / "seal-key")
    tournament = create_demo(players=8, rounds=2, deals=2, seed=5, play_rounds=1).tournament
    referee = django_user_model.objects.create_user("arbitre-b", password="pw-arbitre-b1")
    sheet = ScoreSheet.objects.filter(table__round__tournament=tournament).first()
    from tournaments import services

    services.round_reopen(round_=tournament.round_set.get(number=1))
    penalty_add(
        sheet=sheet,
        registration=sheet.table.seats.first().registration,
        amount=-10,
        reason="Retard",
        actor=Actor.staff(referee),
    )
    data = export_tournament(tournament)
    tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    return data


def sheets(archive, status=None):
    return [
        t["sheet"]
        for r in archive["rounds"]
        for t in r["tables"]
        if status is None or t["sheet"]["status"] == status
    ]


def unsigned(archive):
    return next(s for s in sheets(archive) if s["status"] != "signed")


def first_deal(archive):
    return next(d for s in sheets(archive) for d in s["deals"])


def _paper_1000(archive):
    sheet = unsigned(archive)
    sheet.update(deals=[], deal_history=[], paper_mode=True)
    sheet["paper_totals"] = [1000] + [0] * (len(sheet["paper_totals"]) or 3)


def _set(path_fn, key, value):
    def change(archive):
        path_fn(archive)[key] = value

    return change


MUTATIONS = {
    "registration status zombie": (
        _set(lambda a: a["registrations"][0], "status", "zombie"),
        "registrations[0].status",
    ),
    "paper totals +1000 on an unsigned sheet": (_paper_1000, "paper_totals"),
    "sheet version -1": (_set(unsigned, "version", -1), "sheet.version"),
    "sheet version true": (_set(unsigned, "version", True), "sheet.version"),
    "deal version -1": (_set(first_deal, "version", -1), "version"),
    "deal version true": (_set(first_deal, "version", True), "version"),
    "deal kind": (_set(first_deal, "kind", "bogus"), "kind"),
    "points NaN": (_set(first_deal, "points", "NaN"), "points"),
    "points as a number": (_set(first_deal, "points", 45), "points"),
    "points 1e5": (_set(first_deal, "points", "1e5"), "points"),
    "scores not zero-sum": (
        lambda a: first_deal(a)["scores"].__setitem__(0, first_deal(a)["scores"][0] + 1),
        "scores",
    ),
    "round status": (_set(lambda a: a["rounds"][0], "status", "zombie"), "rounds[0].status"),
    "round number 10**30": (_set(lambda a: a["rounds"][0], "number", 10**30), "rounds[0].number"),
    "position 10**30": (
        _set(lambda a: a["rounds"][0]["tables"][0]["seats"][0], "position", 10**30),
        "position",
    ),
    "table number 10**30": (
        _set(lambda a: a["rounds"][0]["tables"][0], "number", 10**30),
        "tables[0].number",
    ),
    "signature method": (
        _set(lambda a: sheets(a, "signed")[0]["signatures"][0], "method", "thumb"),
        "method",
    ),
    "history type": (
        _set(
            lambda a: next(s for s in sheets(a) if s["deal_history"])["deal_history"][0],
            "history_type",
            "?",
        ),
        "history_type",
    ),
    "NUL in a name": (
        _set(lambda a: a["registrations"][0], "last_name", "Du\x00pont"),
        "last_name",
    ),
    "unknown team": (_set(lambda a: a["registrations"][0], "team", 4242), "team"),
    "tournament format": (_set(lambda a: a["tournament"], "format", "duo"), "format"),
    "penalty of 10**9": (
        _set(
            lambda a: next(s for s in sheets(a) if s["penalties"])["penalties"][0], "amount", 10**9
        ),
        "amount",
    ),
    "event data nested 40 deep": (
        lambda a: next(s for s in sheets(a) if s["events"])["events"][0].__setitem__(
            "data", json.loads('{"x": ' + "[" * 40 + "]" * 40 + "}")
        ),
        "data",
    ),
    "a file that is a list": (lambda a: a.__setitem__("rounds", {"0": 1}), "rounds"),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_a_value_the_forms_would_refuse_is_refused_where_it_is_and_writes_nothing(archive, name):
    change, where = MUTATIONS[name]
    change(archive)
    before = counts()
    with translation.override("fr"), pytest.raises(ServiceError) as raised:
        import_json(json.dumps(archive))
    message = str(raised.value)
    assert message.startswith("L'archive est endommagée"), message
    assert where in message and "rien n'a été importé" in message, message
    assert len(message) < 400
    assert counts() == before


def test_the_same_archive_untouched_imports(archive):
    tournament = import_json(json.dumps(archive))
    assert tournament.registrations.count() == len(archive["registrations"])


@pytest.mark.parametrize(
    ("raw", "what"),
    [
        ('"__MARK__"', "0" * 0 + "7" * 5000),
        ('"__MARK__"', "NaN"),
        ('"__MARK__"', "-Infinity"),
        ('"__MARK__"', "1e400"),
        ('"__MARK__"', "[" * 100_000 + "]" * 100_000),
    ],
    ids=["5000 digits", "NaN", "-Infinity", "1e400", "100000 deep"],
)
def test_raw_values_json_allows_or_python_chokes_on_are_refused(archive, raw, what):
    archive["tournament"]["seed"] = "__MARK__"
    content = json.dumps(archive).replace(raw, what)
    before = counts()
    with translation.override("fr"), pytest.raises(ServiceError) as raised:
        import_json(content)
    assert str(raised.value).startswith("L'archive est endommagée"), str(raised.value)
    assert len(str(raised.value)) < 400
    assert counts() == before


def test_history_is_never_attributed_to_an_account_of_this_installation(archive):
    local = get_user_model().objects.get(username="arbitre-b")
    tournament = import_json(json.dumps(archive))
    penalties = Penalty.objects.filter(sheet__table__round__tournament=tournament)
    assert penalties.exists()
    for penalty in penalties:
        assert penalty.referee != local
        assert penalty.referee.username == "arbitre-b (archive)"
        assert not penalty.referee.is_active and not penalty.referee.has_usable_password()
    assert not Deal.history.filter(history_user=local).exists()
    assert not SheetEvent.objects.filter(actor=local).exists()
    # Documents and seals show the name as the archive had it: fingerprints still match.
    for sheet in ScoreSheet.objects.filter(table__round__tournament=tournament, status="signed"):
        assert current_canonical(sheet)[0] == sheet.fingerprint


def test_a_name_nobody_uses_here_becomes_an_account_that_cannot_log_in(archive):
    get_user_model().objects.filter(username="arbitre-b").delete()
    tournament = import_json(json.dumps(archive))
    referee = Penalty.objects.filter(sheet__table__round__tournament=tournament).first().referee
    assert referee.username == "arbitre-b"
    assert not referee.is_active and not referee.has_usable_password()

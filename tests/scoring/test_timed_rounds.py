"""Timed rounds: the deals per round are a maximum; the referee calls time on the round and
every table stops where it is. A table that stopped early has fewer deals, marked « temps
écoulé » on the sheet (page, PDF, Excel); its players sign it as usual and the round closes;
the standings stay the sum of the points and show the deals played."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import ScoreSheet
from scoring.services import (
    deal_record,
    next_deal_number,
    round_call_time,
    sheet_sign_with_pin,
)
from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.models import Seat, StaffMember

from .conftest import TABLE, legal, staff

pytestmark = pytest.mark.django_db


def timed_tournament(timed: bool = True):
    """A tournament of 8 present players (timed rounds unless ``timed`` is False), round 1
    seated, its referee ``arbitre`` (password ``pw-arbitre-1``) and its two sheets."""
    tournament = services.tournament_create(
        created_by=None,
        name="Tournoi en 60 minutes",
        date=date(2026, 11, 30),
        rounds=2,
        deals_per_round=5,
        timed_rounds=timed,
        seed=3,
    )
    for i in range(8):
        services.player_register(
            tournament=tournament,
            row=services.PlayerRow(last_name=f"Joueur{i:02d}", first_name="Ève"),
            present=True,
        )
    round_ = services.round_seat_next(tournament=tournament)
    referee = get_user_model().objects.create_user("arbitre", password="pw-arbitre-1")
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    first, second = ScoreSheet.objects.filter(table__round=round_).order_by("table__number")
    return tournament, round_, referee, first, second


def _visible(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _download(client, tournament, sheet, fmt: str) -> bytes:
    url = reverse("sheet_document", args=[tournament.slug, 1, sheet.table.number, fmt])
    response = client.get(url)
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_the_referee_calls_time_and_tables_stop_where_they_are(client):
    cache.clear()
    tournament, round_, referee, first, second = timed_tournament()
    for number in range(1, 6):
        deal_record(sheet=first, number=number, kind="played", deal=legal(), actor=TABLE)
    for number in range(1, 4):
        deal_record(sheet=second, number=number, kind="played", deal=legal(taker=1), actor=TABLE)
    client.force_login(referee)
    round_url = reverse("tournaments:round", args=[tournament.slug, 1])
    page = client.get(round_url).content.decode()
    assert 'id="call-time"' in page
    response = client.post(
        reverse("tournaments:round_action", args=[tournament.slug, 1, "call_time"])
    )
    assert response.status_code == 302
    assert 'id="time-called"' in client.get(round_url).content.decode()

    second.refresh_from_db()
    first.refresh_from_db()
    assert (first.status, second.status) == ("complete", "complete")
    # No new deal once time is called; the sheet says « temps écoulé ».
    assert next_deal_number(second, list(second.deals.all()), 4) is None
    with pytest.raises(ServiceError):
        deal_record(sheet=second, number=4, kind="played", deal=legal(), actor=TABLE)
    sheet_page = _visible(
        client.get(reverse("sheet", args=[tournament.slug, second.table.pk])).content.decode()
    )
    assert "temps écoulé" in sheet_page and "3 sur 5" in sheet_page, sheet_page[:600]
    full_page = client.get(reverse("sheet", args=[tournament.slug, first.table.pk]))
    assert "temps écoulé" not in _visible(full_page.content.decode())
    pdf = " ".join(
        " ".join(
            p.extract_text()
            for p in PdfReader(io.BytesIO(_download(client, tournament, second, "pdf"))).pages
        ).split()
    )
    assert "temps écoulé (3 donnes jouées)" in pdf
    ws = load_workbook(io.BytesIO(_download(client, tournament, second, "xlsx")))["R1 T2"]
    cells = [str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None]
    assert any("temps écoulé (3 donnes jouées)" in c for c in cells)
    history = _visible(
        client.get(
            reverse("sheet_history", args=[tournament.slug, second.table.pk])
        ).content.decode()
    )
    assert "la table s'est arrêtée après 3 donnes" in history

    # The players sign the shorter sheet as any other; the round then closes without a reason.
    for sheet in (first, second):
        for seat in Seat.objects.filter(table=sheet.table).select_related("registration"):
            sheet_sign_with_pin(
                sheet=sheet,
                registration=seat.registration,
                pin=seat.registration.pin,
                client="test",
                actor=TABLE,
            )
    services.round_close(round_=round_)

    # Standings: the sum of each player's points, and the deals they played (5 or 3).
    response = client.get(reverse("public:standings", args=[tournament.slug]))
    rows = {row["id"]: row for row in response.context["table"].data}
    for seat in Seat.objects.filter(round=round_):
        assert rows[seat.registration_id]["total"] == seat.points
        assert rows[seat.registration_id]["deals"] == (5 if seat.table_id == first.table_id else 3)


def test_time_is_called_only_by_a_referee_of_a_timed_tournament():
    _, round_, referee, _, _ = timed_tournament(timed=False)
    with pytest.raises(ServiceError, match="ne se joue pas en temps limité"):
        round_call_time(round_=round_, actor=staff(referee))
    _, round_, referee, _, _ = _timed_second()
    with pytest.raises(ServiceError, match="Seul un arbitre"):
        round_call_time(round_=round_, actor=TABLE)
    round_call_time(round_=round_, actor=staff(referee))
    with pytest.raises(ServiceError, match="déjà"):
        round_call_time(round_=round_, actor=staff(referee))


def _timed_second():
    get_user_model().objects.filter(username="arbitre").delete()
    return timed_tournament()


def test_an_archive_keeps_the_timed_rounds_and_the_called_time():
    from scoring.archive import export_json, import_json
    from tournaments.models import Player, Round, Tournament

    tournament, round_, referee, _first, second = timed_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(odd_tables="three", seating_priority="fair")
    for number in range(1, 3):
        deal_record(sheet=second, number=number, kind="played", deal=legal(), actor=TABLE)
    round_call_time(round_=round_, actor=staff(referee))
    called_at = Round.objects.get(pk=round_.pk).time_called_at
    content = export_json(Tournament.objects.get(pk=tournament.pk))
    slug = tournament.slug
    services.tournament_delete(tournament=tournament)
    Player.objects.all().delete()

    imported = import_json(content)
    assert imported.slug == slug
    assert (imported.timed_rounds, imported.odd_tables, imported.seating_priority) == (
        True,
        "three",
        "fair",
    )
    assert imported.round_set.get(number=1).time_called_at == called_at
    sheet = ScoreSheet.objects.get(table__round__tournament=imported, table__number=2)
    assert (sheet.status, sheet.deals.count()) == ("complete", 2)
    assert next_deal_number(sheet, list(sheet.deals.all()), 4) is None


def test_an_archive_calling_time_in_an_untimed_tournament_is_refused():
    import json

    from scoring.archive import export_tournament, import_json
    from tournaments.models import Player, Round

    tournament, round_, referee, _first, _second = timed_tournament()
    round_call_time(round_=round_, actor=staff(referee))
    archive = export_tournament(tournament)
    archive["tournament"]["timed_rounds"] = False
    services.tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    with pytest.raises(ServiceError, match="temps limité"):
        import_json(json.dumps(archive).encode())
    assert not Round.objects.exists()


TIME_UP = "Temps écoulé : cette table s'arrête après 2 donnes."
LATE_DEAL = {
    "action": "deal",
    "number": "3",
    "kind": "played",
    "taker": "1",
    "contract": "garde",
    "oudlers": "2",
    "points": "49",
    "points_camp": "attack",
}


def test_a_deal_sent_after_time_was_called_is_told_so_not_that_every_deal_is_in(client):
    """North's page was open when time was called: a late save (the page's queue, or the form
    posted without JavaScript) gets the sentence the page now shows, not « Les 5 donnes de
    cette table sont enregistrées. », and nothing is written."""
    cache.clear()
    _tournament, round_, referee, _first, second = timed_tournament()
    for number in (1, 2):
        deal_record(sheet=second, number=number, kind="played", deal=legal(), actor=TABLE)
    queue = reverse("table_sheet_deal", args=[second.token])
    assert client.get(queue).json() == {"state": "open"}
    round_call_time(round_=round_, actor=staff(referee))
    assert client.get(queue).json() == {"state": "time"}  # what the open page asks

    with pytest.raises(ServiceError, match=re.escape(TIME_UP)):
        deal_record(sheet=second, number=3, kind="played", deal=legal(), actor=TABLE)
    sent = client.post(queue, {**LATE_DEAL, "key": "c3" * 16})
    assert sent.status_code == 409
    assert sent.json() == {"status": "stopped", "number": 3, "message": TIME_UP}
    posted = client.post(reverse("table_sheet", args=[second.token]), LATE_DEAL)
    assert posted.status_code == 409
    page = _visible(posted.content.decode())
    assert TIME_UP in page and "enregistrées" not in page
    assert 'id="entry"' not in posted.content.decode()  # no form to type it in again
    assert second.deals.count() == 2


def test_the_table_link_offers_no_correction_once_players_sign(client):
    """A player signed: the table link shows no correction form (the service would refuse
    it), but says why; the referee's page still offers it."""
    cache.clear()
    tournament, _round, referee, _first, second = timed_tournament()
    for number in range(1, 6):
        deal_record(sheet=second, number=number, kind="played", deal=legal(), actor=TABLE)
    queue = reverse("table_sheet_deal", args=[second.token])
    assert client.get(queue).json() == {"state": "complete"}
    correction = reverse("table_sheet", args=[second.token]) + "?donne=2"
    assert 'id="entry"' in client.get(correction).content.decode()
    seat = Seat.objects.filter(table=second.table).select_related("registration").first()
    sheet_sign_with_pin(
        sheet=second,
        registration=seat.registration,
        pin=seat.registration.pin,
        client="127.0.0.1",
        actor=TABLE,
    )
    assert client.get(queue).json() == {"state": "signing"}
    html = client.get(correction).content.decode()
    assert 'id="entry"' not in html and 'id="sheet-locked"' in html
    assert "Les joueurs ont commencé à signer cette feuille" in _visible(html)
    client.force_login(referee)
    referee_page = client.get(
        reverse("sheet", args=[tournament.slug, second.table.pk]) + "?donne=2"
    )
    assert 'id="entry"' in referee_page.content.decode()


def _pdf_text(client, tournament, sheet) -> str:
    pages = PdfReader(io.BytesIO(_download(client, tournament, sheet, "pdf"))).pages
    return " ".join(" ".join(p.extract_text() for p in pages).split())


def _xlsx_cells(client, tournament, sheet) -> list[str]:
    book = load_workbook(io.BytesIO(_download(client, tournament, sheet, "xlsx")))
    ws = book[f"R1 T{sheet.table.number}"]
    return [str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None]


@pytest.mark.parametrize(
    ("kinds", "label"),
    [(["played", "passed", "played", "played"], "3 donnes jouées"), (["played"], "1 donne jouée")],
)
def test_a_sheet_stopped_by_time_counts_its_deals_as_the_players_do(client, kinds, label):
    """« temps écoulé (4 donnes) » over a sheet whose players each show 3 played (a passed
    deal is not played) and « 1 donnes » are gone: the header says what the players count."""
    cache.clear()
    tournament, round_, referee, _first, second = timed_tournament()
    for number, kind in enumerate(kinds, start=1):
        deal = legal() if kind == "played" else None
        deal_record(sheet=second, number=number, kind=kind, deal=deal, actor=TABLE)
    round_call_time(round_=round_, actor=staff(referee))
    client.force_login(referee)
    assert f"temps écoulé ({label})" in _pdf_text(client, tournament, second)
    assert any(f"temps écoulé ({label})" in c for c in _xlsx_cells(client, tournament, second))


def test_the_round_overview_tags_a_table_stopped_by_time(client):
    """The round page's tables: « Complète » alone for a table that played all its deals,
    « Complète temps écoulé » for one that time stopped."""
    cache.clear()
    tournament, round_, referee, first, second = timed_tournament()
    for number in range(1, 6):
        deal_record(sheet=first, number=number, kind="played", deal=legal(), actor=TABLE)
    deal_record(sheet=second, number=1, kind="played", deal=legal(), actor=TABLE)
    client.force_login(referee)
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    assert "temps écoulé" not in _visible(client.get(url).content.decode())
    round_call_time(round_=round_, actor=staff(referee))
    rows = re.findall(
        r"<tr class=\"state-[^\"]*\">.*?</tr>", client.get(url).content.decode(), re.S
    )
    assert len(rows) == 2
    assert "temps écoulé" not in _visible(rows[0]) and "5/5" in _visible(rows[0])
    assert "Complète temps écoulé" in _visible(rows[1]) and "1/5" in _visible(rows[1])


@pytest.mark.parametrize(
    ("timed", "deals", "odd", "summary"),
    [
        (True, 5, "three", "positions en temps limité, 5 donnes au plus · tables de 3 si besoin"),
        (False, 1, "five", "1 donne par position · tables de 5 si besoin"),
    ],
)
def test_the_tournament_summary_says_timed_rounds_and_odd_tables(
    client, timed, deals, odd, summary
):
    cache.clear()
    tournament, _round, referee, _first, _second = timed_tournament(timed=timed)
    type(tournament).objects.filter(pk=tournament.pk).update(deals_per_round=deals, odd_tables=odd)
    client.force_login(referee)
    page = _visible(
        client.get(reverse("tournaments:dashboard", args=[tournament.slug])).content.decode()
    )
    assert summary in page, page[:400]

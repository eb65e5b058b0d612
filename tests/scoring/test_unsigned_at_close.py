"""Issue 27: a round closed with an unsigned sheet, and time called before a table's first deal.

A sheet the referee closed its round without keeps counting in the standings with the deals it
has (one rule, ``scoring.standings.sheet_counts``, also used by the round's public results): the
closing form says which tables are unsigned and what closing does, and the player's page, the
sheet's PDF and its Excel file mark it « non signée », the Excel file with the referee's reason.

A timed round whose time is called before a table's first deal reads « Temps écoulé : aucune
donne jouée » everywhere (not « Complète »), and its players score 0 for the round.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import ScoreSheet
from scoring.services import deal_record, round_call_time, sheet_sign_with_pin
from scoring.standings import sheet_counts, standings_data
from tarot_club.errors import ServiceError
from tournaments import services
from tournaments.models import Round, Seat, StaffMember

from .conftest import TABLE, legal, make_tournament, staff
from .test_timed_rounds import timed_tournament

pytestmark = pytest.mark.django_db

NO_DEAL = "Temps écoulé : aucune donne jouée"


def visible(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def download(client, tournament, sheet, fmt: str) -> bytes:
    url = reverse(
        "sheet_document", args=[tournament.slug, sheet.table.round.number, sheet.table.number, fmt]
    )
    response = client.get(url)
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())


def xlsx_cells(data: bytes) -> list[str]:
    book = load_workbook(io.BytesIO(data))
    return [str(v) for ws in book for row in ws.iter_rows(values_only=True) for v in row if v]


def sign(sheet) -> None:
    for seat in Seat.objects.filter(table=sheet.table).select_related("registration"):
        sheet_sign_with_pin(
            sheet=sheet,
            registration=seat.registration,
            pin=seat.registration.pin,
            client="test",
            actor=TABLE,
        )


def test_the_rule():
    assert sheet_counts(ScoreSheet.Status.COMPLETE, False)
    assert sheet_counts(ScoreSheet.Status.SIGNED, False)
    assert sheet_counts(ScoreSheet.Status.AMENDED, False)
    assert not sheet_counts(ScoreSheet.Status.IN_PROGRESS, False)  # still being played
    assert not sheet_counts(ScoreSheet.Status.NOT_STARTED, False)
    assert sheet_counts(ScoreSheet.Status.IN_PROGRESS, True)  # closed: the deals it has
    assert sheet_counts(ScoreSheet.Status.NOT_STARTED, True)


def test_a_round_closed_with_an_unsigned_sheet_keeps_its_deals_in_the_standings(client, referee):
    cache.clear()
    tournament, round_ = make_tournament(8)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    first, second = (t.sheet for t in round_.tables.order_by("number"))
    for number in range(1, 5):
        deal_record(sheet=first, number=number, kind="played", deal=legal(), actor=TABLE)
    sign(first)
    for number in (1, 2):
        deal_record(sheet=second, number=number, kind="played", deal=legal(taker=1), actor=TABLE)
    client.force_login(referee)

    # The closing form lists the unsigned table with its deals and says what closing does.
    round_url = reverse("tournaments:round", args=[tournament.slug, 1])
    page = visible(client.get(round_url))
    assert "Cette table n'a pas signé sa feuille : Table 2 : 2 donnes saisies sur 4" in page
    assert "garde chacune de ces feuilles au classement avec les donnes qu'elle contient" in page
    with pytest.raises(ServiceError):
        services.round_close(round_=round_)
    response = client.post(
        reverse("tournaments:round_action", args=[tournament.slug, 1, "close"]),
        {"reason": "Table 2 a abandonné"},
    )
    assert response.status_code == 302
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED

    # The standings count the unsigned sheet's two deals, as the player's page shows them.
    data = standings_data(tournament)
    assert not data.provisional
    seats = list(Seat.objects.filter(table=second.table).select_related("registration"))
    assert any(seat.points for seat in seats)
    entries = {e.id: e for e in data.entries}
    for seat in Seat.objects.filter(round=round_):
        assert entries[seat.registration_id].rounds == {1: seat.points}
    standings = client.get(reverse("public:standings", args=[tournament.slug]))
    rows = {row["id"]: row for row in standings.context["table"].data}
    for seat in seats:
        assert rows[seat.registration_id]["total"] == seat.points
        assert rows[seat.registration_id]["deals"] == 2

    # The round's public results show the table's points, marked « non signée ».
    results = client.get(reverse("public:round", args=[tournament.slug, 1]))
    cards = results.content.decode().split('class="card table-card"')
    assert "non signée" in cards[2] and "non signée" not in cards[1]
    for seat in seats:
        assert f"{seat.registration.full_name}</a> <strong" in cards[2]

    # The player's page marks the round « non signée »; the signed table's players' do not.
    player = seats[0].registration
    page = visible(client.get(reverse("public:player", args=[tournament.slug, player.pk])))
    assert "non signée" in page
    signed_player = Seat.objects.filter(table=first.table).first().registration
    page = visible(client.get(reverse("public:player", args=[tournament.slug, signed_player.pk])))
    assert "non signée" not in page

    # The sheet's PDF and Excel file say it too, the Excel file with the referee's reason.
    second.refresh_from_db()
    assert "Non signée (position close)" in pdf_text(download(client, tournament, second, "pdf"))
    assert "Non signée" not in pdf_text(download(client, tournament, first, "pdf"))
    cells = xlsx_cells(download(client, tournament, second, "xlsx"))
    assert any(
        "Non signée (position close) — motif de l'arbitre : Table 2 a abandonné" in c for c in cells
    ), cells[:20]


def test_time_called_before_the_first_deal_reads_no_deal_played_everywhere(client):
    cache.clear()
    tournament, round_, referee, first, second = timed_tournament()
    for number in range(1, 3):
        deal_record(sheet=first, number=number, kind="played", deal=legal(), actor=TABLE)
    round_call_time(round_=round_, actor=staff(referee))
    second.refresh_from_db()
    client.force_login(referee)

    dashboard = client.get(reverse("tournaments:round", args=[tournament.slug, 1]))
    rows = dashboard.content.decode().split("</tbody>")[0].split('<tr class="state-')[1:]
    row_2 = " ".join(re.sub(r"<[^>]+>", " ", rows[1].split(">", 1)[1]).split())
    assert row_2.startswith("2 ") and "0/5" in row_2, row_2
    assert NO_DEAL in row_2 and "Complète" not in row_2, row_2
    sheet_page = visible(client.get(reverse("sheet", args=[tournament.slug, second.table.pk])))
    assert NO_DEAL in sheet_page
    north = visible(client.get(reverse("table_sheet", args=[second.token])))
    assert NO_DEAL in north and "s'arrête après 0" not in north
    with pytest.raises(ServiceError, match=NO_DEAL):
        deal_record(sheet=second, number=1, kind="played", deal=legal(), actor=TABLE)
    pdf = pdf_text(download(client, tournament, second, "pdf"))
    assert NO_DEAL in pdf and "Complète" not in pdf and "0 donnes jouées" not in pdf
    assert any(NO_DEAL in c for c in xlsx_cells(download(client, tournament, second, "xlsx")))
    player = Seat.objects.filter(table=second.table).first().registration
    page = visible(client.get(reverse("public:player", args=[tournament.slug, player.pk])))
    assert NO_DEAL in page and "Aucune donne saisie" not in page
    results = visible(client.get(reverse("public:round", args=[tournament.slug, 1])))
    assert NO_DEAL in results

    # Its players score 0 for the round, once signed or once the round is closed.
    sign(first)
    services.round_close(round_=round_, reason="la table 2 n'a pas joué")
    entries = {e.id: e for e in standings_data(tournament).entries}
    for seat in Seat.objects.filter(table=second.table):
        assert entries[seat.registration_id].rounds == {1: 0}
        assert entries[seat.registration_id].deals_played == 0

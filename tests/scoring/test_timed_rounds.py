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
    assert "temps écoulé (3 donnes)" in pdf
    ws = load_workbook(io.BytesIO(_download(client, tournament, second, "xlsx")))["R1 T2"]
    cells = [str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None]
    assert any("temps écoulé (3 donnes)" in c for c in cells)
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

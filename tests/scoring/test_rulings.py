"""A referee's ruling: the referee types a deal's scores per seat (a misdeal, a revoke, a
dispute), with a reason. Zero-sum, marked as a ruling on the sheet page, the PDF, the Excel file
and the history, signed like any deal, and kept by the archive. Read back as people read it."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive import export_json, import_json
from scoring.models import Deal, Score, ScoreSheet, SheetEvent
from scoring.services import deal_record, sheet_sign_with_pin
from tarot_club.errors import ServiceError
from tournaments.models import Player, Seat, StaffMember
from tournaments.services import tournament_delete

from .conftest import TABLE, legal, make_tournament, staff

pytestmark = pytest.mark.django_db

REASON = "Renonce de Sud au 5e pli"


def _table(players: int, referee, deals: int = 2):
    tournament, round_ = make_tournament(players, deals=deals)
    StaffMember.objects.create(tournament=tournament, user=referee, role="referee")
    sheet = ScoreSheet.objects.get(table__round=round_)
    names = [
        s.registration.player.full_name
        for s in Seat.objects.filter(table=sheet.table)
        .select_related("registration__player")
        .order_by("position")
    ]
    return tournament, sheet, names


def test_a_ruling_stores_the_typed_scores_and_counts_as_a_deal(referee):
    _, sheet, _ = _table(4, referee)
    deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)
    ruled = deal_record(
        sheet=sheet,
        number=2,
        kind="ruling",
        deal=None,
        ruling=[-60, 20, 20, 20],
        note=REASON,
        actor=staff(referee),
    )
    assert (ruled.kind, ruled.scores, ruled.note, ruled.dealer) == (
        "ruling",
        [-60, 20, 20, 20],
        REASON,
        1,
    )
    assert ruled.taker is None and ruled.contract == ""
    rows = Score.objects.filter(deal=ruled).order_by("registration__seats__position")
    assert sorted(r.points for r in rows) == [-60, 20, 20, 20]
    assert not any(r.took for r in rows) and all(r.played for r in rows)
    sheet.refresh_from_db()
    assert sheet.status == "complete"  # 2 deals of 2: the ruling counts toward the quota
    seats = list(Seat.objects.filter(table=sheet.table).order_by("position"))
    assert [s.points for s in seats] == [
        a + b for a, b in zip([198, -66, -66, -66], [-60, 20, 20, 20], strict=True)
    ]
    assert [s.deals_played for s in seats] == [2, 2, 2, 2]


@pytest.mark.parametrize(
    ("ruling", "note", "actor", "message"),
    [
        ([30, -10, -10, -5], REASON, "referee", "doivent faire zéro au total ; ils font 5"),
        ([30, -10, -20], REASON, "referee", "un score pour chaque joueur"),
        ([30, -10, -10, -10], "  ", "referee", "nécessite son motif"),
        ([30, -10, -10, -10], REASON, "table", "Seul un arbitre"),
        ([300000, -100000, -100000, -100000], REASON, "referee", "au plus 100000 points"),
    ],
)
def test_a_wrong_ruling_is_refused_and_writes_nothing(referee, ruling, note, actor, message):
    _, sheet, _ = _table(4, referee)
    with pytest.raises(ServiceError, match=message):
        deal_record(
            sheet=sheet,
            number=1,
            kind="ruling",
            deal=None,
            ruling=ruling,
            note=note,
            actor=TABLE if actor == "table" else staff(referee),
        )
    assert not Deal.objects.filter(sheet=sheet).exists()
    assert not SheetEvent.objects.filter(sheet=sheet).exists()


def test_at_a_table_of_five_the_seat_sitting_out_scores_nothing(referee):
    _, sheet, _ = _table(5, referee)
    ruled = deal_record(
        sheet=sheet,
        number=1,
        kind="ruling",
        deal=None,
        ruling=[30, -10, -10, -10],  # East, South, West, fifth: North deals and sits out
        note=REASON,
        actor=staff(referee),
    )
    assert ruled.scores == [0, 30, -10, -10, -10]


def _download(client, tournament, sheet, fmt: str) -> bytes:
    url = reverse(
        "sheet_document", args=[tournament.slug, sheet.table.round.number, sheet.table.number, fmt]
    )
    response = client.get(url)
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def _visible(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def test_the_referee_rules_a_deal_on_the_sheet_page_and_everyone_reads_it(client, referee):
    tournament, sheet, names = _table(4, referee)
    client.force_login(referee)
    url = reverse("sheet", args=[tournament.slug, sheet.table.pk])
    form = {"action": "deal", "number": "1", "kind": "ruling", "note": REASON}
    # Scores that do not sum to zero: refused in French, what was typed kept, nothing written.
    bad = {**form, "ruling_0": "30", "ruling_1": "-10", "ruling_2": "-10", "ruling_3": "-5"}
    response = client.post(url, bad, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422
    page = _visible(response.content.decode())
    assert "doivent faire zéro au total" in page and "5" in page
    assert 'name="ruling_3" value="-5"' in response.content.decode()
    assert not Deal.objects.filter(sheet=sheet).exists()

    good = {**bad, "ruling_3": "-10"}
    assert client.post(url, good, HTTP_ACCEPT_LANGUAGE="fr").status_code == 302
    deal = Deal.objects.get(sheet=sheet)
    assert deal.scores == [30, -10, -10, -10]

    # The page: the deal is marked as a ruling, with its reason and scores.
    page = _visible(client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Décision de l'arbitre" in page and REASON in page

    # The PDF and the Excel file: the ruling and its reason.
    pdf = " ".join(
        " ".join(
            page.extract_text()
            for page in PdfReader(io.BytesIO(_download(client, tournament, sheet, "pdf"))).pages
        ).split()
    )
    assert "Décision de l'arbitre" in pdf and f"décision de l'arbitre — motif : {REASON}" in pdf
    ws = load_workbook(io.BytesIO(_download(client, tournament, sheet, "xlsx")))["R1 T1"]
    row = next(r for r in ws.iter_rows(values_only=True) if r[0] == 1 and r[1] == "décision")
    assert row[4].startswith("Décision de l'arbitre") and row[12] == REASON

    # The history, as a sentence.
    history = _visible(
        client.get(
            reverse("sheet_history", args=[tournament.slug, sheet.table.pk]),
            HTTP_ACCEPT_LANGUAGE="fr",
        ).content.decode()
    )
    expected_scores = ", ".join(
        f"{name} {score}".replace("-", "−") for name, score in zip(names, deal.scores, strict=True)
    )
    assert f"décision de l'arbitre, scores {expected_scores} (motif : {REASON})" in history


def test_a_ruled_sheet_signs_like_any_and_the_archive_keeps_the_ruling(referee):
    tournament, sheet, _ = _table(4, referee, deals=1)
    deal_record(
        sheet=sheet,
        number=1,
        kind="ruling",
        deal=None,
        ruling=[-45, 15, 15, 15],
        note=REASON,
        actor=staff(referee),
    )
    for seat in Seat.objects.filter(table=sheet.table).select_related("registration"):
        sheet_sign_with_pin(
            sheet=sheet,
            registration=seat.registration,
            pin=seat.registration.pin,
            client="test",
            actor=TABLE,
        )
    sheet.refresh_from_db()
    assert sheet.status == "signed" and sheet.fingerprint
    fingerprint = sheet.fingerprint

    content = export_json(tournament)
    slug = tournament.slug
    tournament_delete(tournament=tournament)
    Player.objects.all().delete()
    imported = import_json(content)
    assert imported.slug == slug
    deal = Deal.objects.get(sheet__table__round__tournament=imported)
    assert (deal.kind, deal.scores, deal.note) == ("ruling", [-45, 15, 15, 15], REASON)
    sheet = ScoreSheet.objects.get(table__round__tournament=imported)
    assert (sheet.status, sheet.fingerprint) == ("signed", fingerprint)

    # An archive whose ruling no longer sums to zero is refused.
    text = content.decode() if isinstance(content, bytes) else content
    altered = re.sub(r"\[\s*-45,\s*15,\s*15,\s*15\s*\]", "[-45, 15, 15, 25]", text)
    assert altered != text
    tournament_delete(tournament=imported)
    Player.objects.all().delete()
    with pytest.raises(ServiceError):
        import_json(altered)
    assert not Deal.objects.exists()

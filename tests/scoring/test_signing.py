"""Signing locks a sheet; a referee's correction marks it amended until it is signed again."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Deal, PinAttempt, ScoreSheet, SheetSeal, Signature
from scoring.services import deal_record, sheet_sign_with_pin
from tarot_club.errors import ServiceError
from tournaments import services as tournament_services
from tournaments.models import Registration, Round

from .conftest import TABLE, legal, make_tournament, staff

pytestmark = pytest.mark.django_db


def complete(sheet):
    for number in range(1, 5):
        deal_record(
            sheet=sheet, number=number, kind="played", deal=legal(taker=number % 4), actor=TABLE
        )
    sheet.refresh_from_db()
    return sheet


def players(sheet) -> list[Registration]:
    return [s.registration for s in sheet.table.seats.select_related("registration")]


def sign(sheet, registration, client="10.0.0.1"):
    """The player types their own PIN on the table's phone."""
    sheet_sign_with_pin(
        sheet=sheet, registration=registration, pin=registration.pin, client=client, actor=TABLE
    )


def sign_all(sheet):
    for registration in players(sheet):
        sign(sheet, registration)
    sheet.refresh_from_db()
    return sheet


def test_cannot_sign_an_incomplete_sheet(seated):
    _, _, sheet = seated
    registration = players(sheet)[0]
    with pytest.raises(ServiceError):
        sheet_sign_with_pin(
            sheet=sheet, registration=registration, pin=registration.pin, client="x", actor=TABLE
        )
    assert not Signature.objects.exists()


def test_all_four_pins_sign_and_lock_the_sheet_with_a_fingerprint(seated):
    _, _, sheet = seated
    sheet = sign_all(complete(sheet))
    assert sheet.status == ScoreSheet.Status.SIGNED
    assert len(sheet.fingerprint) == 64 and sheet.signed_at
    seal = SheetSeal.objects.get(sheet=sheet)
    assert seal.fingerprint == sheet.fingerprint and len(seal.content["deals"]) == 4
    # The table link now refuses any entry.
    with pytest.raises(ServiceError):
        deal_record(
            sheet=sheet, number=1, kind="played", deal=legal(points=70), actor=TABLE, version=1
        )
    assert Deal.objects.get(sheet=sheet, number=1).points == 49


def test_a_wrong_or_another_players_pin_signs_nothing(seated):
    _, _, sheet = seated
    sheet = complete(sheet)
    first, second = players(sheet)[:2]
    wrong = "0000" if first.pin != "0000" else "1111"
    with pytest.raises(ServiceError):
        sheet_sign_with_pin(sheet=sheet, registration=first, pin=wrong, client="a", actor=TABLE)
    if second.pin != first.pin:
        with pytest.raises(ServiceError):
            sheet_sign_with_pin(
                sheet=sheet, registration=first, pin=second.pin, client="a", actor=TABLE
            )
    assert not Signature.objects.exists()
    assert PinAttempt.objects.filter(sheet=sheet).count() >= 1


def test_repeated_wrong_pins_are_slowed_down(seated):
    _, _, sheet = seated
    sheet = complete(sheet)
    registration = players(sheet)[0]
    wrong = "0000" if registration.pin != "0000" else "1111"
    for _ in range(services.PIN_ATTEMPTS_ALLOWED):
        with pytest.raises(ServiceError):
            sheet_sign_with_pin(
                sheet=sheet, registration=registration, pin=wrong, client="phone", actor=TABLE
            )
    # Even the right PIN is refused for that player until the lockout ends, from any device
    # (the lock is on the PIN being tried, not on an address)...
    for client in ("phone", "referee-laptop"):
        with pytest.raises(ServiceError, match="5"):
            sheet_sign_with_pin(
                sheet=sheet,
                registration=registration,
                pin=registration.pin,
                client=client,
                actor=TABLE,
            )
    # ...but the other players of the table are not blocked, on the same device.
    other = players(sheet)[1]
    sheet_sign_with_pin(sheet=sheet, registration=other, pin=other.pin, client="phone", actor=TABLE)
    assert Signature.objects.count() == 1


def test_a_player_signs_once(seated):
    _, _, sheet = seated
    sheet = complete(sheet)
    registration = players(sheet)[0]
    sheet_sign_with_pin(
        sheet=sheet, registration=registration, pin=registration.pin, client="a", actor=TABLE
    )
    with pytest.raises(ServiceError):
        sheet_sign_with_pin(
            sheet=sheet, registration=registration, pin=registration.pin, client="a", actor=TABLE
        )


def test_a_player_of_another_table_cannot_sign(db):
    _, round_ = make_tournament(8)
    sheet_a, sheet_b = ScoreSheet.objects.filter(table__round=round_).order_by("table__number")
    complete(sheet_a)
    outsider = players(sheet_b)[0]
    with pytest.raises(ServiceError):
        sheet_sign_with_pin(
            sheet=sheet_a, registration=outsider, pin=outsider.pin, client="a", actor=TABLE
        )


def test_referee_correction_after_signature_needs_a_reason_and_amends(seated, referee):
    _, _, sheet = seated
    sheet = sign_all(complete(sheet))
    old_fingerprint = sheet.fingerprint
    with pytest.raises(ServiceError):
        deal_record(
            sheet=sheet,
            number=2,
            kind="played",
            deal=legal(points=60),
            actor=staff(referee),
            version=1,
        )
    deal_record(
        sheet=sheet,
        number=2,
        kind="played",
        deal=legal(points=60),
        actor=staff(referee),
        version=1,
        reason="Erreur de comptage de Sud",
    )
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.AMENDED
    assert Signature.objects.filter(sheet=sheet, superseded_at__isnull=False).count() == 4
    assert Signature.objects.filter(sheet=sheet, superseded_at__isnull=True).count() == 0
    # The players sign the amended sheet again; it is signed with a new fingerprint.
    sheet = sign_all(sheet)
    assert sheet.status == ScoreSheet.Status.SIGNED
    assert sheet.fingerprint != old_fingerprint
    assert SheetSeal.objects.filter(sheet=sheet).count() == 2


def test_a_correction_voids_the_signatures_already_given(seated, referee):
    """Two players signed the complete sheet; the referee removes the last deal: those two
    signatures vouched for other content, so they no longer stand, and the table can go on."""
    _, _, sheet = seated
    sheet = complete(sheet)
    first, second, *_ = players(sheet)
    for registration in (first, second):
        sign(sheet, registration, client="10.0.0.2")
    with pytest.raises(ServiceError):  # partly signed: locked for the table
        services.deal_delete_last(sheet=sheet, actor=TABLE)
    services.deal_delete_last(sheet=sheet, actor=staff(referee), reason="donne en trop")
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.IN_PROGRESS
    assert not Signature.objects.filter(sheet=sheet, superseded_at__isnull=True).exists()
    assert Signature.objects.filter(sheet=sheet).count() == 2  # kept, marked superseded
    number = Deal.objects.filter(sheet=sheet).count() + 1
    deal_record(sheet=sheet, number=number, kind="played", deal=legal(), actor=TABLE)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE


def test_removing_a_deal_from_a_signed_sheet_puts_it_back_in_progress(seated, referee):
    """An amended sheet missing a deal must not count in the standings nor be signed."""
    from scoring.standings import standings_data

    tournament, _, sheet = seated
    sheet = sign_all(complete(sheet))
    last = Deal.objects.filter(sheet=sheet).count()
    services.deal_delete_last(sheet=sheet, actor=staff(referee), reason="donne annulée")
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.IN_PROGRESS
    data = standings_data(tournament)
    assert data.pending[0].missing == [sheet.table.number]
    assert all(not e.rounds for e in data.entries)  # its points do not count meanwhile
    with pytest.raises(ServiceError):
        sign(sheet, players(sheet)[0], client="10.0.0.3")
    deal_record(sheet=sheet, number=last, kind="played", deal=legal(), actor=TABLE)
    sheet = sign_all(sheet)
    assert sheet.status == ScoreSheet.Status.SIGNED


def test_paper_signature_by_the_referee(seated, referee):
    _, _, sheet = seated
    sheet = complete(sheet)
    with pytest.raises(ServiceError):
        services.sheet_sign_on_paper(sheet=sheet, actor=TABLE)
    services.sheet_sign_on_paper(sheet=sheet, actor=staff(referee))
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.SIGNED
    assert set(Signature.objects.values_list("method", flat=True)) == {"paper"}


def test_paper_mode_totals_must_sum_to_zero(seated, referee):
    _, _, sheet = seated
    with pytest.raises(ServiceError) as raised:
        services.paper_totals_record(sheet=sheet, totals=[100, -20, -20, -20], actor=staff(referee))
    assert "40" in str(raised.value)
    sheet.refresh_from_db()
    assert not sheet.paper_mode and sheet.paper_totals == []
    with pytest.raises(ServiceError):
        services.paper_totals_record(sheet=sheet, totals=[60, -20, -20, -20], actor=TABLE)
    services.paper_totals_record(sheet=sheet, totals=[60, -20, -20, -20], actor=staff(referee))
    sheet.refresh_from_db()
    assert sheet.paper_mode and sheet.status == ScoreSheet.Status.COMPLETE
    seats = sheet.table.seats.order_by("position")
    assert [s.points for s in seats] == [60, -20, -20, -20]  # what the standings read
    assert [s.deals_played for s in seats] == [0, 0, 0, 0]
    with pytest.raises(ServiceError):
        deal_record(sheet=sheet, number=1, kind="played", deal=legal(), actor=TABLE)


def test_penalty_is_kept_out_of_the_zero_sum(seated, referee):
    _, _, sheet = seated
    sheet = complete(sheet)
    registration = players(sheet)[1]
    with pytest.raises(ServiceError):
        services.penalty_add(
            sheet=sheet, registration=registration, amount=-20, reason="", actor=staff(referee)
        )
    penalty = services.penalty_add(
        sheet=sheet, registration=registration, amount=-20, reason="Retard", actor=staff(referee)
    )
    assert penalty.referee == referee
    assert sum(sum(d.scores) for d in Deal.objects.filter(sheet=sheet)) == 0


def test_closing_a_round_with_unsigned_sheets_needs_a_reason(seated):
    _, round_, sheet = seated
    complete(sheet)
    with pytest.raises(ServiceError) as raised:
        tournament_services.round_close(round_=round_)
    assert "1" in str(raised.value)
    round_.refresh_from_db()
    assert round_.status != Round.Status.CLOSED
    tournament_services.round_close(round_=round_, reason="Table 1 partie avant signature")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED and round_.close_reason
    # A closed round refuses corrections until it is reopened.
    with pytest.raises(ServiceError):
        deal_record(
            sheet=sheet, number=1, kind="played", deal=legal(points=60), actor=TABLE, version=1
        )


def test_closing_a_round_when_every_sheet_is_signed(seated):
    _, round_, sheet = seated
    sign_all(complete(sheet))
    tournament_services.round_close(round_=round_)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_upgrading_voids_signatures_left_standing_on_a_sheet_in_progress(db):
    """Before corrections voided them, a partly signed sheet sent back in progress kept its
    signatures; the migration voids those, and only those."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module(
        "scoring.migrations.0002_void_signatures_on_sheets_in_progress"
    )
    _, round_ = make_tournament(8)
    back_in_progress, being_signed = (t.sheet for t in round_.tables.order_by("number"))
    deal_record(sheet=back_in_progress, number=1, kind="played", deal=legal(), actor=TABLE)
    being_signed = complete(being_signed)
    left = Signature.objects.create(
        sheet=back_in_progress, registration=players(back_in_progress)[0], method="pin"
    )
    kept = Signature.objects.create(
        sheet=being_signed, registration=players(being_signed)[0], method="pin"
    )
    migration.void_standing_signatures(apps, None)
    left.refresh_from_db()
    kept.refresh_from_db()
    assert left.superseded_at is not None
    assert kept.superseded_at is None  # a complete sheet being signed keeps them

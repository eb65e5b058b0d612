"""A tournament archive: everything about one tournament in one versioned JSON document.

Players, clubs, teams, registrations (with PINs), staff roles, rounds, tables, seats, every
score sheet with every version of every deal (who and when), penalties, signatures, seals and the
event log. Importing it into another database gives the same standings and the same sheet
fingerprints; a damaged, altered or foreign file is refused with a clear message and changes
nothing.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from scoring.documents.fingerprint import canonical_bytes, verification_code
from scoring.documents.seal import verify_seal
from scoring.models import Deal, Penalty, ScoreSheet, SheetEvent, SheetSeal, Signature
from scoring.scores import deal_scores
from scoring.sealing import installation_name, installation_public_key
from scoring.selectors import current_canonical
from scoring.services import (
    seat_results_store,
    sheet_seats,
    write_paper_score_rows,
    write_score_rows,
)
from tarot_club.errors import ServiceError
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
)

FORMAT = "tarot-club-tournament"
# 2: seals carry their Ed25519 signature, public key and installation; the archive its origin.
# A version 1 archive still imports; its seals, unsigned, prove nothing (the page says so).
VERSION = 2

TOURNAMENT_FIELDS = [
    "slug",
    "name",
    "place",
    "format",
    "rounds",
    "deals_per_round",
    "passed_deals_count",
    "rule_set",
    "visibility",
    "tie_breaks",
    "finished",
    "seed",
]
DEAL_FIELDS = [
    "number",
    "kind",
    "dealer",
    "taker",
    "partner",
    "contract",
    "oudlers",
    "points",
    "handfuls",
    "petit_au_bout",
    "slam_announced",
    "slam",
    "note",
    "scores",
    "version",
]


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse_time(value: str | None) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not a date and time: {value!r}")
    return parsed


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _deal_dict(deal) -> dict:
    data = {field: getattr(deal, field) for field in DEAL_FIELDS}
    data["points"] = f"{deal.points.normalize():f}" if deal.points is not None else None
    return data


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def export_tournament(tournament: Tournament) -> dict:
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player__club", "team")
    )
    archive: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        # Who made the archive; each seal names who sealed it (often the same installation).
        "origin": {"installation": installation_name(), "public_key": installation_public_key()},
        "tournament": {
            **{f: getattr(tournament, f) for f in TOURNAMENT_FIELDS},
            "date": tournament.date.isoformat(),
            "created_by": _username(tournament.created_by),
            "created_at": _time(tournament.created_at),
        },
        "staff": [
            {"username": s.user.get_username(), "role": s.role}
            for s in tournament.staff.select_related("user")
        ],
        "teams": [{"key": t.pk, "name": t.name} for t in tournament.teams.all()],
        "registrations": [
            {
                "key": r.pk,
                "first_name": r.player.first_name,
                "last_name": r.player.last_name,
                "club": r.player.club.name if r.player.club else "",
                "licence": r.player.licence,
                "team": r.team_id,
                "status": r.status,
                "pin": r.pin,
                "withdrawn_after_round": r.withdrawn_after_round,
            }
            for r in registrations
        ],
        "rounds": [],
    }
    for round_ in tournament.round_set.order_by("number"):
        round_data = {
            "number": round_.number,
            "status": round_.status,
            "seed": round_.seed,
            "closed_at": _time(round_.closed_at),
            "close_reason": round_.close_reason,
            "tables": [],
        }
        for table in round_.tables.select_related("sheet").order_by("number"):
            sheet = table.sheet
            round_data["tables"].append(
                {
                    "number": table.number,
                    "seats": [
                        {"position": s.position, "registration": s.registration_id}
                        for s in table.seats.order_by("position")
                    ],
                    "sheet": _export_sheet(sheet),
                }
            )
        archive["rounds"].append(round_data)
    return archive


def _export_sheet(sheet: ScoreSheet) -> dict:
    return {
        "token": sheet.token,
        "status": sheet.status,
        "paper_mode": sheet.paper_mode,
        "paper_totals": sheet.paper_totals,
        "signed_at": _time(sheet.signed_at),
        "fingerprint": sheet.fingerprint,
        "version": sheet.version,
        "deals": [
            {**_deal_dict(d), "entered_at": _time(d.entered_at), "updated_at": _time(d.updated_at)}
            for d in sheet.deals.order_by("number")
        ],
        "deal_history": [
            {
                **_deal_dict(h),
                "history_date": _time(h.history_date),
                "history_type": h.history_type,
                "history_user": _username(h.history_user),
                "history_change_reason": h.history_change_reason,
                "entered_at": _time(h.entered_at),
                "updated_at": _time(h.updated_at),
            }
            for h in Deal.history.filter(sheet_id=sheet.pk)
            .select_related("history_user")
            .order_by("history_date", "history_id")
        ],
        "penalties": [
            {
                "registration": p.registration_id,
                "amount": p.amount,
                "reason": p.reason,
                "referee": _username(p.referee),
                "created_at": _time(p.created_at),
            }
            for p in sheet.penalties.select_related("referee")
        ],
        "signatures": [
            {
                "registration": s.registration_id,
                "method": s.method,
                "signed_at": _time(s.signed_at),
                "recorded_by": _username(s.recorded_by),
                "superseded_at": _time(s.superseded_at),
            }
            for s in sheet.signatures.select_related("recorded_by").order_by("signed_at", "pk")
        ],
        "seals": [
            {
                "fingerprint": seal.fingerprint,
                "code": seal.code,
                "content": seal.content,
                "sealed_at": _time(seal.sealed_at),
                "signature": seal.signature,
                "public_key": seal.public_key,
                "installation": seal.installation,
            }
            for seal in sheet.seals.all()
        ],
        "events": [
            {
                "at": _time(e.at),
                "actor": _username(e.actor),
                "actor_label": e.actor_label,
                "action": e.action,
                "page": e.page,
                "reason": e.reason,
                "data": e.data,
            }
            for e in sheet.events.select_related("actor")
        ],
    }


def export_json(tournament: Tournament) -> bytes:
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1).encode()


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------


def import_json(content: bytes | str) -> Tournament:
    """Import an archive into this database, all or nothing; ServiceError says what is wrong."""
    try:
        archive = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ServiceError(_("This file is not a tournament archive (it is not JSON).")) from None
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ServiceError(_("This file is not a Tarot Club tournament archive."))
    if not isinstance(archive.get("version"), int) or archive["version"] > VERSION:
        raise ServiceError(
            _("This archive was made by a newer version of the application (format %(v)s).")
            % {"v": archive.get("version")}
        )
    try:
        with transaction.atomic():
            return _import(archive)
    except ServiceError:
        raise
    except IntegrityError:
        raise ServiceError(
            _(
                "This archive's tables or sheets already exist in this database (the same "
                "tournament imported under another name?): nothing was imported."
            )
        ) from None
    except ValidationError as error:
        raise ServiceError(
            _("The archive holds invalid tournament settings (%(fields)s): nothing was imported.")
            % {"fields": ", ".join(sorted(error.message_dict))}
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, DataError) as error:
        raise ServiceError(
            _("The archive is damaged (%(error)s): nothing was imported.") % {"error": error}
        ) from None


def _user(username: str | None, cache: dict):
    if not username:
        return None
    if username not in cache:
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:  # known by name only: an account without a usable password
            user = User.objects.create_user(username=username, password=None, is_active=False)
        cache[username] = user
    return cache[username]


def _import(archive: dict) -> Tournament:
    users: dict = {}
    data = archive["tournament"]
    if Tournament.objects.filter(slug=data["slug"]).exists():
        raise ServiceError(
            _(
                "A tournament with the short name “%(slug)s” already exists here: nothing was "
                "imported."
            )
            % {"slug": data["slug"]}
        )
    tournament = Tournament(
        **{f: data[f] for f in TOURNAMENT_FIELDS},
        date=date.fromisoformat(data["date"]),
        created_by=_user(data.get("created_by"), users),
    )
    tournament.full_clean()
    tournament.save()
    Tournament.objects.filter(pk=tournament.pk).update(created_at=_parse_time(data["created_at"]))
    # Staff roles are not imported: an archive must not grant anyone access here. The person
    # importing it becomes its organiser and names the referees of this installation.
    teams = {
        t["key"]: Team.objects.create(tournament=tournament, name=t["name"])
        for t in archive["teams"]
    }
    registrations = {}
    for r in archive["registrations"]:
        player = None
        if r["licence"]:
            player = Player.objects.filter(licence=r["licence"]).first()
            if player is not None and player.last_name.casefold() != r["last_name"].casefold():
                raise ServiceError(
                    _(
                        "Licence %(licence)s belongs here to %(name)s, not to %(other)s: nothing "
                        "was imported."
                    )
                    % {"licence": r["licence"], "name": player.full_name, "other": r["last_name"]}
                )
        if player is None:
            club = Club.objects.get_or_create(name=r["club"])[0] if r["club"] else None
            player = Player.objects.create(
                first_name=r["first_name"],
                last_name=r["last_name"],
                club=club,
                licence=r["licence"],
            )
        registrations[r["key"]] = Registration.objects.create(
            tournament=tournament,
            player=player,
            team=teams[r["team"]] if r["team"] is not None else None,
            status=r["status"],
            pin=r["pin"],
            withdrawn_after_round=r["withdrawn_after_round"],
        )
    for round_data in archive["rounds"]:
        round_ = Round.objects.create(
            tournament=tournament,
            number=round_data["number"],
            status=round_data["status"],
            seed=round_data["seed"],
            closed_at=_parse_time(round_data["closed_at"]),
            close_reason=round_data["close_reason"],
        )
        for table_data in round_data["tables"]:
            table = Table.objects.create(round=round_, number=table_data["number"])
            for seat in table_data["seats"]:
                Seat.objects.create(
                    table=table,
                    round=round_,
                    registration=registrations[seat["registration"]],
                    position=seat["position"],
                )
            _import_sheet(
                tournament, table, table_data["sheet"], registrations, users, archive["version"]
            )
    Tournament.objects.filter(pk=tournament.pk).update(changed_at=tournament.changed_at)
    return tournament


def _checked_seal(seal: dict, table, version: int) -> dict[str, str]:
    """A seal of the archive, checked: its content hashes to its fingerprint and, from format 2
    on, its signature verifies against the public key it names. Returns its signature fields."""
    content = seal["content"]
    if not isinstance(content, dict):
        raise ValueError("a seal's content is not an object")
    signature, public_key = seal.get("signature", ""), seal.get("public_key", "")
    installation = seal.get("installation", "")
    if not isinstance(installation, str) or len(installation) > 100:
        raise ValueError("a seal's installation is not a short text")
    fingerprint_ok = hashlib.sha256(canonical_bytes(content)).hexdigest() == seal["fingerprint"]
    signed_ok = version < 2 or verify_seal(public_key, content, signature)
    if not (fingerprint_ok and signed_ok):
        raise ServiceError(
            _(
                "The seal of a signed sheet of table %(table)d, round %(round)d does not verify: "
                "the archive was altered. Nothing was imported."
            )
            % {"table": table.number, "round": table.round.number}
        )
    if version < 2:
        return {}
    return {"signature": signature, "public_key": public_key, "installation": installation}


def _import_sheet(tournament, table, data, registrations, users, version) -> None:
    size = table.seats.count()
    sheet = ScoreSheet.objects.create(
        table=table,
        token=data["token"],
        status=data["status"],
        paper_mode=data["paper_mode"],
        paper_totals=data["paper_totals"],
        signed_at=_parse_time(data["signed_at"]),
        fingerprint=data["fingerprint"],
        version=data["version"],
    )
    seats = sheet_seats(sheet)
    for d in data["deals"]:
        fields = {f: d[f] for f in DEAL_FIELDS}
        fields["points"] = Decimal(d["points"]) if d["points"] is not None else None
        deal = Deal(sheet=sheet, **fields)
        if deal_scores(deal, size, tournament.rule_set) != deal.scores:
            raise ServiceError(
                _(
                    "Deal %(deal)d of table %(table)d, round %(round)d does not score as "
                    "stored: the archive was altered. Nothing was imported."
                )
                % {"deal": deal.number, "table": table.number, "round": table.round.number}
            )
        deal.skip_history_when_saving = True
        deal.save()
        Deal.objects.filter(pk=deal.pk).update(
            entered_at=_parse_time(d["entered_at"]), updated_at=_parse_time(d["updated_at"])
        )
        write_score_rows(sheet, deal, seats, new=True)
    HistoricalDeal = Deal.history.model
    deal_ids = dict(sheet.deals.values_list("number", "pk"))
    rows = []
    for h in data["deal_history"]:
        fields = {f: h[f] for f in DEAL_FIELDS}
        fields["points"] = Decimal(h["points"]) if h["points"] is not None else None
        rows.append(
            HistoricalDeal(
                id=deal_ids.get(h["number"], 0),
                sheet_id=sheet.pk,
                **fields,
                history_date=_parse_time(h["history_date"]),
                history_type=h["history_type"],
                history_user=_user(h["history_user"], users),
                history_change_reason=h["history_change_reason"],
                entered_at=_parse_time(h["entered_at"]),
                updated_at=_parse_time(h["updated_at"]),
            )
        )
    HistoricalDeal.objects.bulk_create(rows)
    if sheet.paper_mode:
        write_paper_score_rows(sheet, sheet.paper_totals, new=True)
    seat_results_store(sheet)
    for p in data["penalties"]:
        penalty = Penalty.objects.create(
            sheet=sheet,
            registration=registrations[p["registration"]],
            amount=p["amount"],
            reason=p["reason"],
            referee=_user(p["referee"], users),
        )
        Penalty.objects.filter(pk=penalty.pk).update(created_at=_parse_time(p["created_at"]))
    in_progress = sheet.status in (ScoreSheet.Status.NOT_STARTED, ScoreSheet.Status.IN_PROGRESS)
    for s in data["signatures"]:
        superseded_at = _parse_time(s["superseded_at"])
        if superseded_at is None and in_progress:
            # An older archive: a correction left them standing; it voids them now (_amend).
            superseded_at = timezone.now()
        signature = Signature.objects.create(
            sheet=sheet,
            registration=registrations[s["registration"]],
            method=s["method"],
            recorded_by=_user(s["recorded_by"], users),
            superseded_at=superseded_at,
        )
        Signature.objects.filter(pk=signature.pk).update(signed_at=_parse_time(s["signed_at"]))
    for seal in data["seals"]:
        if SheetSeal.objects.filter(fingerprint=seal["fingerprint"]).exists():
            raise ServiceError(_("This archive's sheets already exist here: nothing was imported."))
        signed = _checked_seal(seal, table, version)
        SheetSeal.objects.create(
            sheet=sheet,
            fingerprint=seal["fingerprint"],
            code=verification_code(seal["fingerprint"]),
            content=seal["content"],
            **signed,
        )
        SheetSeal.objects.filter(fingerprint=seal["fingerprint"]).update(
            sealed_at=_parse_time(seal["sealed_at"])
        )
    SheetEvent.objects.bulk_create(
        [
            SheetEvent(
                sheet=sheet,
                actor=_user(e["actor"], users),
                actor_label=e["actor_label"],
                action=e["action"],
                page=e["page"],
                reason=e["reason"],
                data=e["data"],
            )
            for e in data["events"]
        ]
    )
    for event, e in zip(sheet.events.order_by("pk"), data["events"], strict=True):
        SheetEvent.objects.filter(pk=event.pk).update(at=_parse_time(e["at"]))
    if sheet.status == ScoreSheet.Status.SIGNED:
        fingerprint, _content = current_canonical(sheet)
        if fingerprint != sheet.fingerprint or (
            version >= 2 and not sheet.seals.filter(fingerprint=fingerprint).exists()
        ):
            raise ServiceError(
                _(
                    "The signed sheet of table %(table)d, round %(round)d does not match its "
                    "fingerprint: the archive was altered. Nothing was imported."
                )
                % {"table": table.number, "round": table.round.number}
            )

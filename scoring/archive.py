"""A tournament archive: everything about one tournament in one versioned JSON document.

Players, clubs, teams, registrations (with PINs), staff roles, rounds, tables, seats, every
score sheet with every version of every deal (who and when), penalties, signatures, seals and the
event log. Importing it into another database gives the same standings and the same sheet
fingerprints; a damaged, altered or foreign file is refused with a clear message and changes
nothing.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.archive_checks import TEXT_LIMIT, deal_fields
from scoring.archive_details import (
    registration_details,
    registration_details_of,
    tournament_details,
    tournament_details_of,
)
from scoring.archive_parts import export_parts, import_parts
from scoring.archive_values import (
    Damaged,
    Value,
    max_length,
    parse_constant,
    parse_float,
    parse_int,
)
from scoring.documents.fingerprint import verification_code
from scoring.models import (
    IMPORTED_SUFFIX,
    Deal,
    Penalty,
    ScoreSheet,
    SheetEvent,
    SheetSeal,
    Signature,
    TrustedKey,
)
from scoring.sealing import seal_origin
from scoring.selectors import current_canonical
from scoring.services import (
    seat_results_store,
    sheet_seats,
    write_paper_score_rows,
    write_score_rows,
)
from scoring.trust import UnknownKeys, archived_seal_fields, untrusted_seal_keys
from tarot_club.errors import ServiceError
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Seat,
    StaffMember,
    Table,
    Team,
    Tournament,
)

FORMAT = "tarot-club-tournament"
# 2: seals carry their Ed25519 signature, public key and installation; the archive its origin.
# A version 1 archive still imports; its seals, unsigned, prove nothing (the page says so).
# 3: seals sign their installation's name and key too; the origin shows the key's fingerprint.
VERSION = 3
# The largest archive read (web upload and import_tournament alike), checked before it is read:
# a championship of 1,000 players over 8 rounds of 5 deals is about 36 MB (100 players: 3.6 MB).
MAX_BYTES = 50 * 1024 * 1024

TOURNAMENT_FIELDS = [
    "slug",
    "name",
    "place",
    "format",
    "rounds",
    "deals_per_round",
    "passed_deals_count",
    "odd_tables",
    "seating_priority",
    "timed_rounds",
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


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _deal_dict(deal) -> dict:
    data = {field: getattr(deal, field) for field in DEAL_FIELDS}
    data["points"] = f"{deal.points.normalize():f}" if deal.points is not None else None
    return data


# --- Export ----------------------------------------------------------------------------------


def export_tournament(tournament: Tournament) -> dict:
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("team"))
    archive: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        # Who made the archive; each seal names who sealed it (often the same installation).
        "origin": seal_origin(),
        "tournament": {
            **{f: getattr(tournament, f) for f in TOURNAMENT_FIELDS},
            "date": tournament.date.isoformat(),
            "created_by": _username(tournament.created_by),
            "created_at": _time(tournament.created_at),
            **tournament_details(tournament),
        },
        "staff": [
            {"username": s.user.get_username(), "role": s.role}
            for s in tournament.staff.select_related("user")
        ],
        "teams": [{"key": t.pk, "name": t.name} for t in tournament.teams.all()],
        "registrations": [
            {
                "key": r.pk,
                "first_name": r.first_name,
                "last_name": r.last_name,
                "club": r.club_name,
                "licence": r.licence,
                "team": r.team_id,
                "status": r.status,
                "pin": r.pin,
                "withdrawn_after_round": r.withdrawn_after_round,
                **registration_details(r),
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
            "time_called_at": _time(round_.time_called_at),
            "seats_changed": round_.seats_changed,
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
    return archive | export_parts(tournament)


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


# --- Import ----------------------------------------------------------------------------------


def import_json(content: bytes | str, *, trust=(), user=None) -> Tournament:
    """Import an archive into this database, all or nothing; ServiceError says what is wrong.

    Every value is checked as the forms would check it (:mod:`scoring.archive_values`): types,
    limits and lists of choices; every deal is scored again by the engine; seals are verified.
    Seals by a key this installation does not trust raise :class:`~scoring.trust.UnknownKeys`,
    unless that key (its text or its fingerprint) is in ``trust``: it is then trusted by ``user``.
    """
    if len(content) > MAX_BYTES:
        raise ServiceError(too_large_message())
    try:
        archive = json.loads(
            content, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant
        )
    except Damaged as error:
        raise ServiceError(_damaged_message(error)) from None
    except RecursionError:
        raise ServiceError(_damaged_message(Damaged("", _("nested too deep")))) from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ServiceError(_("This file is not a tournament archive (it is not JSON).")) from None
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ServiceError(_("This file is not a Tarot Club tournament archive."))
    version = archive.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise ServiceError(
            _("This archive was made by a newer version of the application (format %(v)s).")
            % {"v": version}
        )
    try:
        version = Value(archive)["version"].int(1, VERSION)
        with transaction.atomic():
            tournament = _import(Value(archive), version)
            _trust_seal_keys(tournament, trust, user)
            return tournament
    except ServiceError:
        raise
    except Damaged as error:
        raise ServiceError(_damaged_message(error)) from None
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
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        IndexError,
        ArithmeticError,
        RecursionError,
        DataError,
    ) as error:
        raise ServiceError(
            _("The archive is damaged (%(error)s): nothing was imported.")
            % {"error": str(error)[:200]}
        ) from None


def _trust_seal_keys(tournament: Tournament, trust, user) -> None:
    """Every imported seal's key is trusted here, or in ``trust`` and trusted now by ``user``;
    otherwise :class:`~scoring.trust.UnknownKeys` names them and nothing is imported."""
    seals = SheetSeal.objects.filter(sheet__table__round__tournament=tournament)
    chosen, unknown = untrusted_seal_keys(seals, trust=trust)
    if unknown:
        raise UnknownKeys(unknown)
    for name, key, _code in chosen:
        TrustedKey.objects.get_or_create(public_key=key, defaults={"name": name, "added_by": user})


def too_large_message() -> str:
    return _(
        "This file is over %(limit)s, the largest archive this installation reads: "
        "nothing was imported."
    ) % {"limit": filesizeformat(MAX_BYTES)}


def _damaged_message(error: Damaged) -> str:
    return _("The archive is damaged (%(where)s: %(what)s): nothing was imported.") % {
        "where": error.where,
        "what": error.what,
    }


def _user(name: Value, cache: dict):
    """The account an archive's user name stands for here: never an account of this
    installation. A name nobody uses here becomes an inactive account without a password (it
    only names who did what); a name a local account already uses becomes "NAME (archive)"."""
    username = name.text(150, null=True)
    if not username:
        return None
    if username not in cache:
        User = get_user_model()
        candidate = username
        user = User.objects.filter(username=candidate).first()
        if user is not None and not _is_placeholder(user):
            candidate = username[: 150 - len(IMPORTED_SUFFIX)] + IMPORTED_SUFFIX
            user = User.objects.filter(username=candidate).first()
            if user is not None and not _is_placeholder(user):
                name.fail(_("the name of an account of this installation"))
        if user is None:
            user = User.objects.create_user(username=candidate, password=None, is_active=False)
        cache[username] = user
    return cache[username]


def _is_placeholder(user) -> bool:
    """An account an import made: inactive, without a password, in no tournament's staff."""
    return (
        not user.is_active
        and not user.has_usable_password()
        and not user.is_staff
        and not user.is_superuser
        and not StaffMember.objects.filter(user=user).exists()
    )


def _choices(model, field: str) -> list[str]:
    return [value for value, _label in model._meta.get_field(field).choices]


def _keyed(values: list[Value]) -> None:
    seen = set()
    for value in values:
        key = value["key"].int(-(10**18), 10**18)
        if key in seen:
            value["key"].fail(_("the same key twice"))
        seen.add(key)


def _import(root: Value, version: int) -> Tournament:
    users: dict = {}
    data = root["tournament"]
    slug = data["slug"].text(max_length(Tournament, "slug"), blank=False)
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(
            _(
                "A tournament with the short name “%(slug)s” already exists here: nothing was "
                "imported."
            )
            % {"slug": slug}
        )
    fields = {
        "slug": slug,
        "name": data["name"].name(max_length(Tournament, "name"), blank=False),
        "place": data["place"].text(max_length(Tournament, "place")),
        "rounds": data["rounds"].int(1, 32767),
        "deals_per_round": data["deals_per_round"].int(1, 32767),
        "passed_deals_count": data["passed_deals_count"].bool(),
        # Added after the first archives: an archive without them takes the defaults.
        "timed_rounds": data.get("timed_rounds", False).bool(),
        "finished": data["finished"].bool(),
        "seed": data["seed"].int(0, 2**31 - 1),
    }
    for name in ("format", "rule_set", "visibility", "tie_breaks"):
        fields[name] = data[name].choice(_choices(Tournament, name))
    for name in ("odd_tables", "seating_priority"):
        default = Tournament._meta.get_field(name).default
        fields[name] = data.get(name, default).choice(_choices(Tournament, name))
    tournament = Tournament(
        **fields,
        **tournament_details_of(data),
        date=data["date"].date(),
        created_by=_user(data.get("created_by"), users),
    )
    tournament.full_clean()
    tournament.save()
    Tournament.objects.filter(pk=tournament.pk).update(created_at=data["created_at"].time())
    # Staff roles are not imported: an archive must not grant anyone access here. The person
    # importing it becomes its organiser and names the referees of this installation.
    root["staff"].list()
    team_values = root["teams"].list()
    _keyed(team_values)
    teams = {
        t["key"].value: Team.objects.create(
            tournament=tournament, name=t["name"].name(max_length(Team, "name"), blank=False)
        )
        for t in team_values
    }
    registration_values = root["registrations"].list()
    _keyed(registration_values)
    registrations = {}
    for r in registration_values:
        registrations[r["key"].value] = _import_registration(r, tournament, teams)
    import_parts(root, tournament, registrations)
    seen_rounds = set()
    for round_data in root["rounds"].list(max_items=tournament.rounds):
        number = round_data["number"].int(1, tournament.rounds)
        if number in seen_rounds:
            round_data["number"].fail(_("the same round twice"))
        seen_rounds.add(number)
        time_called_at = round_data.get("time_called_at").time()
        if time_called_at is not None and not tournament.timed_rounds:
            round_data["time_called_at"].fail(_("time called in a tournament without timed rounds"))
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            status=round_data["status"].choice(_choices(Round, "status")),
            seed=round_data["seed"].int(0, 2**31 - 1),
            closed_at=round_data["closed_at"].time(),
            close_reason=round_data["close_reason"].text(TEXT_LIMIT),
            time_called_at=time_called_at,
            seats_changed=round_data.get("seats_changed", 0).int(0, 32767),
        )
        seated: set = set()
        tables = set()
        for table_data in round_data["tables"].list(max_items=10_000):
            number = table_data["number"].int(1, 32767)
            if number in tables:
                table_data["number"].fail(_("the same table twice"))
            tables.add(number)
            table = Table.objects.create(round=round_, number=number)
            seat_values = table_data["seats"].list(max_items=5)
            if not 3 <= len(seat_values) <= 5:
                table_data["seats"].fail(_("a table seats 3 to 5 players"))
            positions = set()
            for seat in seat_values:
                position = seat["position"].int(0, len(seat_values) - 1)
                key = seat["registration"].int(-(10**18), 10**18)
                if key not in registrations:
                    seat["registration"].fail(_("no registration has this key"))
                if position in positions or key in seated:
                    seat.fail(_("a seat or a player twice"))
                positions.add(position)
                seated.add(key)
                Seat.objects.create(
                    table=table,
                    round=round_,
                    registration=registrations[key],
                    position=position,
                )
            _import_sheet(tournament, table, table_data["sheet"], registrations, users, version)
    Tournament.objects.filter(pk=tournament.pk).update(changed_at=tournament.changed_at)
    return tournament


def _import_registration(r: Value, tournament: Tournament, teams: dict) -> Registration:
    first_name = r["first_name"].name(max_length(Player, "first_name"))
    last_name = r["last_name"].name(max_length(Player, "last_name"), blank=False)
    club_name = r["club"].name(max_length(Club, "name"))
    licence = r["licence"].text(max_length(Player, "licence"))
    team_key = r["team"].int(-(10**18), 10**18, null=True)
    if team_key is not None and team_key not in teams:
        r["team"].fail(_("no team has this key"))
    status = r["status"].choice(_choices(Registration, "status"))
    pin = r["pin"].text(max_length(Registration, "pin"), blank=False)
    if not (pin.isascii() and pin.isdigit()):
        r["pin"].fail(_("a PIN is made of digits"))
    withdrawn = r["withdrawn_after_round"].int(0, tournament.rounds, null=True)
    player = None
    if licence:
        player = Player.objects.filter(licence=licence).first()
        if player is not None and player.last_name.casefold() != last_name.casefold():
            raise ServiceError(
                _(
                    "Licence %(licence)s belongs here to %(name)s, not to %(other)s: nothing "
                    "was imported."
                )
                % {"licence": licence, "name": player.full_name, "other": last_name}
            )
    if player is None:
        club = Club.objects.get_or_create(name=club_name)[0] if club_name else None
        player = Player.objects.create(
            first_name=first_name, last_name=last_name, club=club, licence=licence
        )
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        r.fail(_("the same player registered twice"))
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        # The tournament's own record, as it was printed and sealed at its origin.
        first_name=first_name,
        last_name=last_name,
        club_name=club_name,
        licence=licence,
        team=teams[team_key] if team_key is not None else None,
        status=status,
        pin=pin,
        withdrawn_after_round=withdrawn,
        **registration_details_of(r, tournament),
    )


def _import_sheet(tournament, table, data: Value, registrations, users, version) -> None:
    size = table.seats.count()
    where = _("table %(table)d, round %(round)d") % {
        "table": table.number,
        "round": table.round.number,
    }
    paper_mode = data["paper_mode"].bool()
    totals = [v.int(-100_000, 100_000) for v in data["paper_totals"].list(max_items=size)]
    if totals and (not paper_mode or len(totals) != size):
        data["paper_totals"].fail(_("one total per player of a paper sheet was expected"))
    if sum(totals) != 0:
        data["paper_totals"].fail(_("the round totals do not sum to zero"))
    fingerprint = data["fingerprint"].text(64)
    if fingerprint and not re.fullmatch(r"[0-9a-f]{64}", fingerprint):
        data["fingerprint"].fail(_("not a fingerprint"))
    token = data["token"].text(max_length(ScoreSheet, "token"), blank=False)
    if not re.fullmatch(r"[A-Za-z0-9_-]{16,}", token):
        data["token"].fail(_("not a table link's key"))
    sheet = ScoreSheet.objects.create(
        table=table,
        token=token,
        status=data["status"].choice(_choices(ScoreSheet, "status")),
        paper_mode=paper_mode,
        paper_totals=totals,
        signed_at=data["signed_at"].time(),
        fingerprint=fingerprint,
        version=data["version"].int(1, 2**31 - 1),
    )
    seats = sheet_seats(sheet)
    seated = {s.registration_id for s in table.seats.all()}
    deal_values = data["deals"].list(max_items=1000)
    if paper_mode and deal_values:
        data["deals"].fail(_("a paper sheet has no deals"))
    numbers = set()
    for d in deal_values:
        fields = deal_fields(d, size, tournament.rule_set, where)
        if fields["number"] in numbers:
            d["number"].fail(_("the same deal twice"))
        numbers.add(fields["number"])
        deal = Deal(sheet=sheet, **fields)
        deal.skip_history_when_saving = True
        deal.save()
        Deal.objects.filter(pk=deal.pk).update(
            entered_at=d["entered_at"].time(), updated_at=d["updated_at"].time()
        )
        write_score_rows(sheet, deal, seats, new=True)
    HistoricalDeal = Deal.history.model
    reason_limit = max_length(HistoricalDeal, "history_change_reason")
    deal_ids = dict(sheet.deals.values_list("number", "pk"))
    rows = []
    for h in data["deal_history"].list(max_items=100_000):
        fields = deal_fields(h, size, tournament.rule_set, where)
        rows.append(
            HistoricalDeal(
                id=deal_ids.get(fields["number"], 0),
                sheet_id=sheet.pk,
                **fields,
                history_date=h["history_date"].time(null=False),
                history_type=h["history_type"].choice(["+", "~", "-"]),
                history_user=_user(h["history_user"], users),
                history_change_reason=h["history_change_reason"].text(reason_limit, null=True),
                entered_at=h["entered_at"].time(),
                updated_at=h["updated_at"].time(),
            )
        )
    HistoricalDeal.objects.bulk_create(rows)
    if sheet.paper_mode:
        write_paper_score_rows(sheet, sheet.paper_totals, new=True)
    seat_results_store(sheet)

    def seated_registration(value: Value):
        key = value.int(-(10**18), 10**18)
        registration = registrations.get(key)
        if registration is None or registration.pk not in seated:
            value.fail(_("no player of this table has this key"))
        return registration

    for p in data["penalties"].list(max_items=10_000):
        penalty = Penalty.objects.create(
            sheet=sheet,
            registration=seated_registration(p["registration"]),
            amount=p["amount"].int(-10_000, 10_000),
            reason=p["reason"].text(max_length(Penalty, "reason"), blank=False),
            referee=_user(p["referee"], users),
        )
        Penalty.objects.filter(pk=penalty.pk).update(created_at=p["created_at"].time())
    in_progress = sheet.status in (ScoreSheet.Status.NOT_STARTED, ScoreSheet.Status.IN_PROGRESS)
    for s in data["signatures"].list(max_items=10_000):
        superseded_at = s["superseded_at"].time()
        if superseded_at is None and in_progress:
            # An older archive: a correction left them standing; it voids them now (`amend`).
            superseded_at = timezone.now()
        signature = Signature.objects.create(
            sheet=sheet,
            registration=seated_registration(s["registration"]),
            method=s["method"].choice(_choices(Signature, "method")),
            recorded_by=_user(s["recorded_by"], users),
            superseded_at=superseded_at,
        )
        Signature.objects.filter(pk=signature.pk).update(signed_at=s["signed_at"].time(null=False))
    for seal in data["seals"].list(max_items=10_000):
        seal_fingerprint = seal["fingerprint"].text(64)
        if SheetSeal.objects.filter(fingerprint=seal_fingerprint).exists():
            raise ServiceError(_("This archive's sheets already exist here: nothing was imported."))
        signed = archived_seal_fields(seal, table, version)
        SheetSeal.objects.create(
            sheet=sheet,
            fingerprint=seal_fingerprint,
            code=verification_code(seal_fingerprint),
            content=seal["content"].value,
            **signed,
        )
        SheetSeal.objects.filter(fingerprint=seal_fingerprint).update(
            sealed_at=seal["sealed_at"].time(null=False)
        )
    event_values = data["events"].list(max_items=100_000)
    SheetEvent.objects.bulk_create(
        [
            SheetEvent(
                sheet=sheet,
                actor=_user(e["actor"], users),
                actor_label=e["actor_label"].text(max_length(SheetEvent, "actor_label")),
                action=e["action"].text(max_length(SheetEvent, "action"), blank=False),
                page=e["page"].text(max_length(SheetEvent, "page")),
                reason=e["reason"].text(TEXT_LIMIT),
                data=e["data"].data(),
            )
            for e in event_values
        ]
    )
    for event, e in zip(sheet.events.order_by("pk"), event_values, strict=True):
        SheetEvent.objects.filter(pk=event.pk).update(at=e["at"].time(null=False))
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

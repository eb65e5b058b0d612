"""A score sheet's history as sentences people read, in the active language.

One presenter for every place that tells what happened to a sheet: the history page, the
verification page, and (in the document's language, staff named by their role) the amendment
box of the PDF and the Excel workbook. Each event of the log
(:class:`scoring.models.SheetEvent`) becomes one sentence:

    « Donne 2 corrigée par arbitre1 à 21:52 : 47 → 45 points (motif : erreur de comptage) »

Each kind of event has its writer in ``WRITERS``; a new kind of event (a referee's ruling, say)
needs one function ``(event, names) -> str`` and one entry there. Events other than signatures
change what the players vouched for: replaying the log tells which came after a signature.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import lru_cache

from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.labels import CONTRACT_LABELS, HANDFUL_LABELS
from scoring.models import SheetEvent

Action = SheetEvent.Action

# Actions that record a signature; every other action changes the sheet (and so voids the
# signatures standing when it happens).
SIGNATURES = frozenset({Action.SIGNED})
NONE = "—"  # nothing (no handful, no slam...), in any language


@dataclass(frozen=True)
class HistoryLine:
    at: datetime
    action: str
    who: str
    sentence: str  # the whole sentence, reason included
    reason: str
    after_signature: bool  # a change made while signatures stood: it voided them

    @property
    def amends(self) -> bool:
        return amends(self.action, reason=self.reason, after_signature=self.after_signature)


def after_signature(actions: Iterable[str]) -> list[bool]:
    """The log's rule, replayed over a sheet's actions (oldest first): for each, whether it is
    a change made while signatures stood, which voids them. A signature stands until the next
    change."""
    flags = []
    signed = False
    for action in actions:
        changes = action not in SIGNATURES
        flags.append(changes and signed)
        signed = not changes
    return flags


def amends(action: str, *, reason: str, after_signature: bool) -> bool:
    """Whether an event goes in the sheet's amendment box: a change made after a signature, or
    one given with a reason (a referee's correction, a penalty)."""
    return action not in SIGNATURES and (after_signature or bool(reason))


def amended(log: Sequence[tuple[str, str]]) -> bool:
    """Whether a sheet's log (its events' action and reason, oldest first) holds an amendment,
    read without the events' data (:func:`amends`)."""
    flags = after_signature(action for action, _reason in log)
    return any(
        amends(action, reason=reason, after_signature=late)
        for (action, reason), late in zip(log, flags, strict=True)
    )


def history_lines(
    events: Iterable, names: Sequence[str], roles: Mapping[int, str] | None = None
) -> list[HistoryLine]:
    """The sentences of a sheet's events, oldest first. ``names``: the players' names by table
    position (deals store positions). ``roles`` (account id -> role on the tournament, for
    pages anyone may read): staff are named by their role, never by their account's name."""
    ordered = sorted(events, key=lambda e: (e.at, e.pk or 0))
    lines = []
    for event, late in zip(ordered, after_signature(e.action for e in ordered), strict=True):
        if roles is not None and not _by_table_link(event):
            event = copy(event)
            event.actor_label = str(role_label(roles.get(event.actor_id, "")))
        lines.append(
            HistoryLine(
                at=event.at,
                action=event.action,
                who=who(event),
                sentence=sentence(event, names),
                reason=event.reason or "",
                after_signature=late,
            )
        )
    return lines


def sentence(event, names: Sequence[str]) -> str:
    """One event as a sentence, with its reason when it has one."""
    writer = WRITERS.get(event.action, _other)
    text = writer(event, names)
    reason = (event.reason or "").strip()
    if reason:
        text += " " + _("(reason: %(reason)s)") % {"reason": reason}
    return text


def _by_table_link(event) -> bool:
    return event.actor_id is None and event.actor_label in _table_link_labels()


ROLE_LABELS = {
    "organiser": gettext_lazy("the organiser"),
    "referee": gettext_lazy("the referee"),
}


def role_label(role: str) -> str:
    """A staff member as the public reads them: « l'arbitre », « l'organisateur »."""
    return ROLE_LABELS.get(role, gettext_lazy("a staff member"))


def who(event) -> str:
    """Who made the change: the referee's account, or the table through its private link."""
    if event.actor_id is None and event.actor_label in _table_link_labels():
        return _("the table link")
    return event.actor_label or _("someone")


def clock(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


# --- one writer per kind of event ---------------------------------------------------------------


def _deal_created(event, names) -> str:
    after = event.data.get("after") or {}
    values = {"number": event.data.get("deal", 0), "who": who(event), "time": clock(event.at)}
    if after.get("kind") == "passed":
        return _("Deal %(number)d entered by %(who)s at %(time)s: everybody passed") % values
    if after.get("kind") == "misdeal":
        return (
            _(
                "Deal %(number)d entered by %(who)s at %(time)s: misdeal, dealt again by the "
                "same dealer"
            )
            % values
        )
    return _("Deal %(number)d entered by %(who)s at %(time)s: %(deal)s") % {
        **values,
        "deal": deal_description(after, names),
    }


def _deal_corrected(event, names) -> str:
    before = event.data.get("before") or {}
    after = event.data.get("after") or {}
    changes = deal_changes(before, after, names) or [_("nothing changed in the deal")]
    return _("Deal %(number)d corrected by %(who)s at %(time)s: %(changes)s") % {
        "number": event.data.get("deal", 0),
        "who": who(event),
        "time": clock(event.at),
        "changes": _("; ").join(changes),
    }


def _deal_removed(event, names) -> str:
    values = {"number": event.data.get("deal", 0), "who": who(event), "time": clock(event.at)}
    before = event.data.get("before")
    if not before:
        return _("Deal %(number)d removed by %(who)s at %(time)s") % values
    return _("Deal %(number)d removed by %(who)s at %(time)s; it read: %(deal)s") % {
        **values,
        "deal": deal_description(before, names),
    }


def _paper_totals(event, names) -> str:
    before = list(event.data.get("before") or [])
    after = list(event.data.get("after") or [])
    values = {"who": who(event), "time": clock(event.at)}
    if not before:
        totals = ", ".join(f"{_name(names, i)} {_number(total)}" for i, total in enumerate(after))
        return _("Round totals of the paper sheet entered by %(who)s at %(time)s: %(totals)s") % {
            **values,
            "totals": totals,
        }
    changes = [
        f"{_name(names, i)} {_number(old)} → {_number(new)}"
        for i, (old, new) in enumerate(zip(before, after, strict=False))
        if old != new
    ]
    return _("Round totals of the paper sheet corrected by %(who)s at %(time)s: %(changes)s") % {
        **values,
        "changes": ", ".join(changes) or _("nothing changed"),
    }


def _penalty(event, names) -> str:
    amount = int(event.data.get("amount", 0))
    return ngettext(
        "Penalty of %(amount)s point for %(player)s, given by %(who)s at %(time)s",
        "Penalty of %(amount)s points for %(player)s, given by %(who)s at %(time)s",
        abs(amount),
    ) % {
        "amount": _signed(amount),
        "player": event.data.get("player", ""),
        "who": who(event),
        "time": clock(event.at),
    }


def _signed(event, names) -> str:
    if event.data.get("method") == "paper":
        return _("Paper sheet signed by every player, recorded by %(who)s at %(time)s") % {
            "who": who(event),
            "time": clock(event.at),
        }
    return _("Signed by %(player)s with their PIN at %(time)s") % {
        "player": event.data.get("player", ""),
        "time": clock(event.at),
    }


def _time_called(event, names) -> str:
    played = int(event.data.get("played", 0))
    return ngettext(
        "Time called by %(who)s at %(time)s: the table stopped after %(n)s deal",
        "Time called by %(who)s at %(time)s: the table stopped after %(n)s deals",
        played,
    ) % {"who": who(event), "time": clock(event.at), "n": played}


def _other(event, names) -> str:
    known = event.action in Action.values
    what = str(Action(event.action).label) if known else _("Change")
    return _("%(what)s by %(who)s at %(time)s") % {
        "what": what,
        "who": who(event),
        "time": clock(event.at),
    }


WRITERS: dict[str, Callable[[object, Sequence[str]], str]] = {
    Action.DEAL_CREATED: _deal_created,
    Action.DEAL_CORRECTED: _deal_corrected,
    Action.DEAL_REMOVED: _deal_removed,
    Action.PAPER_TOTALS: _paper_totals,
    Action.PENALTY: _penalty,
    Action.SIGNED: _signed,
    Action.TIME_CALLED: _time_called,
}


# --- deals --------------------------------------------------------------------------------------


def deal_description(deal: dict, names: Sequence[str]) -> str:
    """A deal's inputs (a snapshot as the event log keeps it, positions for seats) in words:
    « Garde, preneur Léa Martin, 2 bouts, 47 points, poignée simple (Hugo Petit) »."""
    if deal.get("kind") == "passed":
        return _("everybody passed")
    if deal.get("kind") == "misdeal":
        return _("misdeal, dealt again by the same dealer")
    if deal.get("kind") == "ruling":
        text = _("referee's ruling, scores %(scores)s") % {"scores": _ruling_scores(deal, names)}
        if deal.get("note"):
            text += " " + _("(reason: %(note)s)") % {"note": deal["note"]}
        return text
    parts = [
        _contract(deal.get("contract")),
        _("taker %(name)s") % {"name": _name(names, deal.get("taker"))},
        _oudlers(deal.get("oudlers")),
        _points(deal.get("points")),
    ]
    parts += [_handful(h, names) for h in deal.get("handfuls") or []]
    if deal.get("petit_au_bout"):
        parts.append(_("petit au bout for %(camp)s") % {"camp": _camp(deal["petit_au_bout"])})
    if deal.get("slam"):
        camp = {"camp": _camp(deal["slam"])}
        if deal.get("slam_announced"):
            parts.append(_("slam announced and made by %(camp)s") % camp)
        else:
            parts.append(_("slam made by %(camp)s") % camp)
    elif deal.get("slam_announced"):
        parts.append(_("slam announced, not made"))
    text = ", ".join(p for p in parts if p)
    if deal.get("kind") == "referee":
        text = _("decided by the referee: %(deal)s") % {"deal": text}
        if deal.get("note"):
            text += " " + _("(referee's note: %(note)s)") % {"note": deal["note"]}
    return text


def deal_changes(before: dict, after: dict, names: Sequence[str]) -> list[str]:
    """What a correction changed, one phrase per input: « 47 → 45 points », « 2 → 3 bouts »."""
    if before.get("kind") != after.get("kind"):
        return [f"{deal_description(before, names)} → {deal_description(after, names)}"]
    if after.get("kind") == "ruling":
        old, new = before.get("scores") or [], after.get("scores") or []
        changes = [
            f"{_name(names, i)} {_number(o)} → {_number(n)}"
            for i, (o, n) in enumerate(zip(old, new, strict=False))
            if o != n
        ]
        if before.get("note") != after.get("note"):
            changes.append(_("reason: %(note)s") % {"note": after.get("note") or "—"})
        return changes
    changes = []
    if before.get("contract") != after.get("contract"):
        changes.append(f"{_contract(before.get('contract'))} → {_contract(after.get('contract'))}")
    if before.get("taker") != after.get("taker"):
        changes.append(
            _("taker %(before)s → %(after)s")
            % {
                "before": _name(names, before.get("taker")),
                "after": _name(names, after.get("taker")),
            }
        )
    if before.get("oudlers") != after.get("oudlers"):
        changes.append(
            ngettext(
                "%(before)s → %(after)s oudler",
                "%(before)s → %(after)s oudlers",
                int(after.get("oudlers") or 0),
            )
            % {"before": before.get("oudlers"), "after": after.get("oudlers")}
        )
    if _decimal(before.get("points")) != _decimal(after.get("points")):
        changes.append(
            ngettext(
                "%(before)s → %(after)s point",
                "%(before)s → %(after)s points",
                int(_decimal(after.get("points")) or 0),
            )
            % {
                "before": _card_points(before.get("points")),
                "after": _card_points(after.get("points")),
            }
        )
    if _handfuls_key(before) != _handfuls_key(after):
        changes.append(
            _("handfuls: %(before)s → %(after)s")
            % {"before": _handfuls(before, names), "after": _handfuls(after, names)}
        )
    if before.get("petit_au_bout") != after.get("petit_au_bout"):
        changes.append(
            _("petit au bout: %(before)s → %(after)s")
            % {
                "before": _camp(before.get("petit_au_bout")),
                "after": _camp(after.get("petit_au_bout")),
            }
        )
    if (before.get("slam"), before.get("slam_announced")) != (
        after.get("slam"),
        after.get("slam_announced"),
    ):
        changes.append(
            _("slam: %(before)s → %(after)s") % {"before": _slam(before), "after": _slam(after)}
        )
    if before.get("note") != after.get("note") and after.get("kind") == "referee":
        changes.append(_("referee's note: %(note)s") % {"note": after.get("note") or "—"})
    return changes


# --- small words --------------------------------------------------------------------------------


def _ruling_scores(deal: dict, names: Sequence[str]) -> str:
    """A ruling's scores by player, the seat sitting out at a table of 5 left out:
    « Léa Martin +30, Hugo Petit −10, … »."""
    scores = deal.get("scores") or []
    sitting_out = deal.get("dealer") if len(scores) == 5 else None
    return ", ".join(
        f"{_name(names, i)} {_number(s)}" for i, s in enumerate(scores) if i != sitting_out
    )


def _name(names: Sequence[str], position) -> str:
    if position is None or not 0 <= int(position) < len(names):
        return "?"
    return names[int(position)]


def _contract(value) -> str:
    labels = {str(k): v for k, v in CONTRACT_LABELS.items()}
    return str(labels.get(value, value or ""))


def _camp(value) -> str:
    """The camp with its article, as a sentence names it: « l'attaque », « la défense »."""
    if not value:
        return NONE
    if value == "attack":
        return _("the attack")
    if value == "defence":
        return _("the defence")
    return str(value)


def _decimal(value) -> Decimal | None:
    if value in (None, ""):
        return None
    return Decimal(str(value))


def _card_points(value) -> str:
    number = _decimal(value)
    if number is None:
        return "—"
    return number_format(number, decimal_pos=0 if number == number.to_integral_value() else 1)


def _points(value) -> str:
    number = _decimal(value)
    if number is None:
        return ""
    return ngettext("%(points)s point", "%(points)s points", int(number)) % {
        "points": _card_points(number)
    }


def _oudlers(value) -> str:
    if value is None:
        return ""
    return ngettext("%(count)d oudler", "%(count)d oudlers", int(value)) % {"count": int(value)}


def _handful(handful: dict, names: Sequence[str]) -> str:
    labels = {str(k): v for k, v in HANDFUL_LABELS.items()}
    return _("%(size)s handful (%(player)s)") % {
        "size": str(labels.get(handful.get("size"), handful.get("size", ""))).lower(),
        "player": _name(names, handful.get("seat")),
    }


def _handfuls_key(deal: dict) -> list:
    return sorted((h.get("seat"), h.get("size")) for h in deal.get("handfuls") or [])


def _handfuls(deal: dict, names: Sequence[str]) -> str:
    shown = [_handful(h, names) for h in deal.get("handfuls") or []]
    return ", ".join(shown) or NONE


def _slam(deal: dict) -> str:
    if deal.get("slam"):
        return _("made by %(camp)s") % {"camp": _camp(deal["slam"])}
    if deal.get("slam_announced"):
        return _("announced, not made")
    return NONE


def _number(value: int) -> str:
    """A signed whole number as printed: a real minus sign, no plus."""
    return str(value).replace("-", "−")


def _signed(value: int) -> str:
    """A penalty with its sign, as the sheet shows it: −20 (or +30, kept from older days)."""
    return f"+{value}" if value > 0 else _number(value)


def _table_link_labels() -> frozenset[str]:
    """The table link's label in every language (the log keeps it as it was written)."""
    return _labels_in(tuple(code for code, _name_of_language in settings.LANGUAGES))


@lru_cache(maxsize=4)
def _labels_in(codes: tuple[str, ...]) -> frozenset[str]:
    """Once per process: switching languages for every event of a tournament's 2,000 sheets
    took a third of its workbook's time (``bench/figures.md``)."""
    labels = set()
    for code in codes:
        with translation.override(code):
            labels.add(_("Table link"))
    return frozenset(labels)


# --- every version of every deal (django-simple-history) ----------------------------------------

AUTOMATIC_REASONS = {"created", "corrected", "removed", "dealer re-derived"}


@dataclass(frozen=True)
class DealVersion:
    at: datetime
    number: int
    version: int
    change: str
    who: str
    description: str
    scores: str
    reason: str = ""

    @property
    def sentence(self) -> str:
        values = {
            "number": self.number,
            "version": self.version,
            "change": self.change,
            "who": self.who,
            "time": clock(self.at),
            "deal": self.description,
            "scores": self.scores,
        }
        if not self.scores:  # a ruling: its description names each player's score
            text = (
                _(
                    "Deal %(number)d, version %(version)d, %(change)s by %(who)s at %(time)s: "
                    "%(deal)s"
                )
                % values
            )
        else:
            text = (
                _(
                    "Deal %(number)d, version %(version)d, %(change)s by %(who)s at %(time)s: "
                    "%(deal)s; scores %(scores)s"
                )
                % values
            )
        if self.reason:
            text += " " + _("(reason: %(reason)s)") % {"reason": self.reason}
        return text


def deal_versions(records: Iterable, names: Sequence[str]) -> list[DealVersion]:
    """The stored versions of a sheet's deals (historical records), in words."""
    versions = []
    for record in records:
        reason = record.history_change_reason or ""
        if record.history_type == "+":
            change = _("entered")
        elif record.history_type == "-":
            change = _("removed")
        elif reason == "dealer re-derived":
            change = _("dealer moved by a correction of an earlier deal")
        else:
            change = _("corrected")
        user = record.history_user
        snapshot = {
            "kind": record.kind,
            "taker": record.taker,
            "contract": record.contract,
            "oudlers": record.oudlers,
            "points": record.points,
            "handfuls": record.handfuls,
            "petit_au_bout": record.petit_au_bout,
            "slam_announced": record.slam_announced,
            "slam": record.slam,
            "note": record.note,
            "scores": record.scores,
            "dealer": record.dealer,
        }
        ruling = record.kind == "ruling"
        versions.append(
            DealVersion(
                at=record.history_date,
                number=record.number,
                version=record.version,
                change=change,
                who=user.get_username() if user is not None else _("the table link"),
                description=deal_description(snapshot, names),
                scores="" if ruling else " / ".join(_number(s) for s in record.scores or []),
                # A ruling's description already gives its reason (the deal's note).
                reason=""
                if reason in AUTOMATIC_REASONS or (ruling and reason == record.note)
                else reason,
            )
        )
    return versions

"""What happened at a table: the score sheet of a table for a round, its deals, penalties,
signatures and the event log of every change.

Deals store what the table reported (the inputs); scores are derived by the engine and cached in
``Deal.scores`` — :func:`scoring.scores.deal_scores` recomputes them and a test checks the cache.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.labels import CAMP_LABELS, CONTRACT_LABELS
from tournaments import limits
from tournaments.models import history_reason

# An archive never attributes what it holds to an account of the installation importing it
# (scoring.archive): a user name an account here already uses is kept as "NAME (archive)", a
# name no account can take (Django's user names have no space or parenthesis). Documents show
# the name as the archive had it (account_name).
IMPORTED_SUFFIX = " (archive)"


def account_name(user) -> str:
    """The name of the account that did something, as documents and seals show it."""
    if user is None:
        return ""
    return user.get_username().removesuffix(IMPORTED_SUFFIX)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class ScoreSheet(models.Model):
    """The feuille de marque of one table for one round."""

    class Status(models.TextChoices):
        NOT_STARTED = "not_started", _("Not started")
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETE = "complete", _("Complete")
        SIGNED = "signed", _("Signed")
        AMENDED = "amended", _("Amended after signature")

    table = models.OneToOneField(
        "tournaments.Table", on_delete=models.CASCADE, related_name="sheet"
    )
    token = models.CharField(max_length=40, unique=True, default=new_token)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.NOT_STARTED, db_index=True
    )
    paper_mode = models.BooleanField(_("paper sheet: round totals only"), default=False)
    paper_totals = models.JSONField(default=list, blank=True)  # by table position
    signed_at = models.DateTimeField(null=True, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=history_reason())

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")

    def __str__(self) -> str:
        return f"{self.table.round} · {self.table}"

    @property
    def is_locked(self) -> bool:
        """Signed sheets refuse entries from the table link; referees correct with a reason."""
        return self.status == self.Status.SIGNED


class Deal(models.Model):
    class Kind(models.TextChoices):
        PLAYED = "played", _("Played")
        PASSED = "passed", _("Passed (everybody passed)")
        REFEREE = "referee", _("Decided by the referee")
        # The referee rules the deal's scores directly (a misdeal, a revoke, a dispute): the
        # scores are typed per seat (zero-sum, 0 for the seat sitting out), with the reason.
        RULING = "ruling", _("Referee's ruling (scores typed)")
        # A misdeal is not a deal: no score, not counted in the round's deals, and the same
        # dealer deals again (scoring.engine.table.next_dealer).
        MISDEAL = "misdeal", _("Misdeal (dealt again by the same dealer)")

    CONTRACT_CHOICES = [(c.value, label) for c, label in CONTRACT_LABELS.items()]
    CAMP_CHOICES = [(c.value, label) for c, label in CAMP_LABELS.items()]

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAYED)
    # Derived from the deals before it (the dealer moves on after every deal that is not
    # passed); kept up to date by the services because the sitting-out seat depends on it.
    dealer = models.PositiveSmallIntegerField(help_text="Table position of the dealer.")
    # Table positions (0..4). At a table of 5 the dealer sits out and the other four play.
    taker = models.PositiveSmallIntegerField(null=True, blank=True)
    partner = models.PositiveSmallIntegerField(null=True, blank=True)
    contract = models.CharField(max_length=12, choices=CONTRACT_CHOICES, blank=True)
    oudlers = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=3, decimal_places=1, null=True, blank=True)
    handfuls = models.JSONField(default=list, blank=True)  # [{"seat": position, "size": ...}]
    petit_au_bout = models.CharField(max_length=8, choices=CAMP_CHOICES, blank=True)
    slam_announced = models.BooleanField(default=False)
    slam = models.CharField(max_length=8, choices=CAMP_CHOICES, blank=True)
    note = models.CharField(_("referee's reason"), max_length=limits.REASON, blank=True)
    # By table position; derived from the inputs, or typed by the referee for a ruling.
    scores = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    # The idempotency key of the entry that made this version (a phone's queue resends a deal
    # until it hears back: the same key is recorded once). Kept in the history too.
    entry_key = models.CharField(max_length=limits.ENTRY_KEY, blank=True, default="")
    # A hash of what that entry sent: the same key with other values is a conflict, not a replay.
    entry_hash = models.CharField(max_length=64, blank=True, default="")
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=history_reason())

    class Meta:
        ordering = ["sheet", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="deal_unique_number"),
            models.UniqueConstraint(
                fields=["sheet", "entry_key"],
                condition=~Q(entry_key=""),
                name="deal_unique_entry_key",
            ),
            models.CheckConstraint(
                condition=Q(oudlers__isnull=True) | Q(oudlers__lte=3), name="deal_oudlers_range"
            ),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | (Q(points__gte=0) & Q(points__lte=91)),
                name="deal_points_range",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Deal %(number)d") % {"number": self.number})


class Penalty(models.Model):
    """A referee's individual penalty: on its own line, outside the zero-sum check."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.PROTECT, related_name="penalties"
    )
    amount = models.IntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=limits.REASON)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(history_change_reason_field=history_reason())

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="penalty_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.amount:+d} ({self.reason})"


class Signature(models.Model):
    class Method(models.TextChoices):
        PIN = "pin", _("PIN at the table")
        PAPER = "paper", _("Paper sheet signed, recorded by the referee")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="signatures")
    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.PROTECT, related_name="signatures"
    )
    method = models.CharField(max_length=6, choices=Method.choices)
    signed_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A correction after signature supersedes the signatures (kept for the record); the
    # players then sign the amended sheet again.
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["signed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "registration"],
                condition=Q(superseded_at__isnull=True),
                name="signature_once_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.registration} ({self.get_method_display()})"


class SheetEvent(models.Model):
    """The event log written by the services: who did what to a sheet, from where, and why."""

    class Action(models.TextChoices):
        """What an event records: the services log these, the history writes a sentence for
        each, and the labels name them (an action missing from this list cannot be logged)."""

        DEAL_CREATED = "deal_created", _("Deal entered")
        DEAL_CORRECTED = "deal_corrected", _("Deal corrected")
        DEAL_REMOVED = "deal_removed", _("Deal removed")
        PAPER_TOTALS = "paper_totals", _("Paper totals entered")
        PENALTY = "penalty", _("Penalty")
        SIGNED = "signed", _("Signed")
        TIME_CALLED = "time_called", _("Time called")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150)  # "Referee Martin", "Table link (North)"
    action = models.CharField(max_length=40, choices=Action.choices)
    page = models.CharField(max_length=200, blank=True)
    reason = models.CharField(max_length=limits.REASON, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action}"

    @property
    def action_label(self) -> str:
        return str(self.get_action_display())


class PinAttempt(models.Model):
    """A wrong PIN, to slow down guessing: the lock is per sheet and player (the PIN being
    tried), whoever tries it from wherever; the client's address is kept for the record."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.CASCADE, related_name="+", null=True
    )
    client = models.CharField(max_length=64)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.client} @ {self.at:%H:%M:%S}"


class SheetSeal(models.Model):
    """The canonical content of a sheet at the moment every player had signed it.

    Printed documents carry the seal's fingerprint and short code; the public verification page
    finds the seal by code, checks its signature and compares it with the sheet as it is now.
    """

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="seals")
    fingerprint = models.CharField(max_length=64, unique=True)
    code = models.CharField(max_length=16, unique=True)
    content = models.JSONField()
    sealed_at = models.DateTimeField(auto_now_add=True)
    # The Ed25519 signature of the content by the installation that sealed it, that
    # installation's public key and name (scoring.sealing). Empty for a seal imported from an
    # archive made before seals were signed: its content can then not be proven.
    signature = models.CharField(max_length=100, blank=True, default="")
    public_key = models.CharField(max_length=60, blank=True, default="")
    installation = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        ordering = ["sealed_at", "pk"]

    def __str__(self) -> str:
        return self.code


class TrustedKey(models.Model):
    """A public sealing key this installation trusts (scoring.trust): its own, recorded when it
    first seals, and those an organiser added on purpose after comparing the key's fingerprint
    with the one its holder publishes. A seal by any other key reads « clé inconnue »."""

    public_key = models.CharField(max_length=60, unique=True)
    # Who holds it, as its file or its seals name it when it was added.
    name = models.CharField(max_length=100, blank=True, default="")
    own = models.BooleanField(default=False)  # made by this installation
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["added_at", "pk"]

    def __str__(self) -> str:
        return self.name or self.public_key


class Score(models.Model):
    """One player's points from one deal (or a paper sheet's round total): the ledger of the
    points, for SQL aggregates and audits (what each deal gave each player).

    Derived from the deals by the services (never typed); a test checks it always equals the
    engine's result for the stored inputs. The pages read the seats' stored results (one row
    per player and round, ``tournaments.Seat.points``), derived from the same rows.
    """

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="scores")
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.CASCADE, related_name="score_rows"
    )
    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.PROTECT, related_name="scores"
    )
    round_number = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    played = models.BooleanField(default=True)  # False for the sitting-out seat, passed deals
    took = models.BooleanField(default=False)  # this player was the taker
    made = models.BooleanField(default=False)  # ...and won the contract

    class Meta:
        indexes = [models.Index(fields=["registration", "round_number"])]

    def __str__(self) -> str:
        return f"{self.registration_id}: {self.points}"


class FinalResults(models.Model):
    """A closed tournament's final standings as its club's season reads them: one row per
    tournament, written the first time a season page reads the tournament after its close.

    Derived, never typed, and never trusted beyond its version: it holds the tournament's
    ``changed_at`` at the moment it was computed, which moves with every change to the
    tournament's results, names or settings; a season reads it only while the two are equal,
    and computes the standings again otherwise (``scoring.season``). Not in archives (an
    import computes it again). Without it, a season page of 40 tournaments ranked all of them
    on every cold page.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    version = models.DateTimeField()
    # [[player id, name, place, total, tied], ...] by place: what championship.Result needs.
    standings = models.JSONField()

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.version}"


# The prize list's models live in a room of their own (scoring/prizes/), under this app.
from scoring.prizes.models import Category, Prize, PrizeSettings  # noqa: E402, F401

# The shared version the per-reader public pages read (scoring/page_versions.py).
from scoring.publication import SharedPublication  # noqa: E402, F401

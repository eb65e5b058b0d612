"""Who plays where and when: players, clubs, tournaments, staff, teams, rounds, tables, seats.

Models hold data and invariants; services do the work. Club claims: `tournaments/club_claims.py`."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from scoring.engine import RULE_SETS
from scoring.engine.table import deals_at_table, equal_at_five, equal_choices, played_at_five
from tournaments import championship, limits
from tournaments.club_claims import ClubClaim  # noqa: F401  (a model of this app, in its own module)


def history_reason() -> models.CharField:
    """The reason column of every history table: a referee's reason fits whole."""
    return models.CharField(max_length=limits.REASON, null=True)


class Club(models.Model):
    """A club: players name it on their record (its members); a club with a short name (slug)
    also has a public page, organisers and seasons."""

    name = models.CharField(_("name"), max_length=limits.CLUB, unique=True)
    slug = models.SlugField(
        _("short name (in addresses)"), max_length=80, unique=True, null=True, blank=True
    )
    place = models.CharField(_("place"), max_length=limits.PLACE, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_clubs"
    )
    changed_at = models.DateTimeField(
        auto_now=True, help_text="Last change of anything public; keys the club page cache."
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


def default_place_points() -> str:
    return "100,90,80,70,60,50,40,30,20,10"


class Season(models.Model):
    """A club's season: the tournaments that add up to its championship, and the formula."""

    class Kind(models.TextChoices):
        TOTALS = "totals", _("Sum of tournament totals")
        PLACES = "places", _("Points by place")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=limits.SEASON_NAME)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    kind = models.CharField(_("formula"), max_length=8, choices=Kind.choices, default=Kind.TOTALS)
    best = models.PositiveSmallIntegerField(
        _("best results counted"), default=0, help_text=_("0: every result counts.")
    )
    place_points = models.CharField(
        _("points by place"),
        max_length=limits.PLACE_POINTS,
        default=default_place_points,
        help_text=_("1st, 2nd, 3rd... separated by commas; a place beyond the list gets 0."),
    )
    scale_to = models.PositiveSmallIntegerField(
        _("scale by the number of players"),
        default=0,
        help_text=_("0: not scaled; K: points × players ÷ K."),
    )
    attendance_bonus = models.PositiveIntegerField(
        _("attendance bonus per tournament played"), default=0
    )
    tie_breaks = models.CharField(
        _("tie-breaks"),
        max_length=40,
        blank=True,
        default="",
        choices=[
            ("", _("None: tied players share the rank")),
            ("best_place", _("Best place of the season")),
            ("played", _("More tournaments played")),
            ("best_place,played", _("Best place, then more tournaments played")),
        ],
    )
    changed_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "-start", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique"),
            models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="season_dates"),
        ]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def parse_place_points(text: str) -> tuple[int, ...]:
        """``"100, 90,80"`` -> (100, 90, 80); ValueError when a part is not a whole number."""
        parts = [part.strip() for part in text.split(",")]
        if not parts or any(not (p.isascii() and p.isdigit()) for p in parts):
            raise ValueError(text)
        return tuple(int(p) for p in parts)

    @property
    def formula(self) -> championship.Formula:
        return championship.Formula(
            kind=self.kind,
            best=self.best,
            place_points=self.parse_place_points(self.place_points),
            scale_to=self.scale_to,
            attendance_bonus=self.attendance_bonus,
            tie_breaks=tuple(t for t in self.tie_breaks.split(",") if t),
        )


class Player(models.Model):
    """A person who plays, across tournaments. The FFT licence number is unique when given."""

    first_name = models.CharField(_("first name"), max_length=limits.NAME, blank=True)
    last_name = models.CharField(_("last name"), max_length=limits.NAME)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )
    licence = models.CharField(_("FFT licence"), max_length=limits.LICENCE, blank=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["licence"], condition=~Q(licence=""), name="player_licence_unique"
            )
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return self.name_of(self.first_name, self.last_name)

    @staticmethod
    def name_of(first_name: str, last_name: str) -> str:
        """The name shown everywhere (also for rows read without a model instance)."""
        return f"{first_name} {last_name}".strip()


class Tournament(models.Model):
    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        TEAMS_OF_2 = "teams_2", _("Teams of 2")
        TEAMS_OF_4 = "teams_4", _("Teams of 4")

    class Visibility(models.TextChoices):
        DURING_PLAY = "during", _("Standings visible during play")
        AT_THE_END = "end", _("Standings visible only at the end")

    class OddTables(models.TextChoices):
        # values are those of tournaments.seating (ODD_FIVE, ODD_THREE)
        FIVE = "five", _("Tables of 5 (the dealer sits out in turn; not homologated by the FFT)")
        THREE = "three", _("Tables of 3 (homologated by the FFT)")

    class SeatingPriority(models.TextChoices):
        # values are those of tournaments.seating (PRIORITY_REPEATS, PRIORITY_FAIR)
        REPEATS = "repeats", _("Fewest repeated meetings first")
        FAIR = "fair", _("Tables of 5 or 3 shared fairly first")

    slug = models.SlugField(_("short name (in addresses)"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=limits.TOURNAMENT_NAME)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=limits.PLACE, blank=True)
    format = models.CharField(
        _("format"), max_length=12, choices=Format.choices, default=Format.INDIVIDUAL
    )
    rounds = models.PositiveSmallIntegerField(_("number of rounds"), default=5)
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals per round at a table of 4"),
        default=4,
    )
    odd_tables = models.CharField(
        _("players left over by tables of 4"),
        max_length=5,
        choices=OddTables.choices,
        default=OddTables.FIVE,
    )
    seating_priority = models.CharField(
        _("seating priority"),
        max_length=8,
        choices=SeatingPriority.choices,
        default=SeatingPriority.REPEATS,
    )
    passed_deals_count = models.BooleanField(
        _("passed deals count toward the quota"), default=False
    )
    timed_rounds = models.BooleanField(
        _("timed rounds: the deals per round are a maximum"),
        default=False,
        help_text=_("The referee calls time on a round; tables stop where they are."),
    )
    rule_set = models.CharField(
        _("rules"),
        max_length=40,
        default="fft",
        choices=[(name, _(rules.label)) for name, rules in RULE_SETS.items()],
    )
    visibility = models.CharField(
        _("what the public may see"),
        max_length=8,
        choices=Visibility.choices,
        default=Visibility.DURING_PLAY,
    )
    tie_breaks = models.CharField(
        _("tie-breaks (not FFT)"),
        max_length=60,
        blank=True,
        choices=[
            ("", _("None: tied players share the rank (FFT)")),
            ("best_round", _("Best single round (not FFT)")),
            ("fewer_fives", _("Fewer rounds at a table of 5 (not FFT)")),
            ("head_to_head", _("Head-to-head between tied players (not FFT)")),
            ("best_round,head_to_head", _("Best round, then head-to-head (not FFT)")),
        ],
        default="",
    )
    finished = models.BooleanField(_("finished"), default=False)
    # Ends and reopenings (services/ending.py): {"action", "by", "at", "reason"}, oldest first.
    finish_log = models.JSONField(default=list, blank=True, editable=False)
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    capacity = models.PositiveSmallIntegerField(
        _("seats offered online"),
        null=True,
        blank=True,
        help_text=_("Empty: no online registration."),
    )
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    # Printed with the QR code of signed sheets (scoring.sheet_documents); help in forms.py.
    verify_url = models.URLField(
        _("public address for verifying sheets"), max_length=limits.URL, blank=True
    )
    # The FFT's homologation number, printed on the results report (help in forms.py).
    homologation = models.CharField(
        _("FFT homologation number"), max_length=limits.HOMOLOGATION, blank=True
    )
    # The organiser's séries, one a line: the choices of a player's série (tournaments.rows).
    series_list = models.TextField(_("séries"), blank=True, default=limits.DEFAULT_SERIES)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(
        auto_now=True, help_text="Last change of anything public; keys the public page cache."
    )
    local_changed_at = models.DateTimeField(null=True, editable=False)  # scoring/page_versions.py
    shared_changed_at = models.DateTimeField(null=True, editable=False)  # the same

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1) & Q(rounds__lte=30), name="tournament_rounds_range"
            ),
            models.CheckConstraint(
                condition=Q(deals_per_round__gte=1) & Q(deals_per_round__lte=30),
                name="tournament_deals_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def tie_break_list(self) -> list[str]:
        return [t for t in self.tie_breaks.split(",") if t]

    @property
    def standings_public(self) -> bool:
        return self.finished or self.visibility == self.Visibility.DURING_PLAY

    @property
    def team_size(self) -> int:
        return {self.Format.TEAMS_OF_2: 2, self.Format.TEAMS_OF_4: 4}.get(self.format, 0)

    @property
    def is_team_event(self) -> bool:
        return self.team_size > 0

    def deals_at_table(self, size: int) -> int:
        """Deals a table of ``size`` plays: 5 for every 4 at a table of 5 (see
        :func:`scoring.engine.table.deals_at_table`)."""
        return deals_at_table(size, self.deals_per_round)

    @property
    def deals_at_five(self) -> dict:
        """What a table of 5 gives its players with these deals per round, for the settings
        page and the dashboard: the deals it plays, each seat's played deals, whether they are
        all equal, and the nearest equal choices. Empty when the players left over sit at
        tables of 3: a table of 5 then seats only a field of exactly 5, where nobody waits."""
        if self.odd_tables == self.OddTables.THREE:
            return {}
        played = played_at_five(self.deals_per_round)
        return {
            "deals": deals_at_table(5, self.deals_per_round),
            "played": played,
            "equal": equal_at_five(self.deals_per_round),
            "fewer": played.count(min(played)),
            "least": min(played),
            "most": max(played),
            "choices": equal_choices(self.deals_per_round),
        }


class StaffMember(models.Model):
    """A staff member's role on one tournament. Every lookup is scoped by it."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)

    class Meta:
        verbose_name = _("staff member")
        verbose_name_plural = _("staff")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staff_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=limits.TEAM)

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


def new_pin() -> str:
    return f"{secrets.randbelow(10**4):04d}"


SEXES = [("F", _("Woman")), ("M", _("Man"))]


class Registration(models.Model):
    """A player entered in a tournament: presence on the day, team, and signing PIN.

    The player's name, club and licence are copied here when they register (or when the
    organiser corrects this tournament's record): everything the tournament shows, prints,
    seals and archives reads this copy, never the shared :class:`Player`, so that a later
    tournament (a new club, another organiser's typing) never rewrites an earlier one.
    """

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        PRESENT = "present", _("Present")
        ABSENT = "absent", _("Absent")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    # The player as this tournament knows them (same limits as Player and Club).
    first_name = models.CharField(_("first name"), max_length=limits.NAME, blank=True)
    last_name = models.CharField(_("last name"), max_length=limits.NAME)
    club_name = models.CharField(_("club"), max_length=limits.CLUB, blank=True)
    licence = models.CharField(_("FFT licence"), max_length=limits.LICENCE, blank=True)
    # What the prize list's categories read (séries from the organiser's list).
    series = models.CharField(_("série"), max_length=limits.SERIES, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=SEXES, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="members"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.REGISTERED
    )
    pin = models.CharField(_("signing PIN"), max_length=8, default=new_pin)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    history = HistoricalRecords(history_change_reason_field=history_reason())

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_player"
            )
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return Player.name_of(self.first_name, self.last_name)

    @property
    def details(self) -> str:
        """What tells two namesakes apart: « Club de Nantes · 0400001 »."""
        return " · ".join(text for text in (self.club_name, self.licence) if text)

    @property
    def listed_name(self) -> str:
        """The name with its details, as menus list players: « Paul Martin (Petit Club) »."""
        return f"{self.full_name} ({self.details})" if self.details else self.full_name

    def copy_player(self, player: Player, club_name: str | None = None) -> None:
        """Take the player's name, club and licence as they are now (``club_name`` when the
        caller already has it: no query for the club)."""
        self.first_name, self.last_name = player.first_name, player.last_name
        self.licence = player.licence
        if club_name is None:
            club_name = player.club.name if player.club_id else ""
        self.club_name = club_name


class Round(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("Seated")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SEATED)
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    closed_at = models.DateTimeField(null=True, blank=True)
    close_reason = models.CharField(
        _("reason for closing with unsigned sheets"), max_length=limits.REASON, blank=True
    )
    # A timed round: when the referee called time (tables stop where they are).
    time_called_at = models.DateTimeField(null=True, blank=True)
    # Seats swapped by hand after the draw: the round page then says its repeats are not all
    # the seating's.
    seats_changed = models.PositiveSmallIntegerField(_("seats changed by hand"), default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return str(_("Round %(number)d") % {"number": self.number})


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")
        ]

    def __str__(self) -> str:
        return str(_("Table %(number)d") % {"number": self.number})


# By table position. The fifth seat of a table of five is « Cinquième » (short « 5e »), the
# same word on every page and document (scoring.documents.labels prints it the same way).
SEAT_LABELS = [_("North"), _("East"), _("South"), _("West"), _("Fifth")]
SEAT_SHORT_LABELS = [
    pgettext_lazy("seat", "N"),
    pgettext_lazy("seat", "E"),
    pgettext_lazy("seat", "S"),
    pgettext_lazy("seat", "W"),
    pgettext_lazy("seat", "5th"),
]


class Seat(models.Model):
    """A registration at a table for a round; position 0..4 is North, East, South, West, fifth."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # The seat's result at this table: the sums of its score rows (``scoring.Score``), kept by
    # ``scoring.services`` whenever a sheet's deals or totals change, never typed.
    # The standings read these 8 rows per player instead of summing 40 score rows.
    points = models.IntegerField(default=0)  # penalties excluded (they are kept apart)
    deals_played = models.PositiveSmallIntegerField(default=0)
    deals_taken = models.PositiveSmallIntegerField(default=0)
    deals_made = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["round", "registration"], name="seat_once_per_round"),
            models.CheckConstraint(condition=Q(position__lte=4), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.registration}"

    @property
    def label(self) -> str:
        return str(SEAT_LABELS[self.position])

    @property
    def short_label(self) -> str:
        """The seat in a narrow column: N, E, S, O (W in English), 5e (5th)."""
        return str(SEAT_SHORT_LABELS[self.position])


class SeatRequest(models.Model):
    """A player's online request for a seat at a tournament (``Tournament.capacity`` seats).

    Pending requests hold the seats left in the order they came; those beyond are the waiting
    list. The organiser confirms (the player is registered, ready for check-in) or refuses. Only
    the tournament's organiser sees the e-mail (requests page and export): no public page does.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the organiser")
        CONFIRMED = "confirmed", _("Confirmed")
        REFUSED = "refused", _("Refused")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="seat_requests"
    )
    last_name = models.CharField(_("last name"), max_length=limits.NAME)
    first_name = models.CharField(_("first name"), max_length=limits.NAME)
    licence = models.CharField(_("FFT licence"), max_length=limits.LICENCE, blank=True)
    club = models.CharField(_("club"), max_length=limits.CLUB, blank=True)
    email = models.EmailField(_("e-mail (optional)"), max_length=limits.EMAIL, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    registration = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    client = models.CharField(max_length=64)  # the address it came from (the throttle)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["email"])

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("seat request")
        verbose_name_plural = _("seat requests")

    def __str__(self) -> str:
        return Player.name_of(self.first_name, self.last_name)

    @property
    def full_name(self) -> str:
        return Player.name_of(self.first_name, self.last_name)

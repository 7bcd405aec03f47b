"""A night of a group: who comes, dues, tables, rounds and who sits where."""

import secrets

from django.db import models
from django.urls import reverse
from django.utils.functional import cached_property

from bunco_night.groups.models import Group, Player
from bunco_night.rules.presets import Rules


def new_token() -> str:
    """A secret for a link: 128 bits or more from ``secrets`` (22+ url-safe characters)."""
    return secrets.token_urlsafe(16)


class Night(models.Model):
    """One night of Bunco. Its rules and dues are a snapshot taken when it is planned."""

    PLANNING = "planning"
    PLAYING = "playing"
    FINISHED = "finished"
    STATUSES = [(PLANNING, "Planning"), (PLAYING, "Playing"), (FINISHED, "Finished")]

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    time = models.TimeField(null=True, blank=True)
    place = models.CharField(max_length=120, blank=True, help_text="Where: whose home.")
    sets = models.PositiveSmallIntegerField(default=1)
    rules = models.JSONField()
    dues_cents = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=PLANNING)
    seed = models.PositiveIntegerField(default=0, help_text="Seed of the last random seating.")
    version = models.PositiveIntegerField(
        default=1, help_text="Bumped on every change that every page shows."
    )
    scores_version = models.PositiveIntegerField(
        default=1, help_text="Bumped on every score entry (the host's board polls it)."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(sets__gte=1) & models.Q(sets__lte=12), name="night_sets_1_to_12"
            )
        ]

    def __str__(self) -> str:
        return f"{self.group} on {self.date:%b %d, %Y}"

    def get_absolute_url(self) -> str:
        return reverse("nights:detail", args=[self.pk])

    @cached_property
    def rules_obj(self) -> Rules:
        """The night's rules as the engine's value."""
        return Rules.from_dict(self.rules)


class Attendance(models.Model):
    """One person's place on a night: a regular (coming, sending a sub, or absent) or a guest.

    ``player`` is the roster person the row is about; ``substitute`` plays instead of a
    regular who sends one. A regular who is absent without a substitute still owes the
    dues (seed 003), and a ghost takes the seat when the group fills with ghosts.
    """

    COMING = "coming"
    SENT_SUB = "sub"
    ABSENT = "absent"
    LEFT = "left"
    STATUSES = [
        (COMING, "Coming"),
        (SENT_SUB, "Sends a substitute"),
        (ABSENT, "Not coming, no substitute"),
        (LEFT, "Left early"),
    ]

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attendances")
    status = models.CharField(max_length=8, choices=STATUSES, default=COMING)
    substitute = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="substitutions"
    )
    token = models.CharField(max_length=43, unique=True, default=new_token)

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="one_attendance_per_player"),
            models.UniqueConstraint(
                fields=["night", "substitute"], name="one_substitution_per_player"
            ),
            models.CheckConstraint(
                condition=(models.Q(status="sub") & models.Q(substitute__isnull=False))
                | (~models.Q(status="sub") & models.Q(substitute__isnull=True)),
                name="substitute_only_when_sent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_status_display()})"

    @property
    def plays(self) -> Player | None:
        """Who sits at the tables for this row: the player, the substitute, or nobody."""
        if self.status == self.COMING:
            return self.player
        if self.status == self.SENT_SUB:
            return self.substitute
        return None

    @property
    def owes_dues(self) -> bool:
        """Everyone who plays owes dues, and so does a regular who sends nobody (seed 003)."""
        return self.status in (self.COMING, self.SENT_SUB, self.LEFT) or (
            self.status == self.ABSENT and self.player.is_regular
        )


class Payment(models.Model):
    """Money the host took for an attendance's dues."""

    attendance = models.ForeignKey(Attendance, on_delete=models.CASCADE, related_name="payments")
    amount_cents = models.PositiveIntegerField()
    nonce = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount_cents__gt=0), name="payment_positive")
        ]

    def __str__(self) -> str:
        return f"{self.amount_cents / 100:.2f} for {self.attendance}"


class Table(models.Model):
    """A physical table of a night. Table 1 is the head table. Its token is its QR link."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True, help_text="In the current layout.")
    token = models.CharField(max_length=43, unique=True, default=new_token)
    version = models.PositiveIntegerField(default=1, help_text="Bumped on every entry here.")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="one_table_per_number"),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2) & models.Q(seats__lte=4), name="table_2_to_4_seats"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    @property
    def is_head(self) -> bool:
        """Table 1 is the head table."""
        return self.number == 1


class Round(models.Model):
    """One round of a night: every table rolls for the same mark."""

    PENDING = "pending"
    PLAYING = "playing"
    CLOSED = "closed"
    STATUSES = [(PENDING, "Not started"), (PLAYING, "Playing"), (CLOSED, "Closed")]

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    set_number = models.PositiveSmallIntegerField(default=1)
    mark = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=STATUSES, default=PENDING)
    bell_at = models.DateTimeField(null=True, blank=True)
    bell_by_host = models.BooleanField(default=False)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="one_round_per_number"),
            models.CheckConstraint(
                condition=models.Q(mark__isnull=True)
                | (models.Q(mark__gte=1) & models.Q(mark__lte=6)),
                name="round_mark_is_a_die_face",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Seat(models.Model):
    """Who sits where in a round, and (once the round is closed) how they did.

    A ghost's seat has no player. ``table_seats`` copies its table's size so the
    database can refuse a seat outside its table.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_rows")
    table_seats = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    ghost_for = models.ForeignKey(
        Attendance, null=True, blank=True, on_delete=models.SET_NULL, related_name="ghost_seats"
    )
    won = models.BooleanField(null=True, blank=True)
    buncos = models.PositiveSmallIntegerField(default=0)
    mini_buncos = models.PositiveSmallIntegerField(default=0)
    marks = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round__number", "table__number", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "number"], name="one_occupant_per_seat"
            ),
            models.UniqueConstraint(
                fields=["round", "player"],
                name="player_once_per_round",
                condition=models.Q(player__isnull=False),
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1) & models.Q(number__lte=models.F("table_seats")),
                name="seat_inside_its_table",
            ),
            models.CheckConstraint(
                condition=models.Q(table_seats__gte=2) & models.Q(table_seats__lte=4),
                name="seat_table_2_to_4",
            ),
        ]

    def __str__(self) -> str:
        who = self.player or "Ghost"
        return f"{who} at table {self.table.number} seat {self.number}"

    @property
    def is_ghost(self) -> bool:
        """A ghost's seat: its partner rolls for it."""
        return self.player_id is None

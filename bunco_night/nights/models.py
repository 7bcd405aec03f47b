"""A night of a group: who comes, dues, tables, rounds and who sits where."""

from __future__ import annotations

import datetime as dt
import secrets

from django.db import models
from django.urls import reverse
from django.utils.functional import cached_property

from bunco_night.groups.models import Group, Player, prize_category
from bunco_night.rules.presets import Rules
from bunco_night.rules.shares import PrizeCategory


def new_token() -> str:
    """A secret for a link: 128 bits or more from ``secrets`` (22+ url-safe characters)."""
    return secrets.token_urlsafe(16)


class NightQuerySet(models.QuerySet):
    def hosted_by(self, user) -> NightQuerySet:
        """Nights of the groups ``user`` hosts (none for an anonymous visitor)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(group__memberships__user=user)

    def upcoming(self, today: dt.date) -> NightQuerySet:
        """Unfinished nights from ``today`` on, soonest first."""
        return (
            self.filter(date__gte=today)
            .exclude(status=Night.Status.FINISHED)
            .order_by("date", "time", "pk")
        )

    def past(self, today: dt.date) -> NightQuerySet:
        """Nights before ``today``, and nights finished before their date, latest first."""
        return self.filter(
            models.Q(date__lt=today) | models.Q(status=Night.Status.FINISHED)
        ).order_by("-date", "-pk")

    def in_play(self) -> NightQuerySet:
        """Nights whose rounds have started and that are not over."""
        return self.filter(status=Night.Status.PLAYING)

    def with_playing(self) -> NightQuerySet:
        """Each night with ``playing``: how many people sit at the tables."""
        statuses = [AttendanceStatus.COMING, AttendanceStatus.SENT_SUB]
        return self.annotate(
            playing=models.Count("attendances", filter=models.Q(attendances__status__in=statuses))
        )


class Night(models.Model):
    """One night of Bunco. Its rules and dues are a snapshot taken when it is planned."""

    class Status(models.TextChoices):
        PLANNING = "planning", "Planning"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    time = models.TimeField(null=True, blank=True)
    place = models.CharField(max_length=120, blank=True, help_text="Where: whose home.")
    sets = models.PositiveSmallIntegerField(default=1)
    rules = models.JSONField()
    dues_cents = models.PositiveIntegerField()
    # The group's prizes when the night was planned, each as ``Prize.as_data`` gives it.
    prizes = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNING)
    seed = models.PositiveIntegerField(default=0, help_text="Seed of the last random seating.")
    version = models.PositiveIntegerField(
        default=1, help_text="Bumped on every change that every page shows."
    )
    scores_version = models.PositiveIntegerField(
        default=1, help_text="Bumped on every score entry (the host's board polls it)."
    )
    door_seed = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The number the door prize was drawn with (docs/rules.md section 7.5).",
    )
    created = models.DateTimeField(auto_now_add=True)
    # The plan form's nonce: the same form sent again finds this night.
    nonce = models.CharField(max_length=64, unique=True, null=True, blank=True)

    objects = NightQuerySet.as_manager()

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

    @property
    def prize_categories(self) -> list[PrizeCategory]:
        """The night's prizes as planned (docs/rules.md section 8.5), as engine values."""
        return [prize_category(p, self.rules_obj) for p in self.prizes]

    @property
    def is_in_play(self) -> bool:
        """Rounds have started and the night is not over."""
        return self.status == self.Status.PLAYING

    @property
    def is_over(self) -> bool:
        """The night is finished: no more rounds or changes to who plays."""
        return self.status == self.Status.FINISHED

    @property
    def total_rounds(self) -> int:
        """Rounds in the whole night."""
        return self.rules_obj.rounds_for(self.sets)


class AttendanceStatus(models.TextChoices):
    COMING = "coming", "Coming"
    SENT_SUB = "sub", "Sends a substitute"
    ABSENT = "absent", "Not coming, no substitute"
    LEFT = "left", "Left early"


class Attendance(models.Model):
    """One person's place on a night: a regular (coming, sending a sub, or absent) or a guest.
    ``substitute`` plays for a regular; an absent regular owes dues (docs/rules.md 8.3, 4.2)."""

    Status = AttendanceStatus

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attendances")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.COMING)
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
                condition=(
                    models.Q(status=AttendanceStatus.SENT_SUB) & models.Q(substitute__isnull=False)
                )
                | (~models.Q(status=AttendanceStatus.SENT_SUB) & models.Q(substitute__isnull=True)),
                name="substitute_only_when_sent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_status_display()})"

    @property
    def is_coming(self) -> bool:
        return self.status == self.Status.COMING

    @property
    def sends_substitute(self) -> bool:
        return self.status == self.Status.SENT_SUB

    @property
    def is_absent(self) -> bool:
        return self.status == self.Status.ABSENT

    @property
    def has_left(self) -> bool:
        return self.status == self.Status.LEFT

    @property
    def plays(self) -> Player | None:
        """Who sits at the tables for this row: the player, the substitute, or nobody."""
        if self.is_coming:
            return self.player
        if self.sends_substitute:
            return self.substitute
        return None

    @property
    def owes_dues(self) -> bool:
        """Whoever plays owes dues, and a regular who sends nobody (docs/rules.md 8)."""
        return not self.is_absent or self.player.is_regular


class RetiredPlace(models.Model):
    """A retired player's place on a coming night, to put back (docs/rules.md 8.1)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="retired_places")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="retired_places")
    status = models.CharField(max_length=8, choices=AttendanceStatus.choices)
    token = models.CharField(max_length=43)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="one_retired_place_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_status_display()}), retired"


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


class Prepayment(models.Model):
    """Dues paid ahead, used night by night from ``starts`` (docs/rules.md section 8.6)."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="prepayments")
    amount_cents = models.PositiveIntegerField()
    starts = models.DateField(help_text="The first night these dues pay for.")
    note = models.CharField(max_length=120, blank=True)
    nonce = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="prepayment_positive"
            )
        ]

    def __str__(self) -> str:
        return f"{self.amount_cents / 100:.2f} prepaid by {self.player} from {self.starts}"


class Table(models.Model):
    """A physical table of a night. Table 1 is the head table. Its token is its QR link."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True, help_text="In the current layout.")
    token = models.CharField(max_length=43, unique=True, default=new_token)
    version = models.PositiveIntegerField(default=1, help_text="Bumped on every entry here.")
    scores_mark = models.PositiveIntegerField(
        default=0, help_text="The night's scores version at this table's last change."
    )

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


class RoundQuerySet(models.QuerySet):
    def playing(self) -> RoundQuerySet:
        return self.filter(status=Round.Status.PLAYING)

    def pending(self) -> RoundQuerySet:
        return self.filter(status=Round.Status.PENDING)

    def closed(self) -> RoundQuerySet:
        return self.filter(status=Round.Status.CLOSED)

    def started(self) -> RoundQuerySet:
        """Rounds being played or closed."""
        return self.exclude(status=Round.Status.PENDING)

    def seated(self) -> RoundQuerySet:
        """Rounds with a seating."""
        return self.filter(seats__isnull=False).distinct()


class Round(models.Model):
    """One round of a night: every table rolls for the same mark."""

    class Status(models.TextChoices):
        PENDING = "pending", "Not started"
        PLAYING = "playing", "Playing"
        CLOSED = "closed", "Closed"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    set_number = models.PositiveSmallIntegerField(default=1)
    mark = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    bell_at = models.DateTimeField(null=True, blank=True)
    bell_by_host = models.BooleanField(default=False)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    replaced_seating = models.JSONField(
        null=True,
        blank=True,
        help_text="The seating a re-draw replaced, per table [player, ghost for]: to undo it.",
    )
    draw_seed = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The seed of the draw that made this round's seating; none when the movement, "
        "a correction or a change of who plays made it (docs/rules.md section 4.4).",
    )
    planned_seating = models.JSONField(
        null=True,
        blank=True,
        help_text="Each player's [table, seat] as the movement, a draw or a swap seated "
        "them, before anyone came or went: where a re-seat sends them back (docs/rules.md "
        "section 10).",
    )

    objects = RoundQuerySet.as_manager()

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

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def bell_rang(self) -> bool:
        """The bell has rung in this round (by the rules or by the host)."""
        return self.bell_by_host or self.bell_at is not None


class Seat(models.Model):
    """Who sits where in a round, and (once closed) how they did; a ghost has no player.
    ``table_seats`` and ``round_tables`` are copies, for a constraint and ``table_game``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_rows")
    table_seats = models.PositiveSmallIntegerField()
    round_tables = models.PositiveSmallIntegerField(default=1)
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
    low_buncos = models.PositiveSmallIntegerField(default=0)
    high_buncos = models.PositiveSmallIntegerField(default=0)
    marks = models.JSONField(default=dict, blank=True)
    score = models.IntegerField(
        null=True, blank=True, help_text="The points this person rolled in the round."
    )

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

    @property
    def is_substitute(self) -> bool:
        """A substitute sits here (select ``player``): the seating marks them as one."""
        return self.player_id is not None and not self.player.is_regular

    @property
    def occupant_name(self) -> str:
        """Who sits here, as people see it (select ``player`` and ``ghost_for__player``)."""
        if self.player_id:
            return self.player.name
        if self.ghost_for_id:
            return f"Ghost (for {self.ghost_for.player.name})"
        return "Ghost"


# A night's recorded money and its hosts' history (docs/rules.md sections 6.6 and 7.9).
from .records import MoneyRecord, NightAction  # noqa: E402, F401

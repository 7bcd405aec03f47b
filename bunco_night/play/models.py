"""What happens at the tables: every score entry, and each table's state in a round."""

from __future__ import annotations

from django.db import models

from bunco_night.groups.models import Player
from bunco_night.nights.models import Round, Table
from bunco_night.rules import scoring
from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import MARK_CODE_MAX_LENGTH, Rules


class TablePlay(models.Model):
    """A table in a round: Done pressed, a recorded tie-break, the host's winner override."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="table_plays")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="plays")
    finished_turn = models.BooleanField(default=False)
    tiebreak_side = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_side = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Set by the host to override the scores."
    )
    extra_passes = models.PositiveSmallIntegerField(
        default=0, help_text="Passes of extra turns finished to break a tie."
    )

    class Meta:
        ordering = ["table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_play_per_table_round")
        ]

    def __str__(self) -> str:
        return f"{self.table} in {self.round}"


class EntryQuerySet(models.QuerySet):
    def counting(self) -> EntryQuerySet:
        """Entries that count: not undone, not late unless accepted (docs/rules.md 3.5, 6.2)."""
        return self.filter(undone_at__isnull=True).filter(
            models.Q(late_at__isnull=True) | models.Q(late_decision=Entry.Late.ACCEPTED)
        )

    def late_pending(self) -> EntryQuerySet:
        """Late entries waiting for the host to accept or discard them."""
        return self.filter(late_at__isnull=False, late_decision="", undone_at__isnull=True)


class Entry(models.Model):
    """One scored roll (or a miss, or a group mark) entered at a table. Never deleted (undo marks
    it); ``nonce`` from the phone makes a retry a no-op. A late entry counts once the host
    accepts it (docs/rules.md section 3.5)."""

    class Late(models.TextChoices):
        PENDING = "", "Waiting for the host"
        ACCEPTED = "accepted", "Accepted"
        DISCARDED = "discarded", "Discarded"

    class Kind(models.TextChoices):
        POINTS = scoring.POINTS, "Points"
        MISS = scoring.MISS, "Miss"
        BUNCO = scoring.BUNCO, "Bunco"
        MINI = scoring.MINI, "Mini bunco"
        LOW = scoring.LOW, "Low bunco"
        HIGH = scoring.HIGH, "High bunco"
        # Two-dice bunko (docs/rules.md section 9.2).
        PAIR = scoring.PAIR, "Pair of the mark"
        DOUBLES = scoring.DOUBLES, "Doubles"
        MARK = "mark", "Group mark"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="entries")
    seat = models.PositiveSmallIntegerField(help_text="The seat rolled for (a ghost's too).")
    roller = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        help_text="Who rolled: credited with the bunco, even when rolling for a ghost.",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    count = models.PositiveSmallIntegerField(default=0)
    mark_code = models.CharField(max_length=MARK_CODE_MAX_LENGTH, blank=True)
    points = models.IntegerField(default=0)
    reset = models.BooleanField(default=False)
    nonce = models.CharField(max_length=64, unique=True)
    by_host = models.BooleanField(default=False)
    extra_pass = models.PositiveSmallIntegerField(
        default=0, help_text="0 in the round's play; n in the n-th pass of extra turns."
    )
    created = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    late_at = models.DateTimeField(
        null=True, blank=True, help_text="When it arrived after the table's round was over."
    )
    tapped_at = models.DateTimeField(
        null=True, blank=True, help_text="When it was tapped, if it waited on the phone first."
    )
    late_decision = models.CharField(max_length=9, choices=Late.choices, blank=True, default="")

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["round", "table"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seat__gte=1) & models.Q(seat__lte=4), name="entry_seat_1_to_4"
            ),
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.kind} {self.points} at {self.table} seat {self.seat}"

    @property
    def is_late(self) -> bool:
        """It arrived after its table's round was over."""
        return self.late_at is not None

    @property
    def tapped_late(self) -> bool:
        """A late entry that waited 5 s or more on its phone (the host sees when tapped)."""
        return (
            bool(self.late_at and self.tapped_at)
            and (self.late_at - self.tapped_at).total_seconds() >= 5
        )

    @property
    def counts(self) -> bool:
        """It counts in the score."""
        return self.undone_at is None and (
            self.late_at is None or self.late_decision == self.Late.ACCEPTED
        )

    def describe(self, rules: Rules) -> str:
        """What was entered, in words: "+2", "BUNCO +21", "Miss", "Pair +2", "Doubles"."""
        if self.kind == self.Kind.POINTS:
            return f"+{self.points}"
        if self.kind == self.Kind.MISS:
            return "Miss"
        if self.kind == self.Kind.BUNCO:
            return f"BUNCO +{self.points}" if self.points else "BUNCO!"
        if self.kind == self.Kind.PAIR:
            return f"Pair +{self.points}"
        if self.kind == self.Kind.DOUBLES:
            return "Doubles"
        if self.kind == self.Kind.MARK:
            try:
                label = rules.group_mark(self.mark_code).label
            except RuleError:
                label = self.mark_code
            return f"{label} {self.points:+d}" if self.points else label
        return f"{self.get_kind_display()} +{self.points}"


# "most_mark:" and a group mark's code is the longest key a prize has.
TIEBREAK_CODE_MAX_LENGTH = 64


class PrizeTiebreak(models.Model):
    """How the host broke a tie for a prize (docs/rules.md section 7.3)."""

    night = models.ForeignKey("nights.Night", on_delete=models.CASCADE, related_name="tiebreaks")
    # A prize's key ("most_mark:wipeout") or a set's roll-off ("set-2").
    code = models.CharField(max_length=TIEBREAK_CODE_MAX_LENGTH)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="prize_tiebreaks")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "code"], name="one_tiebreak_per_prize")
        ]

    def __str__(self) -> str:
        return f"{self.code}: {self.player}"


class Board(models.Model):
    """A table's board as last rendered and the version it claims, sent to later polls
    (``speed/boards.py``). A copy, never a record: unlogged on PostgreSQL (migration 0006)."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="kept_board"
    )
    version = models.CharField(max_length=21)  # "night version.table version"
    build = models.CharField(max_length=16)  # the code that drew it (``boards.build``)
    html = models.TextField()
    # The table as the host's screens draw it, and the bell it was drawn with (empty if not
    # kept); database defaults so older code can still keep boards.
    live = models.TextField(blank=True, default="", db_default="")
    room = models.TextField(blank=True, default="", db_default="")
    bell = models.BooleanField(default=False, db_default=False)
    # The table's ``TableState.as_data`` as JSON, read by the screens' polls (``state.py``).
    state = models.TextField(blank=True, default="", db_default="")

    def __str__(self) -> str:
        return f"{self.table}'s board at {self.version}"

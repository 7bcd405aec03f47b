"""What happens at the tables: every score entry, and each table's state in a round."""

from django.db import models

from bunco_night.groups.models import Player
from bunco_night.nights.models import Round, Table
from bunco_night.rules.presets import MARK_CODE_MAX_LENGTH


class TablePlay(models.Model):
    """A table in a round: Done pressed, a recorded tie-break, the host's winner override."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="table_plays")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="plays")
    finished_turn = models.BooleanField(default=False)
    tiebreak_side = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_side = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Set by the host to override the scores."
    )

    class Meta:
        ordering = ["table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_play_per_table_round")
        ]

    def __str__(self) -> str:
        return f"{self.table} in {self.round}"


class Entry(models.Model):
    """One scored roll (or a miss, or a group mark) entered at a table.

    Entries are never deleted: undo marks one undone, so the score can always be
    rebuilt. ``nonce`` is made by the phone, so a retried submit is stored once.
    """

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
    kind = models.CharField(max_length=8)
    count = models.PositiveSmallIntegerField(default=0)
    mark_code = models.CharField(max_length=MARK_CODE_MAX_LENGTH, blank=True)
    points = models.IntegerField(default=0)
    reset = models.BooleanField(default=False)
    nonce = models.CharField(max_length=64, unique=True)
    by_host = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

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


class PrizeTiebreak(models.Model):
    """How the host broke a tie for a prize (RULES.md section 7)."""

    night = models.ForeignKey("nights.Night", on_delete=models.CASCADE, related_name="tiebreaks")
    code = models.CharField(max_length=20)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="prize_tiebreaks")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "code"], name="one_tiebreak_per_prize")
        ]

    def __str__(self) -> str:
        return f"{self.code}: {self.player}"

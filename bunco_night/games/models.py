"""Buck Dice and Bonanza, each kept on one phone (docs/rules.md sections 9.3 and 9.4) as steps
the pages replay; never deleted (undo marks one), a ``nonce`` each."""

from __future__ import annotations

from django.db import models

from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Round, new_token
from bunco_night.rules import bonanza, buck


class StepQuerySet(models.QuerySet):
    def counting(self) -> StepQuerySet:
        """Steps not undone, in the order they were made."""
        return self.filter(undone_at__isnull=True).order_by("created", "id")


class Step(models.Model):
    """A one-table phone's entry: nonce, made, and undone (docs/rules.md section 6.2)."""

    nonce = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    objects = StepQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["created", "id"]


class BuckTable(models.Model):
    """The one table of a Buck Dice night, and the secret link of the phone that keeps it."""

    night = models.OneToOneField(Night, on_delete=models.CASCADE, related_name="buck_table")
    token = models.CharField(max_length=43, unique=True, default=new_token)

    def __str__(self) -> str:
        return f"Buck Dice table of {self.night}"

    @property
    def number(self) -> int:
        """Buck Dice seats everyone at one table: table 1 (docs/rules.md section 9.3)."""
        return 1


class BuckGame(models.Model):
    """One game of Buck Dice, a round of the night; ``opening``: {str(player id): totals}."""

    table = models.ForeignKey(BuckTable, on_delete=models.CASCADE, related_name="games")
    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="buck_game")
    players = models.JSONField(default=list)
    opening = models.JSONField(default=dict, blank=True)
    point = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round__number"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(point__isnull=True)
                | (models.Q(point__gte=1) & models.Q(point__lte=6)),
                name="buck_point_is_a_die_face",
            )
        ]

    def __str__(self) -> str:
        return f"Buck Dice game {self.round.number}"


class BuckThrow(Step):
    """One throw at a Buck Dice table, as the phone entered it, and who threw it."""

    class Kind(models.TextChoices):
        POINTS = buck.POINTS, "Point numbers"
        MISS = buck.MISS, "Miss"
        BIG_BUCK = buck.BIG_BUCK, "Big Buck"
        LITTLE_BUCK = buck.LITTLE_BUCK, "Little Buck"

    game = models.ForeignKey(BuckGame, on_delete=models.CASCADE, related_name="throws")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="buck_throws")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    count = models.PositiveSmallIntegerField(default=0)

    class Meta(Step.Meta):
        constraints = [
            models.CheckConstraint(condition=models.Q(count__lte=3), name="buck_count_0_to_3")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_kind_display()}"

    @property
    def roller(self) -> Player:
        """Who threw it (the name the bunco pages use)."""
        return self.player

    @property
    def table(self) -> BuckTable:
        return self.game.table

    @property
    def round(self) -> Round:
        return self.game.round


class BonanzaTable(models.Model):
    """A Bonanza table of a night; ``players`` in seat order (the first deals first)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="bonanza_tables")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=43, unique=True, default=new_token)
    players = models.JSONField(default=list)
    start_chips = models.PositiveIntegerField(default=0)
    poker = models.BooleanField(default=True, help_text="The layout has the Poker space.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="one_bonanza_table_per_number")
        ]

    def __str__(self) -> str:
        return f"Bonanza table {self.number} of {self.night}"


class BonanzaStep(Step):
    """One stored ``bonanza.BonanzaStep``; ``cards_left`` as [player id, cards] pairs."""

    class Action(models.TextChoices):
        DEAL = bonanza.DEAL, "Deal"
        SELL_WIDOW = bonanza.SELL_WIDOW, "Widow sold"
        POKER_BET = bonanza.POKER_BET, "Poker bet"
        TAKE = bonanza.TAKE, "Space won"
        CALL_BONANZA = bonanza.CALL_BONANZA, "Bonanza called"
        SETTLE = bonanza.SETTLE, "Chips left taken"

    table = models.ForeignKey(BonanzaTable, on_delete=models.CASCADE, related_name="steps")
    action = models.CharField(max_length=12, choices=Action.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="bonanza_steps"
    )
    space = models.CharField(max_length=20, blank=True)
    chips = models.PositiveIntegerField(default=0)
    cards_left = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return self.get_action_display()

    def as_rule_step(self) -> bonanza.BonanzaStep:
        """The engine's value for this step."""
        return bonanza.BonanzaStep(
            self.action,
            self.player_id,
            self.space or None,
            self.chips,
            tuple((int(p), int(n)) for p, n in self.cards_left),
        )

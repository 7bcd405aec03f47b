"""A night's recorded money and its hosts' history (docs/rules.md sections 6.6 and 7.9);
imported by ``models``."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from bunco_night.rules.money import NightFigures, figures_data, figures_from_data


class MoneyRecord(models.Model):
    """A finished night's money, as ended or as a host changed it (docs/rules.md 7.9);
    ``figures`` is all of it, the totals are for checks and a glance."""

    night = models.OneToOneField(
        "nights.Night", on_delete=models.CASCADE, primary_key=True, related_name="money_record"
    )
    collected_cents = models.PositiveIntegerField()
    season_share_cents = models.PositiveIntegerField()
    pot_cents = models.PositiveIntegerField()
    figures = models.JSONField()
    recorded_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    collected_cents=models.F("pot_cents") + models.F("season_share_cents")
                ),
                name="money_collected_is_pot_and_share",
            )
        ]

    def __str__(self) -> str:
        return f"{self.night}: pot {self.pot_cents / 100:.2f}"

    @property
    def as_figures(self) -> NightFigures:
        """The recorded money as the engine's value."""
        return figures_from_data(self.figures)

    def keep(self, figures: NightFigures) -> None:
        """Set the record to ``figures`` (the caller saves it)."""
        self.collected_cents = figures.collected_cents
        self.season_share_cents = figures.season_share_cents
        self.pot_cents = figures.pot_cents
        self.figures = figures_data(figures)


class NightAction(models.Model):
    """One change a host made to a night, who and when, in words (docs/rules.md 6.6)."""

    class Kind(models.TextChoices):
        PAYMENT = "payment", "Payment"
        PAYMENT_BACK = "payment_back", "Payment taken back"
        CORRECTION = "correction", "Correction"
        SWAP = "swap", "Seats swapped"
        DRAW = "draw", "Seating drawn"
        DRAW_UNDO = "draw_undo", "Draw undone"
        TIEBREAK = "tiebreak", "Tie-break"
        ARRIVAL = "arrival", "Arrival"
        LEAVER = "leaver", "Leaver"
        ROUND = "round", "Round"
        FINISH = "finish", "Night ended"
        DOOR = "door", "Door prize"
        MONEY = "money", "Money changed"

    night = models.ForeignKey("nights.Night", on_delete=models.CASCADE, related_name="actions")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="night_actions",
    )
    by_name = models.CharField(max_length=150, blank=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    text = models.CharField(max_length=500)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["night", "-at"], name="night_action_newest_first")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.by_name or 'someone'}: {self.text}"

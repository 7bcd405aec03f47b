"""What the app keeps of a night besides its play: its money as it stood when the night
ended (docs/rules.md section 7.9).

The models are imported by ``models``, where Django finds them.
"""

from __future__ import annotations

from django.db import models

from bunco_night.rules.money import NightFigures, figures_data, figures_from_data


class MoneyRecord(models.Model):
    """A finished night's money, recorded when it ended and again only when a host
    changes that night's money on purpose (docs/rules.md section 7.9): what was
    collected, the season's share, the pot, each prize's payout and who is paid it, and
    the money left over. ``figures`` holds the whole of it (``rules.money.figures_data``);
    the totals beside it are for the database to check and for reading at a glance."""

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

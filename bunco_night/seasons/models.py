"""What a season records beyond its nights: how the host broke a tie for a year-end prize."""

from __future__ import annotations

from django.db import models

from bunco_night.groups.models import Player, Season


class SeasonTiebreak(models.Model):
    """Who the host recorded as the winner of a tied year-end prize (docs/rules.md
    section 7.3)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tiebreaks")
    code = models.CharField(max_length=30)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="season_tiebreaks")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "code"], name="one_tiebreak_per_season_prize")
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.code}: {self.player}"

"""Changes a season's pages make beyond the group's own services: a year-end tie-break."""

from __future__ import annotations

from django.db import transaction

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player, Season

from .models import SeasonTiebreak
from .standings import season_table


@transaction.atomic
def season_tiebreak_record(*, season: Season, code: str, player: Player | None) -> None:
    """Record who won a tied year-end prize, or clear it (docs/rules.md section 7.3): only
    one of the players tied for it."""
    if player is None:
        season.tiebreaks.filter(code=code).delete()
        return
    prize = next((p for p in season_table(season).prizes if p.code == code), None)
    if prize is None:
        raise ServiceError("The season has no such prize.", "unknown_prize")
    if player.pk not in prize.candidates or len(prize.candidates) < 2:
        raise ServiceError(
            f"{prize.title}: choose one of the players tied for it.", "bad_tiebreak", "player"
        )
    SeasonTiebreak.objects.update_or_create(season=season, code=code, defaults={"player": player})

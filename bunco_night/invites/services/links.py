"""Personal links, made when first needed; a reset replaces one at once."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.nights.models import Night

from ..models import PlayerLink


def link_for(player: Player) -> PlayerLink:
    """The player's personal link, made the first time it is needed."""
    link, _ = PlayerLink.objects.get_or_create(player=player)
    return link


def links_for(players: Iterable[Player]) -> dict[int, PlayerLink]:
    """Personal links of several players (made where missing), by player id."""
    players = list(players)
    have = {link.player_id: link for link in PlayerLink.objects.filter(player__in=players)}
    missing = [PlayerLink(player=p) for p in players if p.pk not in have]
    PlayerLink.objects.bulk_create(missing, ignore_conflicts=True)
    if missing:
        have = {link.player_id: link for link in PlayerLink.objects.filter(player__in=players)}
    return have


@transaction.atomic
def link_reset(*, player: Player, night: Night) -> PlayerLink:
    """A new personal link, from ``night``'s texts (not a finished night's)."""
    if night.is_over:
        raise ServiceError(
            f"This night is over: give {player.name} a new link from the texts page of a night "
            "to come.",
            "night_over",
        )
    PlayerLink.objects.filter(player=player).delete()
    return PlayerLink.objects.create(player=player)

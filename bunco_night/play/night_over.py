"""What the phones say of the prizes once a night is over (docs/rules.md section 7)."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Player

from .standings import NightStandings


@dataclass(frozen=True)
class MyPrize:
    """A prize a player won or is tied for; ``paid``: the regular paid (7.7), or None."""

    title: str
    cents: int
    tied: bool = False
    paid: Player | None = None


def my_prizes(standings: NightStandings, player_id: int) -> list[MyPrize]:
    """The prizes of the night that ``player_id`` won or is tied for, in the prizes' order."""
    mine = []
    for row in standings.prize_rows:
        if row.prize.tied:
            if any(p.pk == player_id for p in row.candidates):
                mine.append(MyPrize(row.prize.title, row.prize.amount_cents, tied=True))
            continue
        lines = row.lines or ([(row.winner, row.winner, 0)] if row.winner else [])
        for won, paid, cents in lines:
            if won.pk == player_id:
                mine.append(MyPrize(row.prize.title, cents, paid=paid if paid != won else None))
    return mine

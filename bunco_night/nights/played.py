"""Everyone who played a night: who sits at a table tonight, and anyone who played a round
and has since left (docs/rules.md section 10). The sheets and lists of a night's players
read it, so nobody who played is left off one."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Player

from .models import Attendance, Night, Seat


@dataclass(frozen=True)
class Played:
    """A person who plays or played tonight.

    ``attendance``: the row whose player link is theirs; None for a substitute who left
    (her row is the regular's again). ``last_round``: the last round they sat in;
    ``first_round``: the first (after round 1 for a late arrival)."""

    player: Player
    attendance: Attendance | None
    left: bool
    last_round: int | None
    first_round: int | None = None

    @property
    def came_late(self) -> bool:
        """They first sat in a round after the first (everyone there sits every round)."""
        return self.first_round is not None and self.first_round > 1


def who_played(night: Night) -> list[Played]:
    """Everyone at a table tonight, and everyone who sat in a round and has left, by name."""
    rows = list(night.attendances.select_related("player", "substitute"))
    last: dict[int, int] = {}
    first: dict[int, int] = {}
    seats = Seat.objects.filter(round__in=night.rounds.started(), player__isnull=False)
    for player_id, number in seats.values_list("player_id", "round__number"):
        last[player_id] = max(number, last.get(player_id, 0))
        first[player_id] = min(number, first.get(player_id, number))
    played = {
        a.plays.pk: Played(a.plays, a, False, last.get(a.plays.pk), first.get(a.plays.pk))
        for a in rows
        if a.plays is not None
    }
    gone = set(last) - set(played)
    if gone:
        own = {a.player_id: a for a in rows if a.has_left}
        for player in Player.objects.filter(pk__in=gone):
            played[player.pk] = Played(
                player, own.get(player.pk), True, last[player.pk], first[player.pk]
            )
    return sorted(played.values(), key=lambda p: (p.player.name.casefold(), p.player.pk))

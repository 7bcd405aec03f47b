"""Everyone who played a night, leavers too, and the words for who came or went
(docs/rules.md section 10)."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Player

from .models import Attendance, Night, Seat


@dataclass(frozen=True)
class Played:
    """A person who plays or played tonight (``attendance`` None: a substitute who left)."""

    player: Player
    attendance: Attendance | None
    left: bool
    last_round: int | None
    first_round: int | None = None

    @property
    def came_late(self) -> bool:
        """They first sat in a round after the first (everyone there sits every round)."""
        return self.first_round is not None and self.first_round > 1

    @property
    def came_and_went(self) -> str:
        """Words such as "Arrived for round 2" or "Left after round 1"; "" (docs/rules.md 10)."""
        return _came_and_went(self, you=False)

    @property
    def came_and_went_to_you(self) -> str:
        """The same, said to the player: "You arrived for round 2 and left after round 3"."""
        return _came_and_went(self, you=True)


def _came_and_went(played: Played, *, you: bool) -> str:
    """The one place these words are made (round numbers of the whole night)."""
    parts = []
    if played.came_late:
        parts.append(f"arrived for round {played.first_round}")
    if played.left and played.last_round is not None:
        parts.append(f"left after round {played.last_round}")
    if not parts:
        return ""
    if you:
        return "You " + " and ".join(parts)
    return " · ".join(p[0].upper() + p[1:] for p in parts)


def came_and_went(night: Night) -> dict[int, str]:
    """``Played.came_and_went`` of everyone tonight who came late or left, by player id."""
    return {p.player.pk: p.came_and_went for p in who_played(night) if p.came_and_went}


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


def substitute_left(attendance: Attendance, played: dict[int, Played]) -> bool:
    """A row whose substitute played and left, its own player never sitting."""
    return attendance.has_left and attendance.player_id not in played


def in_a_line(played: Played | None) -> str:
    """``came_and_went`` to follow other words in a line ("played, left after round 1")."""
    note = played.came_and_went if played else ""
    return note[:1].lower() + note[1:]


def left_note(attendance: Attendance, played: dict[int, Played]) -> str:
    """Why a row that left early no longer plays, in words."""
    if substitute_left(attendance, played):
        return "sent a substitute, who left early"
    return in_a_line(played.get(attendance.player_id)) or "left early"


def played_a_round(night: Night) -> set[int]:
    """Ids of everyone who sat in a closed round of ``night`` (docs/rules.md section 10)."""
    seats = Seat.objects.filter(round__in=night.rounds.closed(), player__isnull=False)
    return set(seats.values_list("player_id", flat=True))

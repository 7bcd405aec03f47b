"""A player's own page: where they sit, their rounds, and their prizes once it is over."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from bunco_night.nights.models import Attendance, Night, Round, Seat
from bunco_night.nights.played import Played
from bunco_night.nights.selectors import current_round
from bunco_night.rules.presets import HEAD_TABLE
from bunco_night.rules.rounds import table_game

from .moves import Move, moves, next_round
from .night_over import MyPrize, my_prizes
from .standings import NightStandings, night_standings
from .state import round_seconds_left


@dataclass(frozen=True)
class CardRow:
    """One round on a player's card."""

    number: int
    set_number: int
    mark: int | None
    table: int
    partner: str | None
    won: bool | None  # None until the round is closed
    buncos: int
    mini_buncos: int
    pending: bool = False  # seated, not started yet


@dataclass
class PlayerPage:
    night: Night
    attendance: Attendance
    name: str
    version: int
    rows: list[CardRow]
    wins: int
    losses: int
    buncos: int
    now: Move | None
    now_round: Round | None
    bell: bool
    rounds_total: int
    clock: int | None = None
    standings: NightStandings | None = None  # once the night is over: its prizes
    mine: list[MyPrize] = field(default_factory=list)  # the prizes this player won
    # "You left after round 1" (docs/rules.md section 10), or "".
    came_and_went: str = ""

    @property
    def gone(self) -> bool:
        """She played and left early, and the night goes on without her."""
        return bool(self.attendance.has_left and self.came_and_went and not self.night.is_over)

    @property
    def table_rang(self) -> bool:
        """The player's table rang the bell and its round is over (docs/rules.md 3.1)."""
        return bool(
            self.bell
            and self.now
            and self.now.head
            and self.clock is None
            and not self.now_round.bell_by_host
            and self.night.rules_obj.round_end == HEAD_TABLE
        )


def _card_rows(night: Night, player_id: int) -> list[CardRow]:
    """A player's rounds with partners, in a fixed number of queries whatever the night's size."""
    mine = list(
        Seat.objects.filter(round__night=night, player_id=player_id)
        .select_related("round", "table")
        .order_by("round__number")
    )
    if not mine:
        return []
    rules = night.rules_obj
    where = Q()
    for s in mine:
        where |= Q(round_id=s.round_id, table_id=s.table_id)
    mates = {
        (m.round_id, m.table_id, m.number): m
        for m in Seat.objects.filter(where).select_related("player", "ghost_for__player")
    }
    rows = []
    for s in mine:
        game = table_game(rules, seats=s.table_seats, tables=s.round_tables)
        across = game.partner_seat(s.number)
        mate = mates.get((s.round_id, s.table_id, across)) if across else None
        rows.append(
            CardRow(
                s.round.number,
                s.round.set_number,
                s.round.mark,
                s.table.number,
                mate.occupant_name if mate else None,
                s.won if s.round.is_closed else None,
                s.buncos,
                s.mini_buncos,
                s.round.is_pending,
            )
        )
    return rows


def player_page(attendance: Attendance) -> PlayerPage:
    """A player's own card, round by round, and where they sit now or next."""
    night = attendance.night
    player = attendance.plays or attendance.substitute or attendance.player
    rows = _card_rows(night, player.pk)
    rnd = current_round(night)
    now = moves(rnd).get(player.pk) if rnd and not rnd.is_closed else None
    if rnd and rnd.is_closed:
        nxt = next_round(night, rnd)
        if nxt:
            now, rnd = moves(nxt).get(player.pk), nxt
    bell = bool(rnd and rnd.is_playing and rnd.bell_rang)
    closed = [r for r in rows if r.won is not None]
    started = [r.number for r in rows if not r.pending]
    first, last = min(started, default=None), max(started, default=None)
    played = Played(player, attendance, attendance.has_left, last, first)
    standings = night_standings(night) if night.is_over else None
    return PlayerPage(
        night=night,
        attendance=attendance,
        name=player.name,
        version=night.version,
        rows=rows,
        wins=sum(1 for r in closed if r.won),
        losses=sum(1 for r in closed if not r.won),
        buncos=sum(r.buncos for r in rows),
        now=now,
        now_round=rnd,
        bell=bell,
        rounds_total=night.total_rounds,
        clock=round_seconds_left(rnd, night.rules_obj) if rnd else None,
        standings=standings,
        mine=my_prizes(standings, player.pk) if standings else [],
        came_and_went=played.came_and_went_to_you,
    )

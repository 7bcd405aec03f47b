"""What the play pages show, read from the database (no writes here).

Each function returns plain values for one page; views render them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.nights.models import Attendance, Night, Round, Seat, Table
from bunco_night.nights.services import seat_name, total_rounds
from bunco_night.rules.layouts import plays_teams

from .models import Entry
from .services import RoundView, TableView, current_round, night_standings, round_view

RECENT_ENTRIES = 6


@dataclass(frozen=True)
class Move:
    """Where someone sits in a round: table, seat, and partner (None at a table of individuals)."""

    name: str
    table: int
    seat: int
    partner: str | None

    @property
    def head(self) -> bool:
        """At the head table."""
        return self.table == 1


def moves(rnd: Round) -> dict[int, Move]:
    """Player id -> where they sit in ``rnd``."""
    seats = list(rnd.seats.select_related("table", "player", "ghost_for__player"))
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table.number, []).append(s)
    rules = rnd.night.rules_obj
    result = {}
    for number, row in by_table.items():
        row.sort(key=lambda s: s.number)
        teams = plays_teams(rules, seats=len(row), tables=len(by_table))
        for s in row:
            if s.player_id is None:
                continue
            partner = seat_name(row[(s.number + 1) % 4]) if teams else None
            result[s.player_id] = Move(s.player.name, number, s.number, partner)
    return result


def next_round(night: Night, after: Round) -> Round | None:
    """The round after ``after`` if it is seated and not yet played."""
    return (
        night.rounds.filter(number=after.number + 1, status=Round.PENDING, seats__isnull=False)
        .distinct()
        .first()
    )


@dataclass
class TablePage:
    """Everything the table phone shows."""

    night: Night
    table: Table
    version: str
    round: Round | None
    rounds_total: int
    view: TableView | None
    outcome: object
    bell: bool
    status: str  # waiting | playing | between | over | not_seated
    recent: list[Entry]
    moves: list[tuple[str, Move]]
    side_names: list[str]
    group_marks: list
    split_low_high: bool

    @property
    def is_head(self) -> bool:
        return self.table.number == 1

    @property
    def sides(self) -> list[tuple[int, str, int]]:
        """(side, names, score) for each side at this table."""
        return self.view.sides if self.view else []

    @property
    def can_tap(self) -> bool:
        """The table takes taps: its round is in play and it is not finished."""
        return (
            self.status == "playing"
            and not self.view.play.finished_turn
            and not getattr(self.outcome, "done", False)
        )

    @property
    def key(self) -> str:
        """Changes when the tap controls must be rebuilt (a new round, or taps stop)."""
        number = self.round.number if self.round else 0
        return f"{number}-{self.status}-{int(self.can_tap)}"

    @property
    def seats(self) -> list[tuple[int, str, bool]]:
        """(seat number, name, is a ghost) at this table."""
        if not self.view:
            return []
        return [(s.number, seat_name(s), s.player_id is None) for s in self.view.seats]

    @property
    def waiting_names(self) -> list[str]:
        """Who must still roll once after the bell."""
        waiting = getattr(self.outcome, "waiting_for", frozenset())
        return [name for number, name, _ in self.seats if number in waiting]


def table_page(table: Table) -> TablePage:
    """The table phone's view of the night right now."""
    night = table.night
    rules = night.rules_obj
    rnd = current_round(night)
    view = outcome = None
    bell = False
    recent: list[Entry] = []
    next_moves: list[tuple[str, Move]] = []
    if night.status == Night.FINISHED:
        status = "over"
    elif rnd is None:
        status = "waiting"
    elif rnd.status == Round.PLAYING:
        rv = round_view(rnd, table=table)
        view = rv.table_view(table.pk)
        outcome = rv.outcome(table.pk)
        bell = rv.status.bell
        status = "playing" if view else "not_seated"
        if view:
            recent = list(reversed(view.entries[-RECENT_ENTRIES:]))
    else:
        closed, nxt = rnd, next_round(night, rnd) if rnd.status == Round.CLOSED else None
        if rnd.status == Round.PENDING:
            nxt = rnd
            closed = night.rounds.filter(number=rnd.number - 1, status=Round.CLOSED).first()
        if closed is None:
            status = "waiting"
            view = round_view(rnd, table=table).table_view(table.pk)
        else:
            # Between rounds: who sat here, and where each of them sits next.
            status = "between"
            rnd = closed
            rv = round_view(closed, table=table)
            view = rv.table_view(table.pk)
            outcome = rv.outcome(table.pk)
            if nxt is not None:
                where = moves(nxt)
                here = closed.seats.filter(table=table, player__isnull=False)
                next_moves = [
                    (s.player.name, where[s.player_id])
                    for s in here.select_related("player").order_by("number")
                    if s.player_id in where
                ]
    return TablePage(
        night=night,
        table=table,
        version=f"{night.version}.{table.version}",
        round=rnd,
        rounds_total=total_rounds(night),
        view=view,
        outcome=outcome,
        bell=bell,
        status=status,
        recent=recent,
        moves=next_moves,
        side_names=view.side_names() if view else [],
        group_marks=list(rules.group_marks),
        split_low_high=rules.split_low_high,
    )


@dataclass(frozen=True)
class CardRow:
    """One round on a player's card."""

    number: int
    set_number: int
    mark: int | None
    table: int
    partner: str | None
    won: bool | None
    buncos: int
    mini_buncos: int


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


def player_page(attendance: Attendance) -> PlayerPage:
    """A player's own card, round by round, and where they sit now or next."""
    night = attendance.night
    player = attendance.plays or attendance.substitute or attendance.player
    rules = night.rules_obj
    seats = list(
        Seat.objects.filter(round__night=night, player=player)
        .select_related("round", "table")
        .order_by("round__number")
    )
    rows = []
    for s in seats:
        partner = None
        count = s.round.seats.values("table_id").distinct().count()
        if plays_teams(rules, seats=s.table_seats, tables=count):
            mate = (
                s.round.seats.filter(table=s.table, number=(s.number + 1) % 4 + 1)
                .select_related("player", "ghost_for__player")
                .first()
            )
            partner = seat_name(mate) if mate else None
        rows.append(
            CardRow(
                s.round.number,
                s.round.set_number,
                s.round.mark,
                s.table.number,
                partner,
                s.won if s.round.status == Round.CLOSED else None,
                s.buncos,
                s.mini_buncos,
            )
        )
    rnd = current_round(night)
    now = moves(rnd).get(player.pk) if rnd and rnd.status != Round.CLOSED else None
    if rnd and rnd.status == Round.CLOSED:
        nxt = next_round(night, rnd)
        if nxt:
            now, rnd = moves(nxt).get(player.pk), nxt
    bell = bool(rnd and rnd.status == Round.PLAYING and (rnd.bell_at or rnd.bell_by_host))
    closed = [r for r in rows if r.won is not None]
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
        rounds_total=total_rounds(night),
    )


@dataclass
class LiveBoard:
    night: Night
    version: str
    round: Round | None
    view: RoundView | None
    next_round: Round | None
    rounds_total: int
    standings: object
    rows: list[tuple[TableView, object, int | None]]


def live_board(night: Night) -> LiveBoard:
    """The host's board: every table's score and state, and the night's headline facts."""
    rnd = current_round(night)
    view = round_view(rnd) if rnd else None
    rows = []
    if view:
        rows = [
            (tv, o, view.winner_side(tv))
            for tv, o in zip(view.tables, view.status.tables, strict=True)
        ]
    nxt = None
    if rnd and rnd.status == Round.CLOSED:
        nxt = next_round(night, rnd)
    elif rnd and rnd.status == Round.PENDING:
        nxt = rnd
    return LiveBoard(
        night=night,
        version=f"{night.version}.{night.scores_version}",
        round=rnd,
        view=view,
        next_round=nxt,
        rounds_total=total_rounds(night),
        standings=night_standings(night),
        rows=rows,
    )

"""The table phone's page as plain values, read only: ``table_page`` and ``moves_missed``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from bunco_night.core.speed.compiled import ID_MARKERS, Compiled
from bunco_night.nights.models import Night, Round, Seat, Table
from bunco_night.nights.selectors import current_round, round_before, table_seated
from bunco_night.rules.names import first_names
from bunco_night.rules.presets import HEAD_TABLE, Rules
from bunco_night.rules.rounds import doubles_before, seat_rolling_next
from bunco_night.rules.scoring import DOUBLE_KINDS, ROLL_KINDS

from . import phone
from .models import Entry
from .moves import Move, first_roller_seat, moves, next_round
from .rolls import Tap, taps
from .standings import NightStandings, night_standings
from .state import TableRound, round_seconds_left, table_round

RECENT_ENTRIES = 6


class TableStatus:
    """What a table phone is showing."""

    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN = "between"
    OVER = "over"
    NOT_SEATED = "not_seated"


@dataclass
class TablePage:
    """Everything the table phone shows."""

    night: Night
    rules: Rules
    table: Table
    version: str
    round: Round | None
    here: TableRound | None
    status: str
    recent: list[Entry]
    moves: list[tuple[str, Move]]
    late: list[Entry]
    arrivals: list[Move] = field(default_factory=list)
    clock: int | None = None
    first: Seat | None = None
    standings: NightStandings | None = None  # once the night is over: its prizes

    @property
    def is_head(self) -> bool:
        return self.table.is_head

    @property
    def dice(self) -> str:
        """The dice a roll is entered with, one character each: "12" or "123"."""
        return "12" if self.rules.is_two_dice else "123"

    @property
    def first_seat(self) -> int:
        """The seat "Who's rolling?" starts on: who rolls next (sections 2.2 and 2.5)."""
        first = self.first.number if self.first else 1
        if not self.here:
            return first
        return seat_rolling_next(self.here.rolls, size=self.here.size, first=first)

    @property
    def streak(self) -> tuple[str, int] | None:
        """Who just rolled doubles and how many in a row (docs/rules.md 9.2), else None."""
        if not self.rules.is_two_dice or not self.here or not self.can_tap:
            return None
        rolls = [e for e in self.here.entries if e.kind in ROLL_KINDS]
        if not rolls or rolls[-1].kind not in DOUBLE_KINDS:
            return None
        seat = rolls[-1].seat
        count = doubles_before(self.here.rolls, seat)
        return self.here.seats[seat - 1].occupant_name, count

    @property
    def outcome(self):
        return self.here.outcome if self.here else None

    @property
    def bell(self) -> bool:
        return self.status == TableStatus.PLAYING and self.here.bell

    @property
    def past_target(self) -> bool:
        """A side reached the target while play goes on to the bell (docs/rules.md 3.1)."""
        return (
            self.status == TableStatus.PLAYING
            and self.rules.round_end == HEAD_TABLE
            and not self.is_head
            and not self.here.bell
            and max(self.here.scores, default=0) >= self.here.target
        )

    @property
    def sides(self) -> list[tuple[int, str, int]]:
        """(side, names, score) for each side at this table."""
        return self.here.sides if self.here else []

    @property
    def score_sides(self) -> list[tuple[int, str, int]]:
        """``sides`` with players by first name (whole where two share one)."""
        if not self.here:
            return []
        short = self.here.seated.side_names(short=True)
        return [(side, short[side], score) for side, _, score in self.here.sides]

    @property
    def extra_turns(self) -> bool:
        """A tie is being broken by one more turn each (docs/rules.md section 3.4)."""
        return (
            self.status == TableStatus.PLAYING
            and self.here.outcome.in_extra_turns
            and self.host_winner is None
        )

    @property
    def roll_off(self) -> bool:
        """A tie waits for the roll-off's winner."""
        outcome = self.outcome
        return (
            self.status == TableStatus.PLAYING
            and outcome.needs_tiebreak
            and not self.extra_turns
            and self.host_winner is None
        )

    @property
    def host_winner(self) -> str | None:
        """The winner the host set in the round in play (docs/rules.md 6.2), else None."""
        if self.status != TableStatus.PLAYING or self.here.play.winner_side is None:
            return None
        return self.here.side_names()[self.here.play.winner_side]

    @property
    def round_winner(self) -> tuple[str, str] | None:
        """Between rounds, (winner, "22–15") of the round just closed here (docs/rules.md
        section 3.7); None otherwise."""
        if self.status != TableStatus.BETWEEN or not self.here:
            return None
        side = self.here.winner_side
        if side is None:
            return None
        names, scores = self.here.side_names(), self.here.scores
        if self.rules.is_card_game:
            return names[side], ""
        order = [scores[side], *(score for s, score in enumerate(scores) if s != side)]
        return names[side], "–".join(str(score) for score in order)

    @property
    def finished(self) -> bool:
        """The round is over here: Done, finished by the rules, or the host's winner."""
        return self.status == TableStatus.PLAYING and (
            self.here.play.finished_turn
            or self.here.outcome.done
            or self.here.play.winner_side is not None
        )

    @property
    def can_undo_done(self) -> bool:
        """A mis-tapped Done may be taken back here (docs/rules.md section 6.2)."""
        return self.status == TableStatus.PLAYING and self.here.may_take_back_done

    @property
    def can_undo_extra_turns(self) -> bool:
        """A mis-tapped "Extra turns done" may be taken back here (section 6.2)."""
        return self.status == TableStatus.PLAYING and self.here.may_take_back_extra_turns_done

    @property
    def on_screens(self) -> bool:
        """Whether the host's screens draw this table as this page has it (not the card
        party, whose forms carry the host's CSRF token)."""
        return self.status == TableStatus.PLAYING and not self.rules.is_card_game

    @property
    def can_tap(self) -> bool:
        """The table takes taps: in play and not over here, or in extra turns."""
        return self.status == TableStatus.PLAYING and (not self.finished or self.extra_turns)

    @property
    def news(self) -> str:
        """What the top of the phone says, in a word (``phone.news``)."""
        return phone.news(self)

    @property
    def key(self) -> str:
        """Changes when the tap controls must be rebuilt (a new round, or taps stop)."""
        number = self.round.number if self.round else 0
        return f"{number}-{self.status}-{int(self.can_tap)}"

    @property
    def controls_key(self) -> str:
        """``key`` and the names on the tap controls (a rename redraws them)."""
        names = "\n".join(name for _, name, _ in self.seats).encode()
        return f"{self.key}-{hashlib.blake2b(names, digest_size=4).hexdigest()}"

    @property
    def seats(self) -> list[tuple[int, str, bool]]:
        """(seat number, name, is a ghost) at this table."""
        if not self.here:
            return []
        return [(s.number, s.occupant_name, s.is_ghost) for s in self.here.seats]

    @property
    def has_ghost(self) -> bool:
        """A ghost sits at this table: its partner rolls for it (docs/rules.md section 5.5)."""
        return any(ghost for _, _, ghost in self.seats)

    @property
    def waiting_names(self) -> list[str]:
        """Who must still roll once after the bell, by first name."""
        waiting = self.outcome.waiting_for if self.outcome else frozenset()
        everyone = [name for _, name, _ in self.seats]
        return first_names([name for number, name, _ in self.seats if number in waiting], everyone)

    @property
    def taps(self) -> list[Tap]:
        return taps(self.rules, self.round.mark if self.round else None)

    @property
    def tap_buttons(self) -> list[phone.TapButton]:
        """The taps with what each does to its side's score (``phone.tap_buttons``)."""
        return phone.tap_buttons(self.rules, self.taps)

    @property
    def dice_points(self) -> str:
        """What each roll of the dice entry scores, as JSON (``phone.dice_points``)."""
        return phone.dice_points(self.rules, self.round.mark if self.round else None)

    @property
    def recent_rows(self) -> list[tuple[Entry, str, bool]]:
        """The latest entries, newest first, with what each scored in words and whether
        the table may undo it (docs/rules.md section 6.2)."""
        return [(e, e.describe(self.rules), self._undoable(e)) for e in self.recent]

    def _undoable(self, entry: Entry) -> bool:
        return self.status == TableStatus.PLAYING and self.here.may_undo(entry)

    @property
    def late_rows(self) -> list[tuple[Entry, str]]:
        """Late entries waiting for the host, with what they scored in words."""
        return [(e, e.describe(self.rules)) for e in self.late]


def table_page(
    table: Table,
    *,
    playing: tuple[Round, TableRound] | None = None,
    version: str | None = None,
    late_waiting: bool | None = None,
) -> TablePage:
    """The table phone's view of the night right now. ``playing``, ``late_waiting``: as a write
    just left them (not read again); ``version``: the version to claim, never newer than what the
    page shows."""
    night = table.night
    rnd = playing[0] if playing else current_round(night)
    here = None
    recent: list[Entry] = []
    late = _late_taps(table, late_waiting)
    next_moves: list[tuple[str, Move]] = []
    arrivals: list[Move] = []
    if playing:
        here, status = playing[1], TableStatus.PLAYING
        recent = list(reversed(here.entries[-RECENT_ENTRIES:]))
    elif night.is_over:
        status = TableStatus.OVER
    elif rnd is None:
        status = TableStatus.WAITING
    elif rnd.is_playing:
        here = table_round(rnd, table)
        status = TableStatus.PLAYING if here else TableStatus.NOT_SEATED
        if here:
            recent = list(reversed(here.entries[-RECENT_ENTRIES:]))
    else:
        closed, nxt = rnd, next_round(night, rnd) if rnd.is_closed else None
        if rnd.is_pending:
            nxt = rnd
            closed = round_before(rnd)
        if closed is None:
            status = TableStatus.WAITING
            here = table_round(rnd, table)
        else:
            # Between rounds: who sat here, and where each of them sits next.
            status = TableStatus.BETWEEN
            rnd = closed
            here = table_round(closed, table)
            if nxt is not None and here is not None:
                where = moves(nxt, [s.player_id for s in here.seats if s.player_id], table)
                next_moves = _moves_of(here.seats, where)
                staying, number = {s.player_id for s in here.seats}, table.number
                coming = (m for pid, m in where.items() if pid not in staying)
                arrivals = sorted((m for m in coming if m.table == number), key=lambda m: m.seat)
    first = None
    if here is not None and status in (TableStatus.WAITING, TableStatus.PLAYING):
        first = first_roller_seat(night, rnd, here.seated)
    return TablePage(
        night=night,
        rules=night.rules_obj,
        table=table,
        version=version or f"{night.version}.{table.version}",
        round=rnd,
        here=here,
        status=status,
        recent=recent,
        moves=next_moves,
        late=late,
        arrivals=arrivals,
        clock=round_seconds_left(rnd, night.rules_obj) if status == TableStatus.PLAYING else None,
        first=first,
        standings=night_standings(night) if status == TableStatus.OVER else None,
    )


def _moves_of(seats: list[Seat], where: dict[int, Move]) -> list[tuple[str, Move]]:
    """Each player in ``seats`` with their move in ``where`` (ghosts and absent: none)."""
    return [(s.player.name, where[s.player_id]) for s in seats if s.player_id in where]


@dataclass(frozen=True)
class MovesMissed:
    """Where to sit, for a phone that was away while a round closed and the next began
    (shown by js/bunco-round.js if it missed them)."""

    closed: int  # the number of the round that ended
    moves: list[tuple[str, Move]]  # who sat here then, and where they sit now

    @property
    def round(self) -> int:
        """The round in play."""
        return self.closed + 1


def moves_missed(page: TablePage) -> MovesMissed | None:
    """Where each player who sat here last round sits now (docs/rules.md section 5); None
    in the first round or if nobody sat here. Never read for a poll."""
    if page.status not in (TableStatus.PLAYING, TableStatus.NOT_SEATED) or page.round.number < 2:
        return None
    before = round_before(page.round)
    if before is None:
        return None
    seated = table_seated(before, page.table)
    if seated is None:
        return None
    here = seated.seats
    moved = _moves_of(here, moves(page.round, [s.player_id for s in here if s.player_id]))
    return MovesMissed(before.number, moved) if moved else None


# Whether a table has late taps waiting (bunco_night/core/speed/compiled.py).
_LATE_PROBE = Compiled(
    lambda table: (
        Entry.objects.late_pending().filter(table_id=table).order_by().values_list("pk")[:1]
    ),
    ID_MARKERS[0],
)


def _late_taps(table: Table, waiting: bool | None = None) -> list[Entry]:
    """Late taps at ``table`` waiting for the host (docs/rules.md section 3.5); a cheap
    probe first. ``waiting``: known from a write (no probe then)."""
    if waiting is False or (waiting is None and _LATE_PROBE.first_row(table.pk) is None):
        return []
    return list(Entry.objects.late_pending().filter(table=table).select_related("roller", "round"))

"""How a table plays a round (teams or not, its target: docs/rules.md sections 1 and 3.3), its
scores and when a round is over (sections 3 and 6). Callers fold a table's entries into a
``TableState``; ``round_status`` says whether the bell has rung and how each table stands. The
caller keeps the clock (``time_up``, 3.8)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .errors import RuleError
from .presets import ANY_TABLE, DICE_GAME, EVERY_TABLE, EXTRA_TURN, HEAD_TABLE, Rules
from .scoring import BUNCO, DOUBLE_KINDS, MISS, ROLL_KINDS

# Why the bell rang for the room (``bell_reason``).
BELL_HOST = "host"  # the host rang it by hand (section 3.6)
BELL_TIME = "time"  # the round's time is up (section 3.8)
BELL_HEAD_TABLE = "head_table"  # a side at the head table reached its target (section 3.1)
BELL_BUNCO = "bunco"  # a bunco ended the round everywhere (sections 3.2 and 9.2)
BELL_TARGET = "target"  # a side somewhere reached its target (section 3.9)


class Entry(NamedTuple):
    """One scored entry at a table: the seat it was rolled for, points and kind. ``reset`` sets
    the side's round score to 0; ``extra_pass`` is 0 in play, else the pass of extra turns
    (docs/rules.md section 3.4). A named tuple: made per entry per poll."""

    seat: int
    points: int
    kind: str
    reset: bool = False
    extra_pass: int = 0


def changes_no_score(entry: Entry) -> bool:
    """An entry that scores nothing, resets nothing and is not a bunco (a miss, most
    often): folding one per seat and pass gives the same ``TableState`` as folding all."""
    return entry.points == 0 and not entry.reset and entry.kind != BUNCO


def partner_seat(seat: int) -> int:
    """The seat across the table (1-based) at a team table: 1<->3, 2<->4."""
    return (seat + 1) % 4 + 1


def side_of(seat: int, teams: bool) -> int:
    """The side (0-based) a seat plays for: teams are seats 1+3 and 2+4."""
    return (seat - 1) % 2 if teams else seat - 1


def side_seats(side: int, size: int, teams: bool) -> tuple[int, ...]:
    """Seat numbers (1-based) that make up ``side``."""
    if teams:
        return tuple(s for s in range(1, size + 1) if (s - 1) % 2 == side)
    return (side + 1,)


def side_count(size: int, teams: bool) -> int:
    """How many sides a table has: two teams, or one per player."""
    return 2 if teams else size


def plays_teams(rules: Rules, *, seats: int, tables: int) -> bool:
    """A 4-seat table of a dice night with more than one table plays in teams (section 1)."""
    return rules.game == DICE_GAME and seats == 4 and tables > 1


def table_target(rules: Rules, *, seats: int, teams: bool, tables: int) -> int:
    """Points that win a round at a table (docs/rules.md section 3.3), or the exact score
    that takes a player out of Buck Dice (section 9.3)."""
    if rules.is_buck_dice:
        return rules.buck_target
    if rules.quick_game:
        return 11
    if teams:
        return rules.target_teams
    if tables == 1:
        return rules.target_one_table
    return rules.target_individuals


@dataclass(frozen=True)
class TableGame:
    """How a table of ``seats`` plays: teams or not, and its target (docs/rules.md 1, 3.3)."""

    seats: int
    teams: bool
    target: int

    @property
    def sides(self) -> int:
        """Two teams, or one side per player."""
        return side_count(self.seats, self.teams)

    def side_of(self, seat: int) -> int:
        """The side (from 0) that ``seat`` (from 1) plays for."""
        return side_of(seat, self.teams)

    def side_seats(self, side: int) -> tuple[int, ...]:
        """The seats that make up ``side``."""
        return side_seats(side, self.seats, self.teams)

    def partner_seat(self, seat: int) -> int | None:
        """The seat across from ``seat`` at a team table; None at a table of individuals."""
        return partner_seat(seat) if self.teams else None


def table_game(rules: Rules, *, seats: int, tables: int) -> TableGame:
    """Teams or individuals and the target of a table of ``seats`` in a night of ``tables``."""
    teams = plays_teams(rules, seats=seats, tables=tables)
    return TableGame(seats, teams, table_target(rules, seats=seats, teams=teams, tables=tables))


def table_scores(entries: Iterable[Entry], *, size: int, teams: bool) -> tuple[int, ...]:
    """Each side's running score: the sum of its entries, in order, with resets."""
    scores = [0] * side_count(size, teams)
    for entry in entries:
        if not 1 <= entry.seat <= size:
            raise RuleError(f"Seat {entry.seat} is not at this table.", "bad_seat")
        side = side_of(entry.seat, teams)
        scores[side] = 0 if entry.reset else scores[side] + entry.points
    return tuple(scores)


@dataclass(frozen=True)
class TableState:
    """What a table has done so far this round: ``scores`` include extra turns. With extra turns
    (docs/rules.md section 3.4), ``play_scores`` are the scores when play ended (None before any)
    and ``pass_scores`` the totals after each finished pass."""

    number: int
    size: int
    teams: bool
    target: int
    scores: tuple[int, ...]
    rolled: frozenset[int] = frozenset()
    bunco: bool = False
    finished_turn: bool = False
    tiebreak_winner: int | None = None
    play_scores: tuple[int, ...] | None = None
    pass_scores: tuple[tuple[int, ...], ...] = ()
    bunco_side: int | None = None

    @classmethod
    def from_entries(
        cls,
        *,
        number: int,
        size: int,
        teams: bool,
        target: int,
        entries: Sequence[Entry],
        finished_turn: bool = False,
        tiebreak_winner: int | None = None,
        extra_passes: int = 0,
    ) -> TableState:
        """Fold a table's entries into its state (docs/rules.md sections 3.4 and 9.2).
        ``extra_passes`` is how many passes of extra turns are finished; no entry may be from a
        later pass than the one in play."""
        if extra_passes < 0:
            raise RuleError("Extra-turn passes cannot be negative.", "bad_extra_pass")
        latest = max((e.extra_pass for e in entries), default=0)
        if latest > extra_passes + 1 or any(e.extra_pass < 0 for e in entries):
            raise RuleError(
                f"Table {number}: an entry belongs to a pass of extra turns not begun.",
                "bad_extra_pass",
            )
        play_scores = pass_scores = None
        if latest or extra_passes:
            play_scores = table_scores(
                [e for e in entries if not e.extra_pass], size=size, teams=teams
            )
            pass_scores = tuple(
                table_scores([e for e in entries if e.extra_pass <= k], size=size, teams=teams)
                for k in range(1, extra_passes + 1)
            )
        return cls(
            number=number,
            size=size,
            teams=teams,
            target=target,
            scores=table_scores(entries, size=size, teams=teams),
            rolled=frozenset(e.seat for e in entries if not e.extra_pass),
            bunco=any(e.kind == BUNCO for e in entries),
            finished_turn=finished_turn,
            tiebreak_winner=tiebreak_winner,
            play_scores=play_scores,
            pass_scores=pass_scores or (),
            bunco_side=next((side_of(e.seat, teams) for e in entries if e.kind == BUNCO), None),
        )

    def as_data(self) -> list:
        """The state as plain data (numbers, booleans, None and lists of them), every
        field in order, for JSON: ``from_data`` gives the state back."""
        return [
            self.number,
            self.size,
            self.teams,
            self.target,
            list(self.scores),
            sorted(self.rolled),
            self.bunco,
            self.finished_turn,
            self.tiebreak_winner,
            None if self.play_scores is None else list(self.play_scores),
            [list(scores) for scores in self.pass_scores],
            self.bunco_side,
        ]

    @classmethod
    def from_data(cls, data: Sequence) -> TableState:
        """The state ``as_data`` gave."""
        number, size, teams, target, scores, rolled, bunco, finished, tiebreak, *rest = data
        play_scores, pass_scores, bunco_side = rest
        return cls(
            number=number,
            size=size,
            teams=teams,
            target=target,
            scores=tuple(scores),
            rolled=frozenset(rolled),
            bunco=bunco,
            finished_turn=finished,
            tiebreak_winner=tiebreak,
            play_scores=None if play_scores is None else tuple(play_scores),
            pass_scores=tuple(tuple(p) for p in pass_scores),
            bunco_side=bunco_side,
        )

    @property
    def extra_passes(self) -> int:
        """Passes of extra turns the table has finished."""
        return len(self.pass_scores)

    @property
    def scores_at_done(self) -> tuple[int, ...]:
        """Each side's score when the round's play ended, before any extra turn."""
        return self.scores if self.play_scores is None else self.play_scores

    @property
    def reached_target(self) -> bool:
        """A side has the target or more."""
        return max(self.scores) >= self.target

    @property
    def leaders(self) -> tuple[int, ...]:
        """The side or sides with the highest score."""
        return _leaders(self.scores)


def _leaders(scores: Sequence[int]) -> tuple[int, ...]:
    top = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == top)


@dataclass(frozen=True)
class TableOutcome:
    """Where a table stands in the round (docs/rules.md section 3.4 for ties). A ``done`` table
    has a ``winner_side`` or ``needs_tiebreak``, never both; a settled tie keeps its
    ``tied_sides`` and the ``extra_passes`` it took."""

    number: int
    stopped: bool
    done: bool
    waiting_for: frozenset[int]
    winner_side: int | None
    needs_tiebreak: bool
    tied_sides: tuple[int, ...] = ()
    in_extra_turns: bool = False
    extra_passes: int = 0

    def __post_init__(self):
        half_valid = (
            (self.needs_tiebreak and (not self.done or self.winner_side is not None))
            or (self.needs_tiebreak and len(self.tied_sides) < 2)
            or (self.in_extra_turns and not self.needs_tiebreak)
            or (self.winner_side is not None and not self.done)
        )
        if half_valid:
            raise RuleError(f"Table {self.number}: an impossible outcome.", "bad_outcome")

    def winner_seats(self, size: int, teams: bool) -> tuple[int, ...]:
        """The seats that won, or () while the table has no winner."""
        if self.winner_side is None:
            return ()
        return side_seats(self.winner_side, size, teams)


@dataclass(frozen=True)
class RoundStatus:
    """The room: has the bell rung (and why: ``BELL_*``), is the round over, and each
    table's outcome."""

    bell: bool
    over: bool
    tables: tuple[TableOutcome, ...]
    reason: str | None = None


def _recorded(table: TableState, leaders: tuple[int, ...]) -> int | None:
    """The tie-break winner recorded for the table, which must be one of ``leaders``."""
    if table.tiebreak_winner is not None and table.tiebreak_winner not in leaders:
        raise RuleError(
            f"Table {table.number}: the tie-break winner must be one of the tied sides.",
            "bad_tiebreak",
        )
    return table.tiebreak_winner


def _done_outcome(rules: Rules, table: TableState, waiting: frozenset[int]) -> TableOutcome:
    """A finished table: its winner, or the tie it waits on (docs/rules.md section 3.4)."""
    n = table.number
    if _bunco_wins(rules, table):
        # Two-dice bunko (section 9.2): three doubles in a row win the round at once.
        return TableOutcome(n, True, True, waiting, table.bunco_side, False)
    at_done = _leaders(table.scores_at_done)
    if len(at_done) == 1:
        return TableOutcome(n, True, True, waiting, at_done[0], False)
    if rules.tie_break != EXTRA_TURN:
        recorded = _recorded(table, at_done)
        if recorded is not None:
            return TableOutcome(n, True, True, waiting, recorded, False, at_done)
        return TableOutcome(n, True, True, waiting, None, True, at_done)
    leaders = at_done
    for passes, scores in enumerate(table.pass_scores, start=1):
        leaders = _leaders(scores)
        if len(leaders) == 1:
            return TableOutcome(n, True, True, waiting, leaders[0], False, at_done, False, passes)
    passes = table.extra_passes
    recorded = _recorded(table, leaders)
    if recorded is not None:
        return TableOutcome(n, True, True, waiting, recorded, False, at_done, False, passes)
    return TableOutcome(n, True, True, waiting, None, True, leaders, True, passes)


def _outcome(rules: Rules, table: TableState, *, stopped: bool, trigger: bool) -> TableOutcome:
    """A table's outcome once play there has stopped (or not)."""
    if not stopped:
        return TableOutcome(table.number, False, False, frozenset(), None, False)
    waiting = frozenset()
    if rules.everyone_rolls_once and not trigger:
        waiting = frozenset(range(1, table.size + 1)) - table.rolled
    if rules.round_end == HEAD_TABLE and not trigger:
        # Head-table control: the player rolling finishes the turn, then the table is done.
        done = table.finished_turn and not waiting
    else:
        done = not waiting
    if not done:
        return TableOutcome(table.number, True, False, waiting, None, False)
    return _done_outcome(rules, table, waiting)


def _bunco_wins(rules: Rules, table: TableState) -> bool:
    """In two-dice bunko a bunco (three doubles in a row) wins its table (section 9.2)."""
    return rules.is_two_dice and table.bunco_side is not None


def bell_reason(
    rules: Rules,
    tables: Sequence[TableState],
    *,
    bell_rung: bool = False,
    time_up: bool = False,
) -> str | None:
    """Why the bell has rung for the room (a ``BELL_*``), or None (docs/rules.md section 3). The
    host's bell (3.6) comes first, then the clock (3.8, timed rules only), then the trigger: head
    table (3.1), every table to target (3.2) or first side anywhere (3.9)."""
    if rules.round_end not in (HEAD_TABLE, EVERY_TABLE, ANY_TABLE):
        raise RuleError("Unknown round-end rule.", "bad_round_end")
    if bell_rung:
        return BELL_HOST
    if time_up and rules.is_timed:
        return BELL_TIME
    if rules.round_end == HEAD_TABLE:
        if tables and (tables[0].reached_target or _bunco_wins(rules, tables[0])):
            return BELL_HEAD_TABLE
        return None
    if rules.bunco_ends_round and any(t.bunco for t in tables):
        return BELL_BUNCO
    if rules.round_end == ANY_TABLE and any(t.reached_target for t in tables):
        return BELL_TARGET
    return None


def room_bell(
    rules: Rules,
    tables: Sequence[TableState],
    *,
    bell_rung: bool = False,
    time_up: bool = False,
) -> bool:
    """Whether the bell has rung for the room (docs/rules.md section 3)."""
    return bell_reason(rules, tables, bell_rung=bell_rung, time_up=time_up) is not None


def room_over(outcomes: Sequence[TableOutcome], winners: Sequence[int | None]) -> bool:
    """Whether every table is done and has a winner: ``winners[i]``, table i's as the host set
    it (None: the rules', its outcome's ``winner_side``). No table: not over."""
    return bool(outcomes) and all(
        o.done and (w if w is not None else o.winner_side) is not None
        for o, w in zip(outcomes, winners, strict=True)
    )


def table_outcome(rules: Rules, table: TableState, *, bell: bool) -> TableOutcome:
    """One table's outcome, given whether the room's bell has rung (docs/rules.md 3.1-3.9)."""
    won = _bunco_wins(rules, table)
    if rules.round_end == HEAD_TABLE:
        trigger = (table.number == 1 and table.reached_target) or won
        return _outcome(rules, table, stopped=bell or won, trigger=trigger)
    trigger = table.reached_target or (table.bunco and rules.bunco_ends_round) or won
    return _outcome(rules, table, stopped=bell or table.reached_target or won, trigger=trigger)


def round_status(
    rules: Rules,
    tables: Sequence[TableState],
    *,
    bell_rung: bool = False,
    time_up: bool = False,
) -> RoundStatus:
    """Whether the round is over, per the night's trigger (docs/rules.md section 3).
    ``bell_rung`` (the host, 3.6) and ``time_up`` (3.8) stop every table like the trigger."""
    if not tables:
        raise RuleError("A round needs at least one table.", "no_tables")
    reason = bell_reason(rules, tables, bell_rung=bell_rung, time_up=time_up)
    outcomes = tuple(table_outcome(rules, t, bell=reason is not None) for t in tables)
    over = all(o.done and o.winner_side is not None for o in outcomes)
    return RoundStatus(bell=reason is not None, over=over, tables=outcomes, reason=reason)


def seconds_left(rules: Rules, elapsed_seconds: float) -> float | None:
    """Seconds left (never below 0) in a timed round, or None when rounds are not timed
    (docs/rules.md section 3.8)."""
    if not rules.is_timed:
        return None
    return max(0.0, rules.round_minutes * 60 - elapsed_seconds)


def doubles_before(entries: Sequence[Entry], seat: int) -> int:
    """How many doubles ``seat`` has rolled in a row just now (docs/rules.md section 9.2).
    ``entries`` are the table's counting entries in order; group marks are skipped. The result
    goes to ``score_roll``/``score_tap`` for the seat's next roll."""
    count = 0
    rolls = [e for e in entries if e.kind in ROLL_KINDS]
    for entry in reversed(rolls):
        if entry.seat != seat or entry.kind not in DOUBLE_KINDS:
            break
        if count and entry.extra_pass != rolls[-1].extra_pass:
            break
        count += 1
    return count


def seat_rolling_next(entries: Sequence[Entry], *, size: int, first: int) -> int:
    """The seat that rolls next, from the table's ``entries`` in order (docs/rules.md
    sections 2.2 and 2.5: ``first`` before anyone has rolled)."""
    rolls = [e for e in entries if e.kind in ROLL_KINDS]
    if not rolls:
        return first
    last = rolls[-1]
    return last.seat % size + 1 if last.kind == MISS else last.seat


def points_rolled(
    entries: Iterable[Entry], rollers: Mapping[int, Hashable], *, teams: bool
) -> dict[Hashable, int]:
    """{person: points} rolled at a table in a round (docs/rules.md section 7.5). ``rollers``
    maps each seat to who rolls for it (a ghost's to its partner, 5.5); a reset (2.4) takes
    everyone on that side back to 0."""
    points: dict[Hashable, int] = dict.fromkeys(rollers.values(), 0)
    for entry in entries:
        if entry.reset:
            side = side_of(entry.seat, teams)
            for seat, person in rollers.items():
                if side_of(seat, teams) == side:
                    points[person] = 0
            continue
        points[rollers[entry.seat]] += entry.points
    return points

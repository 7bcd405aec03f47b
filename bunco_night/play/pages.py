"""What the play pages show, read from the database (no writes here).

Each function returns plain values for one page; views render them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from django.db.models import Q

from bunco_night.core.compiled import ID_MARKERS, Compiled
from bunco_night.nights.models import Attendance, Night, Round, Seat, Table
from bunco_night.nights.selectors import SeatedTable, round_before, seated_tables
from bunco_night.rules.layouts import table_game
from bunco_night.rules.movement import Ghost, first_roller
from bunco_night.rules.presets import HEAD_TABLE, RESET_ROUND_SCORE, Rules
from bunco_night.rules.rounds import doubles_before
from bunco_night.rules.scoring import DOUBLE_KINDS, ROLL_KINDS

from . import phone
from .boards import kept_screens
from .models import Entry
from .night_over import MyPrize, my_prizes
from .standings import BuncoFacts, NightStandings, bunco_facts, night_standings
from .state import (
    RoundBoard,
    TableRound,
    round_board,
    round_seconds_left,
    rule_entries,
    table_round,
)

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


def moves(
    rnd: Round, players: Collection[int] | None = None, table: Table | None = None
) -> dict[int, Move]:
    """Player id -> where they sit in ``rnd``; with ``players``, read at their tables (and
    ``table``) only, in one statement still: a night of 500 does not read every seat for
    the four players of one table."""
    only = None
    if players is not None:
        only = rnd.seats.filter(Q(player_id__in=players) | Q(table=table)).values("table_id")
    result = {}
    for st in seated_tables(rnd, only=only):
        for seat, partner in st.seat_rows:
            if seat.player_id is None:
                continue
            result[seat.player_id] = Move(
                seat.player.name,
                st.table.number,
                seat.number,
                partner.occupant_name if partner is not None else None,
            )
    return result


@dataclass(frozen=True)
class Tap:
    """One thing a roll can score, as a button on the table phone and a choice for the host."""

    value: str
    label: str
    hint: str
    kind: str  # the button's look: points, bunco, mini, mark, miss


def taps(rules: Rules, mark: int | None) -> list[Tap]:
    """What a roll can score under ``rules`` when rolling for ``mark`` (docs/rules.md
    section 2; section 9.2 with two dice)."""
    face = mark or "the mark"
    if rules.is_two_dice:
        return _two_dice_taps(rules, face) + _mark_taps(rules)
    # The taps made every few seconds come first, two by two: they sit on the first screen.
    choices = [
        Tap("points:1", "+1", f"one {face}", "points"),
        Tap("points:2", "+2", f"two {face}s", "points"),
        Tap("bunco", "BUNCO!", f"three {face}s · +{rules.bunco_points}", "bunco"),
        Tap("miss", "Miss", "pass the dice", "miss"),
    ]
    if rules.split_low_high:
        choices += [
            Tap("low", "Low bunco", f"three of a lower number · +{rules.low_points}", "mini"),
            Tap("high", "High bunco", f"three of a higher number · +{rules.high_points}", "mini"),
        ]
    else:
        choices.append(
            Tap("mini", "Mini bunco", f"three of a kind · +{rules.mini_points}", "mini wide")
        )
    return choices + _mark_taps(rules)


def _two_dice_taps(rules: Rules, face) -> list[Tap]:
    """Two dice (docs/rules.md section 9.2): one or both showing the mark, three doubles in
    a row (the phone also counts them and makes the third a bunco), a miss, doubles."""
    return [
        Tap("points:1", f"+{rules.mark_die_points}", f"one {face}", "points"),
        Tap("pair", f"+{rules.mark_pair_points}", f"two {face}s · roll again", "points"),
        Tap("bunco", "BUNCO!", "three doubles in a row: round won", "bunco"),
        Tap("miss", "Miss", f"no {face}, no doubles: pass", "miss"),
        Tap("doubles", "Doubles", "two of another number · roll again", "mini wide"),
    ]


def _mark_taps(rules: Rules) -> list[Tap]:
    choices = []
    for m in rules.group_marks:
        if m.effect == RESET_ROUND_SCORE:
            hint = "score to 0"
        else:
            hint = f"{m.points:+d}" if m.points else "tally"
        choices.append(Tap(f"mark:{m.code}", m.label, hint, "mark"))
    return choices


def first_roller_seat(night: Night, rnd: Round, seated: SeatedTable) -> Seat | None:
    """The seat that rolls first at a table this round (docs/rules.md section 2.5); None in
    the card party. Only this table's seats matter to the rule (and, at a one-table
    night, the last round's winner), so the other tables stand empty in the seating."""
    rules = night.rules_obj
    if rules.is_card_game or not seated.seats:
        return None
    count = seated.tables
    number = seated.table.number
    occupants = seated.occupants
    seating = tuple(occupants if n == number else () for n in range(1, count + 1))
    last_winner = None
    if count == 1 and rnd.number > 1:
        last_winner = (
            Seat.objects.filter(round__night=night, round__number=rnd.number - 1, won=True)
            .values_list("player_id", flat=True)
            .first()
        )
    ghosts = {o for o in occupants if isinstance(o, Ghost)}
    seat = first_roller(rules, seating, number, ghosts=ghosts, last_winner=last_winner)
    return seated.seats[seat - 1]


def next_round(night: Night, after: Round) -> Round | None:
    """The round after ``after`` if it is seated and not yet played."""
    return night.rounds.pending().seated().filter(number=after.number + 1).first()


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
        """The seat the "Who's rolling?" choice starts on: who rolls first (section 2.5)
        or, once the table has entries, who rolls next: a miss passes the dice to the next
        seat, a roll that scores keeps them (section 2.2). A second phone at the table, or
        one whose browser was closed, starts where the table is."""
        rolls = [e for e in self.here.entries if e.kind in ROLL_KINDS] if self.here else []
        if rolls:
            last = rolls[-1]
            return last.seat % self.here.size + 1 if last.kind == Entry.Kind.MISS else last.seat
        return self.first.number if self.first else 1

    @property
    def streak(self) -> tuple[str, int] | None:
        """In two-dice bunko, who has just rolled doubles and how many in a row
        (docs/rules.md section 9.2); None otherwise."""
        if not self.rules.is_two_dice or not self.here or not self.can_tap:
            return None
        rolls = [e for e in self.here.entries if e.kind in ROLL_KINDS]
        if not rolls or rolls[-1].kind not in DOUBLE_KINDS:
            return None
        seat = rolls[-1].seat
        count = doubles_before(rule_entries(self.here.entries), seat)
        return self.here.seats[seat - 1].occupant_name, count

    @property
    def outcome(self):
        return self.here.outcome if self.here else None

    @property
    def bell(self) -> bool:
        return self.status == TableStatus.PLAYING and self.here.bell

    @property
    def sides(self) -> list[tuple[int, str, int]]:
        """(side, names, score) for each side at this table."""
        return self.here.sides if self.here else []

    @property
    def extra_turns(self) -> bool:
        """A tie is being broken by one more turn each (docs/rules.md section 3.4)."""
        return self.status == TableStatus.PLAYING and self.here.outcome.in_extra_turns

    @property
    def roll_off(self) -> bool:
        """A tie waits for the roll-off's winner."""
        outcome = self.outcome
        return (
            self.status == TableStatus.PLAYING and outcome.needs_tiebreak and not self.extra_turns
        )

    @property
    def finished(self) -> bool:
        """The table's round is over here: it pressed Done or the rules finished it."""
        return self.status == TableStatus.PLAYING and (
            self.here.play.finished_turn or self.here.outcome.done
        )

    @property
    def can_undo_done(self) -> bool:
        """A mis-tapped Done may be taken back here (docs/rules.md section 6.2), a tie's
        extra turns not yet begun included."""
        return self.status == TableStatus.PLAYING and self.here.may_take_back_done

    @property
    def can_undo_extra_turns(self) -> bool:
        """A mis-tapped "Extra turns done" may be taken back here (section 6.2)."""
        return self.status == TableStatus.PLAYING and self.here.may_take_back_extra_turns_done

    @property
    def on_screens(self) -> bool:
        """Whether the host's screens draw this table as this page has it: its round is in
        play here, and it is not the card party (whose forms carry the host's CSRF token)."""
        return self.status == TableStatus.PLAYING and not self.rules.is_card_game

    @property
    def can_tap(self) -> bool:
        """The table takes taps: its round is in play and not over here, or a tie's extra
        turns are being played."""
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
        """Who must still roll once after the bell."""
        waiting = self.outcome.waiting_for if self.outcome else frozenset()
        return [name for number, name, _ in self.seats if number in waiting]

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
        """The latest entries, newest first: each with what it scored in words, and whether
        the table may still undo it: until it taps Done, so a mis-tap that ended the round
        here (a head table's bunco rings the bell everywhere) is undone from the table too;
        in a tie's extra turns, only those turns (docs/rules.md section 6.2)."""
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
    """The table phone's view of the night right now.

    ``playing``: the round in play and this table in it as a write has just left them (a
    tap's answer), so they are not read again; ``version``: the version the page claims
    when it is not the one ``table`` and its night hold (never newer than what it shows);
    ``late_waiting``: whether late taps wait at the table, when that write said so.
    """
    night = table.night
    rnd = playing[0] if playing else night.current_round
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
    """Each player in ``seats`` (a table's, in a round) with where they sit in the round
    ``where`` comes from (``moves``); a ghost's seat, or someone not seated then, has none."""
    return [(s.player.name, where[s.player_id]) for s in seats if s.player_id in where]


@dataclass(frozen=True)
class MovesMissed:
    """Where to sit, for a table phone that comes back into a round after the host closed
    the one before and started this one while it was away (asleep, off the Wi-Fi): it
    never showed the closed round's "where to sit next". The page holds it, and the phone
    shows it if it did not show those moves (js/bunco.js)."""

    closed: int  # the number of the round that ended
    moves: list[tuple[str, Move]]  # who sat here then, and where they sit now

    @property
    def round(self) -> int:
        """The round in play."""
        return self.closed + 1


def moves_missed(page: TablePage) -> MovesMissed | None:
    """For a table phone's page whose round is in play (at this table or not): where each
    player who sat at this table in the round before sits now (docs/rules.md section 5);
    None in the first round, or when nobody sat here then. Read for the whole page, and
    for a phone that draws a new round in place without having shown the moves
    (``views.table_moves``); never for a poll."""
    if page.status not in (TableStatus.PLAYING, TableStatus.NOT_SEATED) or page.round.number < 2:
        return None
    before = round_before(page.round)
    if before is None:
        return None
    sat = seated_tables(before, table=page.table)
    if not sat:
        return None
    here = sat[0].seats
    moved = _moves_of(here, moves(page.round, [s.player_id for s in here if s.player_id]))
    return MovesMissed(before.number, moved) if moved else None


# Whether a table has late taps waiting, written once (bunco_night/core/compiled.py).
_LATE_PROBE = Compiled(
    lambda table: (
        Entry.objects.late_pending().filter(table_id=table).order_by().values_list("pk")[:1]
    ),
    ID_MARKERS[0],
)


def _late_taps(table: Table, waiting: bool | None = None) -> list[Entry]:
    """Late taps at ``table`` waiting for the host (docs/rules.md section 3.5). Nearly
    always none, which the probe says without the ORM building the query that reads them:
    about a millisecond less for every table phone's board. ``waiting``: whether there
    are any, when a write has just said so (no probe then)."""
    if waiting is False or (waiting is None and _LATE_PROBE.first_row(table.pk) is None):
        return []
    return list(Entry.objects.late_pending().filter(table=table).select_related("roller", "round"))


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

    @property
    def left_after(self) -> int | None:
        """The last round of a player who has left early (her night is over); else None."""
        if not self.attendance.has_left or self.night.is_over:
            return None
        return max((r.number for r in self.rows), default=None)

    @property
    def table_rang(self) -> bool:
        """The player's table rang the bell: the head table reached its target under
        head-table control (docs/rules.md section 3.1), and its round is over there, as
        its table phone says."""
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
    rnd = night.current_round
    now = moves(rnd).get(player.pk) if rnd and not rnd.is_closed else None
    if rnd and rnd.is_closed:
        nxt = next_round(night, rnd)
        if nxt:
            now, rnd = moves(nxt).get(player.pk), nxt
    bell = bool(rnd and rnd.is_playing and rnd.bell_rang)
    closed = [r for r in rows if r.won is not None]
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
    )


@dataclass
class LiveBoard:
    night: Night
    version: str
    round: Round | None
    board: RoundBoard | None
    next_round: Round | None
    rounds_total: int
    standings: NightStandings
    late: list[Entry]
    clock: int | None = None

    @property
    def late_rows(self) -> list[tuple[Entry, str]]:
        """Late entries waiting for the host, each with what it scored in words."""
        rules = self.night.rules_obj
        return [(e, e.describe(rules)) for e in self.late]

    @property
    def tables(self) -> list[TableRound]:
        return self.board.tables if self.board else []

    @property
    def bell(self) -> bool:
        return bool(self.board and self.round.is_playing and self.board.bell)

    @property
    def standings_shown(self) -> list:
        """The standings' rows the board lists: the first ``LIVE_STANDINGS_ROWS`` (it says
        how many more there are, ``standings_more``, and that Prize standings has them)."""
        return self.standings.rows[:LIVE_STANDINGS_ROWS]

    @property
    def standings_more(self) -> int:
        return len(self.standings.standings) - len(self.standings_shown)


# Four full tables' players: a bigger night's live board lists the first ones and says
# how many more are on Prize standings.
LIVE_STANDINGS_ROWS = 16


def live_board(night: Night) -> LiveBoard:
    """The host's board: every table's score and state, and the night's headline facts."""
    rnd = night.current_round
    nxt = None
    if rnd and rnd.is_closed:
        nxt = next_round(night, rnd)
    elif rnd and rnd.is_pending:
        nxt = rnd
    return LiveBoard(
        night=night,
        version=f"{night.version}.{night.scores_version}",
        round=rnd,
        board=round_board(rnd) if rnd else None,
        next_round=nxt,
        rounds_total=night.total_rounds,
        standings=night_standings(night),
        late=_late_entries(night),
        clock=round_seconds_left(rnd, night.rules_obj) if rnd else None,
    )


@dataclass
class BoardUpdate:
    """What changed on the host's screens (the live board, the room screen) since the
    scores version they show, while a round is played: the tables that changed, the bell,
    the late entries and the buncos. The standings change only when a round closes, which
    moves the night's version and re-renders the screens whole. ``board`` has the room's
    bell and whether every table is done, and the changed tables not in ``kept``: those
    come as their kept drawings (``board_update``)."""

    night: Night
    version: str
    round: Round
    board: RoundBoard
    tables: list[TableRound]
    standings: BuncoFacts
    late: list[Entry]
    kept: list[str] = field(default_factory=list)  # the other changed tables, as kept

    @property
    def bell(self) -> bool:
        return self.board.bell

    @property
    def clock(self) -> int | None:
        """Seconds left in a timed round (docs/rules.md section 3.8), for the bell's words."""
        return round_seconds_left(self.round, self.night.rules_obj)

    @property
    def late_rows(self) -> list[tuple[Entry, str]]:
        rules = self.night.rules_obj
        return [(e, e.describe(rules)) for e in self.late]


def board_update(night: Night, since: str, screen: str) -> BoardUpdate | None:
    """The update for ``screen`` ("live" or "room") showing version ``since``
    ("night.scores"), or None when it must be re-rendered whole (the night's version moved,
    or no round is in play).

    A changed table whose drawing for ``screen`` is kept at its current version, with the
    room's bell as it is now, is sent as kept (``boards.kept_screens``); only the others
    are read and drawn."""
    shown, _, scores = since.partition(".")
    rnd = night.current_round
    if shown != str(night.version) or not scores.isdecimal() or len(scores) > 12:
        return None
    if rnd is None or not rnd.is_playing:
        return None
    changed = dict(night.tables.filter(scores_mark__gt=int(scores)).values_list("pk", "version"))
    kept = kept_screens(screen, night.version, changed)
    board = round_board(rnd, only=changed, kept={pk: bell for pk, (bell, _) in kept.items()})
    return BoardUpdate(
        night=night,
        version=f"{night.version}.{night.scores_version}",
        round=rnd,
        board=board,
        tables=board.tables,
        standings=bunco_facts(night),
        late=_late_entries(night),
        kept=[kept[pk][1] for pk in board.kept],
    )


def _late_entries(night: Night) -> list[Entry]:
    return list(
        Entry.objects.late_pending()
        .filter(round__night=night)
        .select_related("roller", "round", "table")
        .order_by("round__number", "table__number", "created")
    )

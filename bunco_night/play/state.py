"""Where a round stands, read from the database: each table's entries, scores and outcome.
``round_board`` reads the whole room; ``table_round`` one table, with the bell as the round row
keeps it (the writes keep it in step with the rules). Nothing here writes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from bunco_night.core.speed.compiled import ID_MARKERS, Compiled
from bunco_night.groups.models import Player
from bunco_night.nights.models import Round, Seat, Table
from bunco_night.nights.selectors import TABLE_SEATS, SeatedTable, seated_from, seated_tables
from bunco_night.rules.presets import EVERY_TABLE, HEAD_TABLE, Rules
from bunco_night.rules.rounds import Entry as RuleEntry
from bunco_night.rules.rounds import (
    TableOutcome,
    TableState,
    bell_reason,
    room_bell,
    room_over,
    seconds_left,
    table_game,
    table_outcome,
)
from bunco_night.rules.scoring import BUNCO, MISS

from .models import Entry, TablePlay
from .speed.boards import kept_states


def rule_entries(entries: Iterable[Entry]) -> list[RuleEntry]:
    """Stored entries as the engine reads them."""
    return [RuleEntry(e.seat, e.points, e.kind, e.reset, e.extra_pass) for e in entries]


# The clock of a timed round (docs/rules.md section 3.8): the server's, never the page's.


def round_deadline(rnd: Round, rules: Rules) -> dt.datetime | None:
    """When a timed round's time is up; None untimed or not started."""
    if not rules.is_timed or rnd.started_at is None:
        return None
    return rnd.started_at + dt.timedelta(minutes=rules.round_minutes)


def round_seconds_left(rnd: Round, rules: Rules, now: dt.datetime | None = None) -> int | None:
    """Whole seconds left (0 once up); None with no clock or not in play."""
    if not rnd.is_playing or rnd.started_at is None or not rules.is_timed:
        return None
    elapsed = ((now or timezone.now()) - rnd.started_at).total_seconds()
    left = seconds_left(rules, elapsed)
    return None if left is None else int(-(-left // 1))


def round_time_up(rnd: Round, rules: Rules, now: dt.datetime | None = None) -> bool:
    """The time ran out while in play (section 3.8): by now, or by its closing."""
    deadline = round_deadline(rnd, rules)
    if deadline is None:
        return False
    return (rnd.closed_at or now or timezone.now()) >= deadline


@dataclass(frozen=True)
class TableRound:
    """A table in a round: seats, entries, Done and tie-breaks, and its ``outcome``. ``entries``
    are the counting entries in order, ``rolls`` the same as the rules engine reads them; None
    for the host's screens."""

    seated: SeatedTable
    play: TablePlay
    entries: list[Entry] | None
    state: TableState
    outcome: TableOutcome
    bell: bool
    rolls: list[RuleEntry] | None = None

    @property
    def table(self) -> Table:
        return self.seated.table

    @property
    def seats(self) -> list[Seat]:
        return self.seated.seats

    @property
    def teams(self) -> bool:
        return self.seated.teams

    @property
    def target(self) -> int:
        return self.seated.target

    @property
    def size(self) -> int:
        return self.seated.size

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score: two teams, or one per player."""
        return self.state.scores

    def side_names(self) -> list[str]:
        return self.seated.side_names()

    @property
    def sides(self) -> list[tuple[int, str, int]]:
        """(side, names, score) for each side."""
        return list(zip(range(len(self.scores)), self.side_names(), self.scores, strict=True))

    @property
    def winner_side(self) -> int | None:
        """The host's override, else the engine's winner."""
        if self.play.winner_side is not None:
            return self.play.winner_side
        return self.outcome.winner_side

    @property
    def finished(self) -> bool:
        """The table's round is over: it has a winner, or it pressed Done."""
        return self.winner_side is not None or self.play.finished_turn

    @property
    def latest_extra_pass(self) -> int:
        """The pass of the latest extra turn (docs/rules.md section 3.4); 0 if none."""
        return max((e.extra_pass for e in self.entries or ()), default=0)

    def may_undo(self, entry: Entry) -> bool:
        """Whether the table itself may undo ``entry`` (docs/rules.md section 6.2)."""
        if entry.is_late:
            return False
        if self.outcome.in_extra_turns:
            return entry.extra_pass == self.outcome.extra_passes + 1
        return not self.play.finished_turn

    @property
    def may_take_back_done(self) -> bool:
        """The table may take back its Done (docs/rules.md section 6.2)."""
        return self.play.finished_turn and not self.play.extra_passes and not self.latest_extra_pass

    @property
    def may_take_back_extra_turns_done(self) -> bool:
        """The table may take back its last "Extra turns done" (docs/rules.md 6.2)."""
        passes = self.play.extra_passes
        return passes > 0 and self.latest_extra_pass <= passes


def _table_state(seated: SeatedTable, play: TablePlay, rolls: list[RuleEntry]) -> TableState:
    return TableState.from_entries(
        number=seated.table.number,
        size=seated.size,
        teams=seated.teams,
        target=seated.target,
        entries=rolls,
        finished_turn=play.finished_turn,
        tiebreak_winner=play.tiebreak_side,
        extra_passes=play.extra_passes,
    )


def _card_outcome(number: int, play: TablePlay) -> TableOutcome:
    """The card party (docs/rules.md section 9.1): done when the host enters the winner."""
    done = play.winner_side is not None
    return TableOutcome(number, done, done, frozenset(), play.winner_side, False)


# One table's play and counting entries in a round (bunco_night/core/speed/compiled.py).
_TABLE_PLAY = Compiled(
    lambda rnd, table: TablePlay.objects.filter(round_id=rnd, table_id=table).order_by()[:1],
    *ID_MARKERS[:2],
)
_TABLE_ENTRIES = Compiled(
    lambda rnd, table: Entry.objects.counting().filter(round_id=rnd, table_id=table),
    *ID_MARKERS[:2],
)


def _with_rollers(entries: list[Entry], seated: SeatedTable) -> None:
    """Give each entry its roller from the players seated at the table (no join); a
    roller seated elsewhere since (an admin edit) is read, all such in one query."""
    people = {s.player_id: s.player for s in seated.seats if s.player_id}
    missing = {e.roller_id for e in entries if e.roller_id and e.roller_id not in people}
    if missing:
        people.update(Player.objects.in_bulk(missing))
    roller = Entry._meta.get_field("roller")
    for e in entries:
        if e.roller_id is None or e.roller_id in people:  # else as Django reads it
            roller.set_cached_value(e, people.get(e.roller_id))


def _load_room(rnd: Round) -> list[tuple[SeatedTable, TablePlay, list[Entry]]]:
    """The round's seated tables with their plays and counting entries."""
    plays = {p.table_id: p for p in rnd.table_plays.all()}
    by_table: dict[int, list[Entry]] = {}
    for e in rnd.entries.counting().select_related("roller"):
        by_table.setdefault(e.table_id, []).append(e)
    return [
        (
            st,
            plays.get(st.table.pk) or TablePlay(round=rnd, table=st.table),
            by_table.get(st.table.pk, []),
        )
        for st in seated_tables(rnd)
    ]


@dataclass(frozen=True)
class RoundBoard:
    """A round with every table (or the tables asked for) and where the room stands."""

    round: Round
    tables: list[TableRound]
    bell: bool
    over: bool
    kept: frozenset[int] = frozenset()  # left out: their kept drawings are current

    def table(self, table_id: int) -> TableRound | None:
        """The table with primary key ``table_id``, if it plays this round."""
        return next((t for t in self.tables if t.table.pk == table_id), None)


def round_board(rnd: Round) -> RoundBoard:
    """Every table of ``rnd`` and the room's status by the rules (docs/rules.md section 3)."""
    loaded = _load_room(rnd)
    rolls = [rule_entries(entries) for _, _, entries in loaded]
    states = [_table_state(st, play, r) for (st, play, _), r in zip(loaded, rolls, strict=True)]
    plays = [play for _, play, _ in loaded]
    bell, outcomes, over = _room(rnd, rnd.night.rules_obj, states, plays)
    tables = [
        TableRound(st, play, entries, state, outcome, bell, r)
        for (st, play, entries), state, outcome, r in zip(
            loaded, states, outcomes, rolls, strict=True
        )
    ]
    return RoundBoard(rnd, tables, bell, over)


def screen_board(
    rnd: Round, only: Collection[int], kept: Mapping[int, bool] | None = None
) -> RoundBoard:
    """``round_board`` for a host's screen that draws again only the table ids ``only``: the
    room's status from every table read lightly, the tables without their entries. ``kept``:
    tables whose screen drawing is kept, with the bell it was drawn with; those with the
    current bell are left out (the board's ``kept``)."""
    rules = rnd.night.rules_obj
    ids, plays, states = _light_tables(rnd, rules)
    bell, outcomes, over = _room(rnd, rules, states, plays)
    current = frozenset(pk for pk, drawn_with in (kept or {}).items() if drawn_with == bell)
    seated = {st.table.pk: st for st in seated_tables(rnd, only=set(only) - current)}
    tables = [
        TableRound(seated[table_id], plays[i], None, states[i], outcomes[i], bell)
        for i, table_id in enumerate(ids)
        if table_id in seated
    ]
    return RoundBoard(rnd, tables, bell, over, current)


def _room(
    rnd: Round, rules: Rules, states: list[TableState], plays: list[TablePlay]
) -> tuple[bool, list[TableOutcome], bool]:
    """The room's bell, each table's outcome, and whether every table is done and has a winner
    (the host's choice, else the rules'), from every table's state and play."""
    if rules.is_card_game or not states:
        bell = False
        outcomes = [_card_outcome(t.number, p) for t, p in zip(states, plays, strict=True)]
    else:
        time_up = round_time_up(rnd, rules)
        bell = room_bell(rules, states, bell_rung=rnd.bell_by_host, time_up=time_up)
        outcomes = [table_outcome(rules, state, bell=bell) for state in states]
    return bell, outcomes, room_over(outcomes, [p.winner_side for p in plays])


def _light_tables(rnd: Round, rules: Rules) -> tuple[list[int], list[TablePlay], list[TableState]]:
    """Every seated table's id, play and state, head table first, read lightly: seats
    counted, and states from kept boards (``boards.kept_states``) or scoring columns."""
    seats: dict[int, list] = {}  # table id -> [number, seats, round tables]
    for table_id, number, round_tables in rnd.seats.values_list(
        "table_id", "table__number", "round_tables"
    ).order_by("table__number"):
        seats.setdefault(table_id, [number, 0, round_tables])[1] += 1
    plays = {p.table_id: p for p in rnd.table_plays.all()}
    # Kept while the night is at the version it was read at with ``rnd``: of this round.
    kept = kept_states(rnd.night_id, rnd.night.version, seats.keys())
    entries: dict[int, list[RuleEntry]] = {}
    if len(kept) < len(seats):
        counting = rnd.entries.counting()
        if len(kept) > len(seats) // 2:  # else read them all, rather than name most tables
            counting = counting.filter(table_id__in=[t for t in seats if t not in kept])
        entries = _scoring_entries(counting, "table_id", fold=True)
    ids, table_plays, states = [], [], []
    for table_id, (number, size, round_tables) in seats.items():
        play = plays.get(table_id) or TablePlay(round=rnd, table_id=table_id)
        ids.append(table_id)
        table_plays.append(play)
        states.append(
            kept.get(table_id)
            or _counted_state(rules, number, size, round_tables, entries.get(table_id, []), play)
        )
    return ids, table_plays, states


# What ``rules.rounds.changes_no_score`` says of an entry, as a query says it.
_NO_SCORE = Q(points=0, reset=False) & ~Q(kind=BUNCO)


def _scoring_entries(entries, key: str, *, fold: bool = False) -> dict[int, list[RuleEntry]]:
    """{table ``key`` (id or number): its rule entries} from the scoring columns only. ``fold``
    reads the entries that change no score as one per table, seat and pass (a second query; for
    the host's screens, which read every entry at each poll)."""
    by_table: dict[int, list[RuleEntry]] = {}
    scoring = entries.exclude(_NO_SCORE) if fold else entries
    for table, *values in scoring.values_list(key, "seat", "points", "kind", "reset", "extra_pass"):
        by_table.setdefault(table, []).append(RuleEntry(*values))
    if fold:
        others = entries.filter(_NO_SCORE).order_by().distinct()
        for table, seat, extra_pass in others.values_list(key, "seat", "extra_pass"):
            by_table.setdefault(table, []).append(RuleEntry(seat, 0, MISS, extra_pass=extra_pass))
    return by_table


def _counted_state(
    rules: Rules,
    number: int,
    size: int,
    tables: int,
    entries: list[RuleEntry],
    play: TablePlay | None = None,
) -> TableState:
    """A table's state from its seat count, entries and, if given, its play; without it, with
    the passes of extra turns finished as the entries show them (for the bell, which reads
    no pass's scores: docs/rules.md section 3.4)."""
    game = table_game(rules, seats=size, tables=tables)
    if play is None:
        done = {"extra_passes": max(0, max((e.extra_pass for e in entries), default=0) - 1)}
    else:
        done = {
            "finished_turn": play.finished_turn,
            "tiebreak_winner": play.tiebreak_side,
            "extra_passes": play.extra_passes,
        }
    return TableState.from_entries(
        number=number,
        size=size,
        teams=game.teams,
        target=game.target,
        entries=entries,
        **done,
    )


def table_round(rnd: Round, table: Table, play: TablePlay | None = None) -> TableRound | None:
    """``table`` in ``rnd`` with the bell the round row keeps; None with no seats there.
    ``play``: the table's play, if the caller has read it."""
    seats = TABLE_SEATS.instances(rnd.pk, table.pk)
    if not seats:
        return None
    if play is None:
        play = _TABLE_PLAY.instance(rnd.pk, table.pk) or TablePlay(round=rnd, table=table)
    return table_round_from(rnd, table, play, seats, _TABLE_ENTRIES.instances(rnd.pk, table.pk))


def table_round_from(
    rnd: Round, table: Table, play: TablePlay, seats: list[Seat], entries: list[Entry]
) -> TableRound:
    """``table`` in ``rnd`` from the rows the caller read: its play, its seats in order (at
    least one) and its counting entries in order; with the bell ``rnd`` keeps."""
    seated = seated_from(rnd, table, seats)
    _with_rollers(entries, seated)
    for e in entries:
        e.round = rnd
    return table_round_of(rnd, seated, play, entries)


def table_round_of(
    rnd: Round,
    seated: SeatedTable,
    play: TablePlay,
    entries: list[Entry],
    *,
    bell_moves: bool = False,
) -> TableRound:
    """A table in ``rnd`` from what the caller has read, with the bell ``rnd`` keeps; or, when
    the ``bell_moves`` (a change at this table stored), the one the rules ring now."""
    rolls = rule_entries(entries)
    state = _table_state(seated, play, rolls)
    rules = rnd.night.rules_obj
    if rules.is_card_game:
        outcome = _card_outcome(seated.table.number, play)
        return TableRound(seated, play, entries, state, outcome, False, rolls)
    bell = engine_bell(rnd, rules, state) if bell_moves else rnd.bell_rang
    return TableRound(
        seated, play, entries, state, table_outcome(rules, state, bell=bell), bell, rolls
    )


def _light_states(rnd: Round, rules: Rules, *, head_only: bool) -> list[TableState]:
    """Each table's state (or the head table's) from two small queries."""
    sizes = dict(
        rnd.seats.values_list("table__number").annotate(n=Count("id")).order_by("table__number")
    )
    entries = rnd.entries.counting()
    if head_only:
        entries = entries.filter(table__number=1)
    by_table = _scoring_entries(entries, "table__number")
    return [
        _counted_state(rules, number, size, len(sizes), by_table.get(number, []))
        for number, size in sizes.items()
        if not head_only or number == 1
    ]


def engine_bell(rnd: Round, rules: Rules, held: TableState | None = None) -> bool:
    """Whether the rules ring the bell now (docs/rules.md sections 3.1-3.9, 9.2), reading
    only what decides it. ``held``: a table's state, if the caller has it (the head table's
    decides under head-table rules)."""
    if round_time_up(rnd, rules):
        return True
    if rules.round_end == EVERY_TABLE:
        return rules.bunco_ends_round and rnd.entries.counting().filter(kind=BUNCO).exists()
    if rules.round_end == HEAD_TABLE and held is not None and held.number == 1:
        states = [held]
    else:
        states = _light_states(rnd, rules, head_only=rules.round_end == HEAD_TABLE)
    return bool(states) and bell_reason(rules, states) is not None

"""Playing a night: entries from table phones, the bell, closing a round, moving, standings.

Every write is one transaction that locks the rows serialising the change (the
``Round``, then the table's ``TablePlay`` for entries; the ``Round`` for closing) and is
safe to retry: an entry's client ``nonce`` is unique, so a repeated submit is a no-op
(STYLE.md habit 4). The rules engine decides scores, round end and movement.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.core.text import is_nonce
from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Round, Seat, Table
from bunco_night.nights.services import (
    dues_summary,
    night_touch,
    round_mark,
    seat_name,
    seats_save,
    total_rounds,
)
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plays_teams, table_target
from bunco_night.rules.movement import next_seating, partner_seat
from bunco_night.rules.presets import HEAD_TABLE, MARK_CODE_MAX_LENGTH
from bunco_night.rules.rounds import Entry as RuleEntry
from bunco_night.rules.rounds import (
    RoundStatus,
    TableOutcome,
    TableState,
    round_status,
    side_seats,
    table_outcome,
)
from bunco_night.rules.scoring import BUNCO, MINI_KINDS, POINTS, score_roll, score_tap
from bunco_night.rules.standings import (
    PRIZE_LABELS,
    BuncoRoll,
    PlayerRound,
    PrizeCategory,
    PrizeResult,
    Standing,
    prize_standings,
    rank_standings,
    split_pot,
    tally,
)

from .models import Entry, PrizeTiebreak, TablePlay

MARK = "mark"
DICE = "dice"


# ---------------------------------------------------------------------------
# Reading a round's state


@dataclass
class TableView:
    """A table in a round, as the pages and the engine need it."""

    table: Table
    play: TablePlay
    seats: list[Seat]
    entries: list[Entry]
    teams: bool
    target: int

    @property
    def size(self) -> int:
        return len(self.seats)

    @cached_property
    def rule_entries(self) -> list[RuleEntry]:
        return [RuleEntry(e.seat, e.points, e.kind, e.reset) for e in self.entries]

    def state(self) -> TableState:
        """The engine's view of this table."""
        return TableState.from_entries(
            number=self.table.number,
            size=self.size,
            teams=self.teams,
            target=self.target,
            entries=self.rule_entries,
            finished_turn=self.play.finished_turn,
            tiebreak_winner=self.play.tiebreak_side,
        )

    @cached_property
    def scores(self) -> tuple[int, ...]:
        """Each side's score: two teams, or one per player."""
        return self.state().scores

    def side_names(self) -> list[str]:
        """Names of each side: "Ann & Cat" for a team, the player otherwise."""
        names = [seat_name(s) for s in self.seats]
        if self.teams:
            return [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
        return names

    @property
    def sides(self) -> list[tuple[int, str, int]]:
        """(side, names, score) for each side."""
        return list(zip(range(len(self.scores)), self.side_names(), self.scores, strict=True))


def roller_for(seats: list[Seat], seat: int) -> Player | None:
    """Who rolls for ``seat``: its player, or a ghost's partner (RULES.md section 5)."""
    occupant = seats[seat - 1]
    if occupant.player_id is None and len(seats) == 4:
        return seats[partner_seat(seat) - 1].player
    return occupant.player


@dataclass
class RoundView:
    """A round of a night with every table and the engine's status."""

    round: Round
    tables: list[TableView]
    status: RoundStatus

    def table_view(self, table_id: int) -> TableView | None:
        for t in self.tables:
            if t.table.pk == table_id:
                return t
        return None

    def outcome(self, table_id: int):
        for t, o in zip(self.tables, self.status.tables, strict=True):
            if t.table.pk == table_id:
                return o
        return None

    def winner_side(self, view: TableView) -> int | None:
        """The host's override, else the engine's winner."""
        if view.play.winner_side is not None:
            return view.play.winner_side
        return self.outcome(view.table.pk).winner_side


def round_view(rnd: Round, *, table: Table | None = None) -> RoundView:
    """Load a round's tables, seats and live entries, and ask the engine where it stands.

    With ``table``, only that table is loaded (a phone's poll): the room's bell then
    comes from the round's stored bell, which ``_after_change`` keeps in step with the
    rules, and ``status.over`` is not known (False).
    """
    night = rnd.night
    rules = night.rules_obj
    seats_qs = rnd.seats.select_related("table", "player", "ghost_for__player")
    plays_qs, entries_qs = rnd.table_plays.all(), rnd.entries.filter(undone_at__isnull=True)
    if table is not None:
        seats_qs, plays_qs = seats_qs.filter(table=table), plays_qs.filter(table=table)
        entries_qs = entries_qs.filter(table=table)
    by_table: dict[int, list[Seat]] = {}
    for s in seats_qs.order_by("table__number", "number"):
        by_table.setdefault(s.table_id, []).append(s)
    plays = {p.table_id: p for p in plays_qs}
    entries: dict[int, list[Entry]] = {}
    for e in entries_qs.select_related("roller"):
        entries.setdefault(e.table_id, []).append(e)
    count = len(by_table) if table is None else _table_count(rnd)
    views = []
    for table_id, row in by_table.items():
        teams = plays_teams(rules, seats=len(row), tables=count)
        views.append(
            TableView(
                table=row[0].table,
                play=plays.get(table_id) or TablePlay(round=rnd, table=row[0].table),
                seats=row,
                entries=entries.get(table_id, []),
                teams=teams,
                target=table_target(rules, seats=len(row), teams=teams, tables=count),
            )
        )
    views.sort(key=lambda v: v.table.number)
    if rules.is_card_game or not views:
        status = _card_status(views)
    elif table is not None:
        bell = rnd.bell_by_host or rnd.bell_at is not None
        outcomes = tuple(table_outcome(rules, v.state(), bell=bell) for v in views)
        status = RoundStatus(bell=bell, over=False, tables=outcomes)
    else:
        status = round_status(rules, [v.state() for v in views], bell_rung=rnd.bell_by_host)
    return RoundView(rnd, views, status)


def _table_count(rnd: Round) -> int:
    """How many tables a round seats."""
    return rnd.seats.values("table_id").distinct().count()


def _card_status(views: list[TableView]) -> RoundStatus:
    """The card game (seed 000): a table is done when its winner is entered by hand."""
    outcomes = tuple(
        TableOutcome(
            v.table.number,
            v.play.winner_side is not None,
            v.play.winner_side is not None,
            frozenset(),
            v.play.winner_side,
            False,
        )
        for v in views
    )
    return RoundStatus(
        bell=False, over=bool(views) and all(o.done for o in outcomes), tables=outcomes
    )


def current_round(night: Night) -> Round | None:
    """The round being played, else the next one seated, else the last one closed."""
    rounds = night.rounds.order_by("number")
    return (
        rounds.filter(status=Round.PLAYING).first()
        or rounds.filter(status=Round.PENDING, seats__isnull=False).first()
        or rounds.filter(status=Round.CLOSED).last()
    )


# ---------------------------------------------------------------------------
# Starting a round, entering scores


@transaction.atomic
def round_start(*, night: Night) -> Round:
    """Start the next seated round: phones can enter scores."""
    night = Night.objects.select_for_update().get(pk=night.pk)
    if night.status == Night.FINISHED:
        raise ServiceError("This night is over.", "night_over")
    if night.rounds.filter(status=Round.PLAYING).exists():
        raise ServiceError("A round is already being played.", "round_in_play")
    rnd = night.rounds.filter(status=Round.PENDING).order_by("number").first()
    if rnd is None or not rnd.seats.exists():
        raise ServiceError("Draw the seating first.", "no_seating")
    if rnd.number > total_rounds(night):
        raise ServiceError("Every round of the night has been played.", "night_complete")
    rnd.status, rnd.started_at = Round.PLAYING, timezone.now()
    rnd.save(update_fields=["status", "started_at"])
    tables = {s.table for s in rnd.seats.select_related("table")}
    TablePlay.objects.bulk_create(
        [TablePlay(round=rnd, table=t) for t in tables], ignore_conflicts=True
    )
    if night.status != Night.PLAYING:
        night.status = Night.PLAYING
        night.save(update_fields=["status"])
    night_touch(night)
    return rnd


def _playing_round(table: Table) -> Round:
    rnd = table.night.rounds.filter(status=Round.PLAYING).first()
    if rnd is None:
        if table.night.status == Night.FINISHED:
            raise ServiceError("This night is over: scores are closed.", "night_over")
        raise ServiceError("No round is being played right now.", "no_round")
    return rnd


def _lock_play(rnd: Round, table: Table) -> TablePlay:
    """Lock the round's row, then the table's play, and refresh ``rnd`` from the locked row.

    Every write at a table and ``round_close`` lock the Round row first, so they queue
    in one order. Without it a tap and a close deadlocked on PostgreSQL: the tap held
    its TablePlay, Table and Night rows and met the close's Round lock at commit (where
    PostgreSQL checks the entry's foreign key), while the close waited for the Night
    row. A tap that waited for a close then sees the round closed and is refused.
    ``no_key`` is the weakest exclusive row lock: rows that point at the round can
    still be inserted meanwhile.
    """
    rnd.refresh_from_db(
        fields=["status", "bell_at", "bell_by_host"],
        from_queryset=Round.objects.select_for_update(no_key=True),
    )
    play = TablePlay.objects.select_for_update().filter(round=rnd, table=table).first()
    if play is None:
        raise ServiceError("This table has no seats in this round.", "not_in_round")
    return play


def _engine_bell(rnd: Round) -> bool:
    """Whether the rules ring the bell now, reading only what decides it (cheap per tap)."""
    rules = rnd.night.rules_obj
    if rules.round_end == HEAD_TABLE:
        seats = rnd.seats.filter(table__number=1).count()
        tables = _table_count(rnd)
        teams = plays_teams(rules, seats=seats, tables=tables)
        head = TableState.from_entries(
            number=1,
            size=seats,
            teams=teams,
            target=table_target(rules, seats=seats, teams=teams, tables=tables),
            entries=[
                RuleEntry(e.seat, e.points, e.kind, e.reset)
                for e in rnd.entries.filter(table__number=1, undone_at__isnull=True)
            ],
        )
        return head.reached_target
    return (
        rules.bunco_ends_round and rnd.entries.filter(kind=BUNCO, undone_at__isnull=True).exists()
    )


def _after_change(rnd: Round, table: Table | None = None) -> None:
    """Ring (or, after an undo, un-ring) the bell as the rules say; tell the polling pages.

    A change at one table bumps that table's version and the night's score version
    (the host's board), so the other phones' polls stay unchanged; a change to the
    bell bumps the night's version, which every page polls. With head-table control
    only the head table's entries can ring the bell, so taps elsewhere skip the check.
    """
    rules = rnd.night.rules_obj
    head_rules = rules.round_end == HEAD_TABLE
    bell_changed = False
    if (
        not rules.is_card_game
        and not rnd.bell_by_host
        and (table is None or not head_rules or table.number == 1)
    ):
        bell = _engine_bell(rnd)
        if bell and rnd.bell_at is None:
            bell_changed = bool(
                Round.objects.filter(pk=rnd.pk, bell_at__isnull=True).update(bell_at=timezone.now())
            )
        elif not bell and rnd.bell_at is not None:
            bell_changed = bool(Round.objects.filter(pk=rnd.pk).update(bell_at=None))
    if table is not None:
        Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
        Night.objects.filter(pk=rnd.night_id).update(scores_version=F("scores_version") + 1)
    if table is None or bell_changed:
        night_touch(rnd.night)


def _settle(rnd: Round, table: Table) -> None:
    """After a change at ``table``: a closed round's results follow (a host's correction),
    a round in play rings the bell if it must and tells the polling pages."""
    if rnd.status == Round.CLOSED:
        results_recompute(rnd=rnd)
    else:
        _after_change(rnd, table)


@transaction.atomic
def entry_record(
    *,
    table: Table,
    nonce: str,
    seat: int,
    kind: str,
    count: int = 0,
    mark_code: str = "",
    dice: list[int] | None = None,
    by_host: bool = False,
    rnd: Round | None = None,
) -> Entry:
    """Store one tap from a table phone (or a host's correction), exactly once per nonce.

    ``kind`` is points (with ``count`` 1-3: 3 is a bunco), bunco, mini/low/high, miss,
    mark (a group-defined mark, ``mark_code``), or dice (three ``dice`` the engine
    scores). Only the round in play takes entries from phones; the host may correct
    a closed round with ``rnd``.
    """
    if not is_nonce(nonce):
        raise ServiceError("This entry has no valid id: reload the page.", "bad_nonce")
    existing = Entry.objects.filter(nonce=nonce).first()
    if existing is not None:
        if existing.table_id != table.pk:
            raise ServiceError("This entry id belongs to another table.", "forged_nonce")
        return existing
    if rnd is None:
        rnd = _playing_round(table)
    elif not by_host:
        raise ServiceError("Only the host can correct another round.", "not_host")
    elif rnd.night_id != table.night_id:
        raise ServiceError("That round is not this table's night.", "other_night")
    play = _lock_play(rnd, table)
    if rnd.status != Round.PLAYING and not by_host:
        raise ServiceError("That round is over: ask the host to correct it.", "round_closed")
    seats = list(rnd.seats.filter(table=table).select_related("player").order_by("number"))
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= len(seats):
        raise ServiceError("That seat is not at this table.", "bad_seat")
    rules = rnd.night.rules_obj
    if rules.is_card_game:
        raise ServiceError("In the card game the host enters each table's winner.", "card_game")
    if not by_host and play.finished_turn:
        raise ServiceError("This table pressed Done: ask the host to correct it.", "table_done")
    reset = False
    try:
        if kind == MARK:
            group_mark = rules.group_mark(mark_code)
            if len(mark_code) > MARK_CODE_MAX_LENGTH:  # saved before rules refused such codes
                raise ServiceError("This mark's code is too long to record.", "mark_code_too_long")
            points, reset, count = group_mark.points, group_mark.effect == "reset_round_score", 0
        elif kind == DICE:
            mark_code = ""
            scored = score_roll(dice or [], rnd.mark, rules)
            points, kind = scored.points, scored.kind
            count = scored.points if kind == POINTS else 0
        else:
            mark_code = ""
            scored = score_tap(kind, rules, count if kind == POINTS else 0)
            points, kind = scored.points, scored.kind
            count = count if kind == POINTS else 0
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                round=rnd,
                table=table,
                seat=seat,
                roller=roller_for(seats, seat),
                kind=kind,
                count=count,
                mark_code=mark_code,
                points=points,
                reset=reset,
                nonce=nonce,
                by_host=by_host,
            )
    except IntegrityError:
        # The same nonce arrived twice at once: the other request stored it.
        return Entry.objects.get(nonce=nonce)
    _settle(rnd, table)
    return entry


@transaction.atomic
def entry_undo(*, table: Table, entry_id: int, by_host: bool = False) -> Entry:
    """Undo an entry (kept, marked undone); undoing twice is a no-op."""
    entry = Entry.objects.filter(pk=entry_id, table=table).select_related("round").first()
    if entry is None:
        raise ServiceError("That entry is not at this table.", "unknown_entry")
    rnd = entry.round
    play = _lock_play(rnd, table)
    if not by_host and (rnd.status != Round.PLAYING or play.finished_turn):
        raise ServiceError("That round is over here: ask the host to correct it.", "round_closed")
    if entry.undone_at is None:
        entry.undone_at = timezone.now()
        entry.save(update_fields=["undone_at"])
        _settle(rnd, table)
    return entry


@transaction.atomic
def table_done(*, table: Table, done: bool = True) -> TablePlay:
    """The table finished the turn in play after the bell (RULES.md section 3)."""
    rnd = _playing_round(table)
    play = _lock_play(rnd, table)
    if rnd.status != Round.PLAYING:  # closed while this waited for the lock
        raise ServiceError("That round is over: ask the host to correct it.", "round_closed")
    view = round_view(rnd, table=table)
    if done:
        if not view.status.bell:
            raise ServiceError("Keep rolling: the bell has not rung.", "no_bell")
        outcome = view.outcome(table.pk)
        if outcome.waiting_for:
            who = ", ".join(
                seat_name(view.table_view(table.pk).seats[s - 1])
                for s in sorted(outcome.waiting_for)
            )
            raise ServiceError(
                f"Everyone rolls at least once: {who} still to roll.", "everyone_rolls_once"
            )
    play.finished_turn = done
    play.save(update_fields=["finished_turn"])
    _after_change(rnd, table)
    return play


@transaction.atomic
def tiebreak_record(
    *, table: Table, side: int, rnd: Round | None = None, by_host: bool = False
) -> TablePlay:
    """Record who won a tie-break (the roll-off, or the extra turns)."""
    rnd = rnd if (rnd is not None and by_host) else _playing_round(table)
    play = _lock_play(rnd, table)
    if rnd.status != Round.PLAYING and not by_host:  # closed while this waited for the lock
        raise ServiceError("That round is over: ask the host to correct it.", "round_closed")
    view = round_view(rnd)
    outcome = view.outcome(table.pk)
    tied = outcome.tied_sides if outcome else ()
    if side not in tied:
        raise ServiceError("Pick one of the tied sides.", "bad_tiebreak")
    play.tiebreak_side = side
    play.save(update_fields=["tiebreak_side"])
    _settle(rnd, table)
    return play


@transaction.atomic
def bell_ring(*, night: Night) -> Round:
    """The host rings the bell by hand: every table finishes the turn in play."""
    rnd = night.rounds.select_for_update().filter(status=Round.PLAYING).first()
    if rnd is None:
        raise ServiceError("No round is being played.", "no_round")
    rnd.bell_by_host = True
    rnd.bell_at = rnd.bell_at or timezone.now()
    rnd.save(update_fields=["bell_at", "bell_by_host"])
    night_touch(night)
    return rnd


@transaction.atomic
def winner_set(*, rnd: Round, table: Table, side: int | None) -> TablePlay:
    """The host sets (or clears, with None) a table's winner, overriding the scores."""
    play = _lock_play(rnd, table)
    view = round_view(rnd)
    tv = view.table_view(table.pk)
    sides = 2 if tv.teams else tv.size
    if side is not None and not 0 <= side < sides:
        raise ServiceError("Pick one of the table's sides.", "bad_winner")
    play.winner_side = side
    play.save(update_fields=["winner_side"])
    _settle(rnd, table)
    return play


# ---------------------------------------------------------------------------
# Closing a round and moving


def _seat_results(view: RoundView) -> None:
    """Write each seat's win or loss, buncos, mini buncos and marks from the entries."""
    for tv in view.tables:
        side = view.winner_side(tv)
        winners = set(side_seats(side, tv.size, tv.teams)) if side is not None else set()
        credit: dict[int, dict] = {}
        for e in tv.entries:
            if e.roller_id is None:
                continue
            c = credit.setdefault(e.roller_id, {"buncos": 0, "minis": 0, "marks": {}})
            if e.kind == BUNCO:
                c["buncos"] += 1
            elif e.kind in MINI_KINDS:
                c["minis"] += 1
            elif e.kind == MARK:
                c["marks"][e.mark_code] = c["marks"].get(e.mark_code, 0) + 1
        for s in tv.seats:
            c = credit.get(s.player_id, {"buncos": 0, "minis": 0, "marks": {}})
            s.won = s.number in winners if side is not None else None
            s.buncos, s.mini_buncos, s.marks = c["buncos"], c["minis"], c["marks"]
        Seat.objects.bulk_update(tv.seats, ["won", "buncos", "mini_buncos", "marks"])


def _occupant(seat: Seat):
    return seat.player_id if seat.player_id else ("ghost", seat.ghost_for_id, seat.pk)


def _seat_next_round(view: RoundView) -> Round | None:
    """Seat the next round by the engine's movement; None after the last round."""
    rnd = view.round
    night = rnd.night
    if rnd.number >= total_rounds(night):
        return None
    rules = night.rules_obj
    seating = tuple(tuple(_occupant(s) for s in tv.seats) for tv in view.tables)
    ghosts = {o for t in seating for o in t if isinstance(o, tuple)}
    winners = [side_seats(view.winner_side(tv), tv.size, tv.teams) for tv in view.tables]
    moved = next_seating(rules, seating, winners, ghosts)
    number = rnd.number + 1
    nxt, _ = Round.objects.get_or_create(
        night=night,
        number=number,
        defaults={"set_number": (number - 1) // rules.rounds_per_set + 1},
    )
    if nxt.status != Round.PENDING:
        return nxt
    if nxt.mark is None:
        nxt.mark = round_mark(night, number, random.Random(f"{night.seed}-{number}"))
        nxt.save(update_fields=["mark"])
    seats_save(nxt, [tv.table for tv in view.tables], moved)
    return nxt


@transaction.atomic
def round_close(*, rnd: Round) -> Round | None:
    """Close a round the rules say is over: record results and seat the next round.

    Returns the next round (seated, not started), or None when the night is over.
    """
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != Round.PLAYING:
        raise ServiceError("That round is not being played.", "round_not_playing")
    view = round_view(rnd)
    missing = [tv.table.number for tv in view.tables if view.winner_side(tv) is None]
    if missing:
        outcomes = {o.number: o for o in view.status.tables}
        ties = [n for n in missing if outcomes[n].needs_tiebreak]
        if ties:
            raise ServiceError(
                f"Table {', '.join(map(str, ties))}: record who won the tie-break.",
                "tie_needs_break",
            )
        raise ServiceError(
            f"Not every table is done: table {', '.join(map(str, missing))}.", "round_not_over"
        )
    rnd.status, rnd.closed_at = Round.CLOSED, timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    _seat_results(view)
    nxt = _seat_next_round(view)
    if nxt is None:
        night = rnd.night
        night.status = Night.FINISHED
        night.save(update_fields=["status"])
    night_touch(rnd.night)
    return nxt


@transaction.atomic
def results_recompute(*, rnd: Round) -> None:
    """After a host's correction to a closed round: results, and the next seating if unplayed."""
    view = round_view(rnd)
    if any(view.winner_side(tv) is None for tv in view.tables):
        raise ServiceError("After this change a table has no winner: set one.", "no_winner")
    _seat_results(view)
    nxt = rnd.night.rounds.filter(number=rnd.number + 1).first()
    if nxt is not None and nxt.status == Round.PENDING:
        _seat_next_round(view)
    night_touch(rnd.night)


@transaction.atomic
def night_finish(*, night: Night) -> Night:
    """End the night early (after the round in play is closed)."""
    if night.rounds.filter(status=Round.PLAYING).exists():
        raise ServiceError("Close the round being played first.", "round_in_play")
    night.rounds.filter(status=Round.PENDING).delete()
    night.status = Night.FINISHED
    night.save(update_fields=["status"])
    night_touch(night)
    return night


# ---------------------------------------------------------------------------
# Standings and prizes


@dataclass
class NightStandings:
    standings: list[Standing]
    prizes: list[PrizeResult]
    players: dict[int, Player]
    last_bunco: Entry | None
    buncos_rolled: int
    pot_cents: int
    rounds_closed: int
    payout_error: str = ""

    @property
    def rows(self) -> list[tuple[Standing, Player]]:
        """Ranked standings with each player; players who share a rank in name order."""
        rows = [(s, self.players[s.player]) for s in self.standings]
        return sorted(rows, key=lambda row: (row[0].rank, row[1].name.casefold()))

    @property
    def prize_rows(self) -> list[tuple[PrizeResult, list[Player], Player | None]]:
        """Each prize with its candidates and winner as players."""
        return [
            (
                p,
                [self.players[c] for c in p.candidates],
                self.players.get(p.winner) if p.winner is not None else None,
            )
            for p in self.prizes
        ]

    @property
    def fuzzy_die(self) -> Player | None:
        """The fuzzy die goes to whoever rolled the latest bunco (seed 001a)."""
        return self.last_bunco.roller if self.last_bunco else None


def night_standings(night: Night) -> NightStandings:
    """Standings from the closed rounds; prizes per the group's categories and the pot."""
    seats = Seat.objects.filter(
        round__night=night, round__status=Round.CLOSED, player__isnull=False, won__isnull=False
    ).select_related("player")
    players: dict[int, Player] = {}
    rows = []
    for s in seats:
        players[s.player_id] = s.player
        rows.append(PlayerRound(s.player_id, s.won, s.buncos, s.mini_buncos, s.marks or {}))
    ranked = rank_standings(tally(rows))
    buncos = list(
        Entry.objects.filter(
            round__night=night, kind=BUNCO, undone_at__isnull=True, roller__isnull=False
        )
        .exclude(round__status=Round.PENDING)
        .select_related("roller", "table", "round")
        .order_by("created", "id")
    )
    last = buncos[-1] if buncos else None
    pot = dues_summary(night).collected_cents
    categories = [p.as_category() for p in night.group.prizes.all()]
    payout_error = ""
    try:
        split_pot(pot, categories)
    except RuleError as error:
        # Less money collected than the fixed prizes need: show winners, no amounts yet.
        payout_error = error.message
        categories = [PrizeCategory(c.code, amount_cents=0) for c in categories]
    prizes = prize_standings(
        ranked,
        categories,
        pot_cents=pot,
        buncos=[BuncoRoll(e.roller_id, (e.created, e.pk)) for e in buncos],
        tiebreaks={t.code: t.player_id for t in night.tiebreaks.all()},
    )
    missing = {e.roller_id for e in buncos} - set(players)
    players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})
    closed = night.rounds.filter(status=Round.CLOSED).count()
    return NightStandings(ranked, prizes, players, last, len(buncos), pot, closed, payout_error)


@transaction.atomic
def prize_tiebreak_record(*, night: Night, code: str, player: Player | None) -> None:
    """Record (or clear) who won a tied prize."""
    if code not in PRIZE_LABELS:  # checked first: PostgreSQL cannot even compare a NUL
        raise ServiceError("Pick one of the prizes.", "bad_tiebreak")
    if player is None:
        PrizeTiebreak.objects.filter(night=night, code=code).delete()
    else:
        standings = night_standings(night)
        prize = next((p for p in standings.prizes if p.code == code), None)
        if prize is None or player.pk not in prize.candidates:
            raise ServiceError("Pick one of the tied players.", "bad_tiebreak")
        PrizeTiebreak.objects.update_or_create(night=night, code=code, defaults={"player": player})
    night_touch(night)

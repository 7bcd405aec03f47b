"""A tap from a table phone, or a host's entry: stored once per nonce."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import IntegrityError, connection
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.core.speed.compiled import (
    ID_MARKERS,
    Compiled,
    WriteBatch,
    prepared,
    write_transaction,
)
from bunco_night.core.text import is_nonce
from bunco_night.nights.models import Round, Seat, Table
from bunco_night.nights.selectors import (
    table_seats_and_round,
)
from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import HEAD_TABLE, MARK_CODE_MAX_LENGTH, RESET_ROUND_SCORE
from bunco_night.rules.rounds import doubles_before
from bunco_night.rules.scoring import PAIR, POINTS, score_roll, score_tap

from ..models import Entry, TablePlay
from ..state import (
    TableRound,
    rule_entries,
    table_round,
    table_round_of,
)
from .changes import (
    _NIGHT_MOVE_CTE,
    _TABLE_MOVE_AFTER_NIGHT,
    _may_move_bell,
    _settle,
    _touch_table,
)
from .corrections import Recomputed
from .locks import _PLAY_LOCKED, _lock_play, _not_started, _playing_round

DICE = "dice"


@dataclass(frozen=True)
class TapResult:
    """What ``entry_record`` did: the ``entry`` stored (now or by a retry's first try).
    ``table_after``: the table after the write while in play; ``late_waiting``: whether late taps
    wait for the host; ``recomputed``: a closed round's changes. Else None."""

    entry: Entry
    table_after: TableRound | None = None
    late_waiting: bool | None = None
    recomputed: Recomputed | None = None


MAX_ROUND_NUMBER = 32767  # a PositiveSmallIntegerField


_ROUND_LOCKED = Compiled(
    lambda night, number: (
        Round.objects.select_for_update(no_key=True)
        .filter(night_id=night, number=number)
        .order_by()[:1]
    ),
    ID_MARKERS[0],
    MAX_ROUND_NUMBER,  # a number marker must be one the field takes
)


_ENTRY_BY_NONCE = Compiled(lambda nonce: Entry.objects.filter(nonce=nonce)[:1], "NONCE")


# A tap alone at its table (``_tap_alone``): its play locked, the round joined, not locked.
_PLAY_BY_NUMBER = Compiled(
    lambda night, number, table: (
        TablePlay.objects.select_for_update(of=("self",))
        .filter(round__night_id=night, round__number=number, table_id=table)
        .order_by("pk")[:1]
    ),
    ID_MARKERS[0],
    MAX_ROUND_NUMBER,
    ID_MARKERS[1],
)


_ROUND_BY_ID = Compiled(lambda rnd: Round.objects.filter(pk=rnd).order_by()[:1], ID_MARKERS[0])


# After that lock, in the same round trip on PostgreSQL: the table's seats and entries.
_SEATS_BY_NUMBER = Compiled(
    lambda night, number, table: (
        Seat.objects.filter(round__night_id=night, round__number=number, table_id=table)
        .select_related("round", "player", "ghost_for__player")
        .order_by("number")
    ),
    ID_MARKERS[0],
    MAX_ROUND_NUMBER,
    ID_MARKERS[1],
)


_ENTRIES_BY_NUMBER = Compiled(
    lambda night, number, table: Entry.objects.counting().filter(
        round__night_id=night, round__number=number, table_id=table
    ),
    ID_MARKERS[0],
    MAX_ROUND_NUMBER,
    ID_MARKERS[1],
)


def _tap_alone(table: Table, by_host: bool) -> bool:
    """Whether a tap locks only its table's play, not the round: a phone's tap under
    head-table rules (docs/rules.md section 3.1), off the head table, in an untimed round.
    Why that is safe: docs/architecture.md, Design notes."""
    rules = table.night.rules_obj
    return (
        not by_host and table.number != 1 and rules.round_end == HEAD_TABLE and not rules.is_timed
    )


def _hold(
    table: Table, rnd: Round | None, round_number: int | None, by_host: bool, batch: WriteBatch
) -> tuple[Round, TablePlay, list[Seat] | None, list[Entry] | None]:
    """Lock the tap's round (``rnd``, ``round_number``, else in play) and the table's play. A tap
    alone at its table locks the play only and returns seats and entries read with it (in
    ``batch``); else those are None."""
    if rnd is not None:
        if not by_host:
            raise ServiceError("Only the host can correct another round.", "not_host")
        if rnd.night_id != table.night_id:
            raise ServiceError("That round is not this table's night.", "other_night")
        return rnd, _lock_play(rnd, table), None, None
    if not _tap_alone(table, by_host):
        rnd, locked = _round_for_tap(table, round_number)
        return rnd, _lock_play(rnd, table, locked=locked), None, None
    if round_number is None:
        play = _PLAY_LOCKED.first(_playing_round(table).pk, table.pk)
        if play is None:
            raise _no_play(table, round_number)
        rnd, seats = table_seats_and_round(play.round_id, table.pk)
        return _round_of_play(table, play, rnd), play, seats, None
    if not _is_round_number(round_number):
        raise _not_started()
    named = (table.night_id, round_number, table.pk)
    plays, seats, entries = batch.read(
        (_PLAY_BY_NUMBER, named), (_SEATS_BY_NUMBER, named), (_ENTRIES_BY_NUMBER, named)
    )
    if not plays:
        raise _no_play(table, round_number)
    rnd = _round_of_play(table, plays[0], seats[0].round if seats else None)
    return rnd, plays[0], seats, entries


def _no_play(table: Table, round_number: int | None) -> ServiceError:
    """The error for a tap whose round has no play for ``table``."""
    if round_number is not None:
        named = table.night.rounds.filter(number=round_number).first()
        if named is None or named.is_pending:
            return _not_started()
    return ServiceError("This table has no seats in this round.", "not_in_round")


def _round_of_play(table: Table, play: TablePlay, rnd: Round | None) -> Round:
    """The round of ``play``; refused if it has not started."""
    if rnd is None:
        rnd = _ROUND_BY_ID.first(play.round_id)
    if rnd.is_pending:
        raise _not_started()
    rnd.night = table.night
    return rnd


# An entry's row, inserted as the ORM would, in a statement written once (cheaper per tap).
_ENTRY_FIELDS = [f for f in Entry._meta.local_concrete_fields if not f.primary_key]


_ENTRY_INSERT = "INSERT INTO {} ({}) VALUES ({})".format(
    Entry._meta.db_table,
    ", ".join(f'"{f.column}"' for f in _ENTRY_FIELDS),
    ", ".join(["%s"] * len(_ENTRY_FIELDS)),
)


# On PostgreSQL the insert and _touch_table's updates are one statement; its EXISTS sees the
# table's entries without the new one.
_INSERT_AND_MOVE_SQL = (
    f"WITH entry AS ({_ENTRY_INSERT} RETURNING id), {_NIGHT_MOVE_CTE}, "
    f"moved AS ({_TABLE_MOVE_AFTER_NIGHT} AS waits) "
    "SELECT entry.id, (SELECT waits FROM moved) FROM entry"
)


def _entry_row(entry: Entry) -> list:
    """The values ``Model.save`` would insert for ``entry`` (``auto_now_add`` set)."""
    return [f.get_db_prep_save(f.pre_save(entry, True), connection) for f in _ENTRY_FIELDS]


def _stored(entry: Entry, pk: int) -> None:
    """``entry`` as ``entry.save()`` leaves a new one: with its id, no longer adding."""
    entry.pk = pk
    entry._state.adding, entry._state.db = False, connection.alias


def _insert(entry: Entry) -> None:
    """Store ``entry``, a new one, as ``entry.save()`` would, and give it its id."""
    with connection.cursor() as cursor:
        cursor.execute(f"{_ENTRY_INSERT} RETURNING id", _entry_row(entry))
        _stored(entry, cursor.fetchone()[0])


def _insert_and_touch(entry: Entry, rnd: Round, table: Table, batch: WriteBatch) -> bool | None:
    """``_insert`` then ``_touch_table`` (one statement on PostgreSQL); answers as the latter."""
    if connection.vendor != "postgresql":
        _insert(entry)
        return _touch_table(rnd, table)
    with connection.cursor() as cursor:
        params = [*_entry_row(entry), rnd.night_id, table.pk]
        sql, params = prepared(connection, _INSERT_AND_MOVE_SQL, params)
        cursor.execute(batch.last(sql), params)
        pk, waits = cursor.fetchone()
    _stored(entry, pk)
    table.version += 1
    return None if waits is None else bool(waits or entry.late_at is not None)


def _round_for_tap(table: Table, round_number: int | None) -> tuple[Round, bool]:
    """The round a phone's tap is for (the one it names, else in play), and whether it was
    read with the play's lock."""
    if round_number is None:
        return _playing_round(table), False
    in_range = _is_round_number(round_number)
    rnd = _ROUND_LOCKED.first(table.night_id, round_number) if in_range else None
    if rnd is None or rnd.is_pending:
        raise _not_started()
    rnd.night = table.night
    return rnd, True


def _is_round_number(value) -> bool:
    """A round's number is a small positive integer: any other is no round of the night."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ROUND_NUMBER


def _stored_tap(existing: Entry, table: Table) -> TapResult:
    """The answer to a retry: the stored entry if it is this table's, else refused."""
    if existing.table_id != table.pk:
        raise ServiceError("This entry id belongs to another table.", "forged_nonce")
    return TapResult(existing)


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
    round_number: int | None = None,
    waited_ms: int = 0,
) -> TapResult:
    """Store one tap from a table phone (or a host's correction), exactly once per nonce.
    ``kind``: points (``count`` 1-3), bunco, mini/low/high, miss, mark (``mark_code``) or dice. A
    tap after the table's round is over is kept late for the host, except extra turns
    (docs/rules.md sections 3.4 and 3.5). The host corrects a round with ``rnd``. ``waited_ms``:
    how long the tap waited on the phone. Raises ``ServiceError``."""
    if not is_nonce(nonce):
        raise ServiceError("This entry has no valid id: reload the page.", "bad_nonce")
    # A retry is answered by the stored entry: looked up first on SQLite (no wait for the
    # writers' turn), on PostgreSQL only when the write fails (saves a round trip per tap).
    if connection.vendor != "postgresql":
        existing = _ENTRY_BY_NONCE.first(nonce)
        if existing is not None:
            return _stored_tap(existing, table)
    tap = {"nonce": nonce, "seat": seat, "kind": kind, "count": count, "mark_code": mark_code}
    tap |= {"dice": dice, "by_host": by_host, "waited_ms": waited_ms}
    try:
        return _entry_store(table, rnd, round_number, tap)
    except (IntegrityError, ServiceError):
        # The nonce was stored meanwhile: the write rolled back whole (no savepoint).
        existing = _ENTRY_BY_NONCE.first(nonce)
        if existing is None:
            raise
        return _stored_tap(existing, table)


def _entry_store(table: Table, rnd: Round | None, round_number: int | None, tap: dict) -> TapResult:
    """``entry_record``'s write for a new nonce (``tap``: ``_new_entry``'s keywords), one
    transaction; a tap alone at its table may use a short one."""
    alone = rnd is None and _is_round_number(round_number) and _tap_alone(table, tap["by_host"])
    with write_transaction(short=alone) as batch:
        rnd, play, seats, entries = _hold(table, rnd, round_number, tap["by_host"], batch)
        here = table_round(rnd, table, play, seats, entries)
        entry = _new_entry(rnd, table, play, here, **tap)
        after = _entries_after(here, entry)
        # A nonce stored meanwhile fails the insert: see entry_record.
        if _changes_only_its_table(entry, rnd, table):
            late_waiting, recomputed = _insert_and_touch(entry, rnd, table, batch), None
        elif batch.short:  # _tap_alone says it changes only its table
            raise RuntimeError("A tap alone at its table would change more than its table.")
        else:
            _insert(entry)
            late_waiting, recomputed = _settle(rnd, table, (here.seated, after))
    table_after = table_round_of(rnd, here.seated, play, after) if rnd.is_playing else None
    return TapResult(entry, table_after, late_waiting, recomputed)


def _entries_after(here: TableRound, entry: Entry) -> list[Entry]:
    """The table's counting entries once ``entry`` is stored: a late one does not count."""
    return here.entries if entry.is_late else [*here.entries, entry]


def _changes_only_its_table(entry: Entry, rnd: Round, table: Table) -> bool:
    """Whether storing ``entry`` changes only its table: a late tap, or one that cannot
    move the bell."""
    return entry.is_late or (rnd.is_playing and not _may_move_bell(rnd, table))


def _new_entry(
    rnd: Round,
    table: Table,
    play: TablePlay,
    here: TableRound | None,
    *,
    nonce: str,
    seat: int,
    kind: str,
    count: int,
    mark_code: str,
    dice: list[int] | None,
    by_host: bool,
    waited_ms: int = 0,
) -> Entry:
    """The unsaved entry a tap at ``table`` makes; ``ServiceError`` if it cannot be one."""
    if here is None:  # a play left without seats (a repair by hand in the admin)
        raise ServiceError("This table has no seats in this round.", "not_in_round")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= here.size:
        raise ServiceError("That seat is not at this table.", "bad_seat")
    rules = rnd.night.rules_obj
    if rules.is_card_game:
        raise ServiceError("In the card game the host enters each table's winner.", "card_game")
    streak = 0
    if rules.is_two_dice:
        streak = doubles_before(rule_entries(here.entries), seat)
    points, kind, count, mark_code, reset = _score(rules, rnd, kind, count, mark_code, dice, streak)
    extra = here.outcome.in_extra_turns
    late = not by_host and (
        not rnd.is_playing or ((play.finished_turn or here.outcome.done) and not extra)
    )
    now = timezone.now()
    return Entry(
        round=rnd,
        table=table,
        seat=seat,
        roller=here.seated.roller(seat),
        kind=kind,
        count=count,
        mark_code=mark_code,
        points=points,
        reset=reset,
        nonce=nonce,
        by_host=by_host,
        extra_pass=here.outcome.extra_passes + 1 if extra and not by_host else 0,
        late_at=now if late else None,
        tapped_at=now - dt.timedelta(milliseconds=waited_ms) if waited_ms else None,
    )


def _score(
    rules, rnd: Round, kind: str, count: int, mark_code: str, dice, streak: int = 0
) -> tuple:
    """(points, kind, count, mark code, reset) of a tap, as the rules score it. ``streak``: the
    seat's doubles in a row just before (two dice, docs/rules.md 9.2)."""
    try:
        if kind == Entry.Kind.MARK:
            group_mark = rules.group_mark(mark_code)
            if len(mark_code) > MARK_CODE_MAX_LENGTH:  # saved before rules refused such codes
                raise ServiceError("This mark's code is too long to record.", "mark_code_too_long")
            return group_mark.points, kind, 0, mark_code, group_mark.effect == RESET_ROUND_SCORE
        if kind == DICE:
            scored = score_roll(dice or [], rnd.mark, rules, doubles_before=streak)
        else:
            scored = score_tap(kind, rules, count if kind == POINTS else 0, doubles_before=streak)
        return scored.points, scored.kind, _mark_dice(rules, scored), "", False
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error


def _mark_dice(rules, scored) -> int:
    """How many dice showed the mark, as an entry keeps it."""
    if rules.is_two_dice:
        return {POINTS: 1, PAIR: 2}.get(scored.kind, 0)
    return scored.points if scored.kind == POINTS else 0

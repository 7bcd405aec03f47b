"""Playing a night, the writes: entries from table phones, Done and tie-breaks, the bell,
closing a round and seating the next one, the host's corrections.

Every write is one transaction that locks the row serialising the change (the
table's ``TablePlay`` for entries, the ``Round`` for closing; then the ``Night`` too,
before seating the next round, as the seating services do) and is safe to retry: an
entry's client ``nonce`` is unique, so a repeated submit is a no-op. The rules engine
decides scores, round end and movement; ``state`` reads where a round stands.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass
from typing import NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from bunco_night.core.bulk import update_each
from bunco_night.core.compiled import (
    ID_MARKERS,
    Compiled,
    CompiledUpdate,
    all_together,
    may_shorten,
    prepared,
    short_transaction,
)
from bunco_night.core.errors import ServiceError
from bunco_night.core.text import is_nonce
from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Round, Seat, Table, new_token
from bunco_night.nights.money import money_record
from bunco_night.nights.selectors import (
    SeatedTable,
    players_tonight,
    seating_of,
    table_seats_and_round,
)
from bunco_night.nights.services import (
    night_lock,
    night_touch,
    round_for,
    round_mark,
    seating_reseat,
    seats_save,
    tables_sync,
)
from bunco_night.rules.errors import RuleError
from bunco_night.rules.movement import Ghost, next_seating
from bunco_night.rules.presets import HEAD_TABLE, MARK_CODE_MAX_LENGTH, RESET_ROUND_SCORE
from bunco_night.rules.prizes import MOST_MARK
from bunco_night.rules.rounds import doubles_before, points_rolled
from bunco_night.rules.scoring import HIGH, LOW, MINI_KINDS, PAIR, POINTS, score_roll, score_tap
from bunco_night.rules.standings import ALL_PRIZE_LABELS

from .models import TIEBREAK_CODE_MAX_LENGTH, Entry, PrizeTiebreak, TablePlay
from .standings import night_standings
from .state import (
    RoundBoard,
    TableRound,
    engine_bell,
    round_board,
    round_deadline,
    round_seconds_left,
    round_time_up,
    rule_entries,
    table_round,
    table_round_of,
)

DICE = "dice"
# The largest number a round's row can hold (a PositiveSmallIntegerField).
MAX_ROUND_NUMBER = 32767
SET_CODE = re.compile(r"set-[0-9]{1,2}")  # a set's roll-off, beside the prizes' tie-breaks


# ---------------------------------------------------------------------------
# Starting a round, entering scores


@transaction.atomic
def round_start(*, night: Night) -> Round:
    """Start the next seated round: phones can enter scores."""
    night = night_lock(night.pk)
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if night.rules_obj.is_buck_dice:
        raise ServiceError("Buck Dice games start on the Buck Dice table's page.", "buck_dice")
    if night.rounds.playing().exists():
        raise ServiceError("A round is already being played.", "round_in_play")
    rnd = night.rounds.pending().order_by("number").first()
    if rnd is None or not rnd.seats.exists():
        raise ServiceError("Draw the seating first.", "no_seating")
    if rnd.number > night.total_rounds:
        raise ServiceError("Every round of the night has been played.", "night_complete")
    rnd.status, rnd.started_at = Round.Status.PLAYING, timezone.now()
    rnd.save(update_fields=["status", "started_at"])
    tables = {s.table for s in rnd.seats.select_related("table")}
    TablePlay.objects.bulk_create(
        [TablePlay(round=rnd, table=t) for t in tables], ignore_conflicts=True
    )
    if night.status != Night.Status.PLAYING:
        night.status = Night.Status.PLAYING
        night.save(update_fields=["status"])
    night_touch(night)
    return rnd


def _playing_round(table: Table) -> Round:
    rnd = table.night.rounds.playing().first()
    if rnd is None:
        if table.night.is_over:
            raise ServiceError("This night is over: scores are closed.", "night_over")
        raise ServiceError("No round is being played right now.", "no_round")
    return rnd


# The reads every tap makes, written once (bunco_night/core/compiled.py).
_PLAY_LOCKED = Compiled(
    lambda rnd, table: (
        TablePlay.objects.select_for_update()
        .filter(round_id=rnd, table_id=table)
        .order_by("pk")[:1]
    ),
    *ID_MARKERS[:2],
)
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
# A tap alone at its table (``_tap_alone``): its play locked, found by the round's number
# or id (both never change: the round's row is joined, not locked), then the round read.
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
# After that lock, in the same round trip on PostgreSQL (``_entry_store_short``): the
# table's seats with their round, and its counting entries, as ``table_seats_and_round``
# and ``state.table_round`` read them, found by the round's number.
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


def _lock_play(rnd: Round, table: Table, *, locked: bool = False) -> TablePlay:
    """Lock the round's row, then the table's play, and refresh ``rnd`` from the locked row
    (``locked``: the caller read ``rnd`` with the lock already).

    Every write at a table takes the Round row first, but a tap alone at its table
    (``_tap_alone``), which takes only its play; ``round_close`` and ``bell_ring`` take the
    Round row and then every play (``_lock_plays``). So no two of them wait for each
    other in opposite orders, and they cannot deadlock on PostgreSQL.
    ``no_key`` is the weakest exclusive row lock: rows that point at the round can still be
    inserted meanwhile (their foreign key's check takes a key share on it, at commit). A
    write that waited for a close then sees the round closed.
    """
    if not locked:
        rnd.refresh_from_db(
            fields=["status", "bell_at", "bell_by_host", "started_at"],
            from_queryset=Round.objects.select_for_update(no_key=True),
        )
    _ring_when_time_up(rnd)
    play = _PLAY_LOCKED.first(rnd.pk, table.pk)
    if play is None:
        raise ServiceError("This table has no seats in this round.", "not_in_round")
    return play


def _tap_alone(table: Table, by_host: bool) -> bool:
    """Whether a tap at ``table`` is a write alone at its table, which need not queue on
    the round: a phone's tap, under head-table rules (docs/rules.md section 3.1), at any
    table but the head table, in a round without a clock. Such a tap changes nothing of
    the round's and decides nothing from other tables' rows (only the head table's taps
    ring or silence the bell; silencing it writes every play of the round, ``_play_on``,
    which waits for such taps), so taps at different tables need not wait for each other
    for their whole transaction: only from the last statement, which moves the night's
    scores version (``_touch_table``), to the commit.

    It locks its table's play, and then reads the round: the round's close and the host's
    bell lock every play of the round before they change it (``_lock_plays``), so they
    wait for such a tap, and a tap that waited for them sees the round as they left it.
    A bell the head table rings meanwhile is as if it came just after the tap. A host's
    correction (it may change a closed round's results from every table's rows) and a
    timed round's tap (it may ring the bell when the time is up) queue on the round."""
    rules = table.night.rules_obj
    return (
        not by_host and table.number != 1 and rules.round_end == HEAD_TABLE and not rules.is_timed
    )


def _lock_plays(rnd: Round) -> None:
    """Lock every play of ``rnd`` (the caller holds the round's row): taps alone at their
    tables (``_tap_alone``) in progress are waited for, and later ones wait."""
    list(TablePlay.objects.select_for_update().filter(round=rnd).order_by("pk").values_list("pk"))


def _not_started() -> ServiceError:
    """The answer to a tap for a round that is not being played or closed."""
    return ServiceError("That round has not started.", "no_round")


def _lock_play_alone(table: Table, round_number: int | None) -> tuple[Round, TablePlay, list[Seat]]:
    """For a tap alone at ``table`` (``_tap_alone``): the table's play in the round it
    names (``round_number``), else in the round in play, locked; and that round and the
    table's seats in it, read after the lock in one query."""
    if round_number is None:
        play = _PLAY_LOCKED.first(_playing_round(table).pk, table.pk)
    elif _is_round_number(round_number):
        play = _PLAY_BY_NUMBER.first(table.night_id, round_number, table.pk)
    else:
        raise _not_started()
    if play is None:
        raise _no_play(table, round_number)
    rnd, seats = table_seats_and_round(play.round_id, table.pk)
    return _round_of_play(table, play, rnd), play, seats


def _no_play(table: Table, round_number: int | None) -> ServiceError:
    """Why ``table`` has no play in the round a tap names (``round_number``, else the round
    in play), in the error's words."""
    if round_number is not None:
        named = table.night.rounds.filter(number=round_number).first()
        if named is None or named.is_pending:
            return _not_started()
    return ServiceError("This table has no seats in this round.", "not_in_round")


def _round_of_play(table: Table, play: TablePlay, rnd: Round | None) -> Round:
    """The round of a tap alone at ``table`` (``play``'s), as read with its seats (None
    with no seats: then read alone); refused if it has not started."""
    if rnd is None:
        rnd = _ROUND_BY_ID.first(play.round_id)
    if rnd.is_pending:
        raise _not_started()
    rnd.night = table.night
    return rnd


def _ring_when_time_up(rnd: Round) -> bool:
    """A timed round whose time is up rings its bell (docs/rules.md section 3.8), stored
    like any bell so every page that polls sees it. An idempotent update, made by
    whichever request comes first after the time (a tap, a poll, a phone's countdown
    reaching zero): no timer runs in the server. The bell's time is the deadline."""
    rules = rnd.night.rules_obj
    if not rnd.is_playing or rnd.bell_at is not None or not round_time_up(rnd, rules):
        return False
    deadline = round_deadline(rnd, rules)
    rang = Round.objects.filter(pk=rnd.pk, status=Round.Status.PLAYING, bell_at__isnull=True)
    if not rang.update(bell_at=deadline):
        return False
    rnd.bell_at = deadline
    night_touch(rnd.night)
    return True


def round_clock(*, night: Night) -> int | None:
    """Check the clock of the night's round in play: ring the bell if its time is up.
    Returns the seconds left (0 once the time is up), or None when no timed round is
    being played. A night without timed rounds asks nothing of the database: no
    transaction, which on SQLite would wait for the writers' turn (``core/sqlite``)."""
    rules = night.rules_obj
    if not rules.is_timed:
        return None
    with transaction.atomic():
        rnd = night.rounds.playing().first()
        if rnd is None:
            return None
        _ring_when_time_up(rnd)
        return round_seconds_left(rnd, rules)


def _touch_table(rnd: Round, table: Table) -> bool | None:
    """Tell the table's phones and the host's screens that something changed at ``table``.

    The night's scores version moves, and the table keeps the version it moved to, so the
    live board and the room screen can re-render just the tables that changed since the
    version they show. ``table.version`` moves by one too: never ahead of the row's, which
    is all a page drawn from this write may claim (its phone at worst asks again).

    Returns whether late taps at ``table`` wait for the host, as this write leaves them
    (the table's update says, which saves the table's page a query to ask:
    ``pages.table_page``); None when there is no such table (nothing is known of it).
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # one statement, one round trip
            cursor.execute(*prepared(connection, _BOTH_MOVE_SQL, [rnd.night_id, table.pk]))
        else:
            _NIGHT_SCORES_MOVE.run(rnd.night_id)
            cursor.execute(_TABLE_MOVE_SQL, [rnd.night_id, table.pk])
        row = cursor.fetchone()
    table.version += 1
    return bool(row[0]) if row else None


# _touch_table's two updates, written once: the night's scores version, then the table's
# version and mark, answering whether late taps wait at the table as pages._LATE_PROBE
# asks (Entry's manager: late_pending; tests/play/test_late_entries.py checks that it
# answers as the probe does). On PostgreSQL, where a statement can update two tables and
# each statement is a round trip to the server, both are one statement;
# tests/play/test_services.py checks both ways give the same.
_NIGHT_SCORES_MOVE = CompiledUpdate(
    lambda night: Night.objects.filter(pk=night),
    lambda night: {"scores_version": F("scores_version") + 1},
    ID_MARKERS[0],
)
_TABLE_MOVE = (
    "UPDATE nights_table SET version = version + 1, scores_mark = {mark} WHERE id = %s "
    "RETURNING EXISTS (SELECT 1 FROM play_entry WHERE play_entry.table_id = nights_table.id "
    "AND play_entry.late_at IS NOT NULL AND play_entry.late_decision = '' "
    "AND play_entry.undone_at IS NULL)"
)
_TABLE_MOVE_SQL = _TABLE_MOVE.format(mark="(SELECT scores_version FROM nights_night WHERE id = %s)")
# PostgreSQL: the night's update as a CTE, and the table's marked with what it returns.
_NIGHT_MOVE_CTE = (
    "night AS (UPDATE nights_night SET scores_version = scores_version + 1 "
    "WHERE id = %s RETURNING scores_version)"
)
_TABLE_MOVE_AFTER_NIGHT = _TABLE_MOVE.format(mark="(SELECT scores_version FROM night)")
_BOTH_MOVE_SQL = f"WITH {_NIGHT_MOVE_CTE} {_TABLE_MOVE_AFTER_NIGHT}"


# An entry's row, inserted as the ORM would (``_insert``) in a statement written once: the
# ORM's save costs a tap more than its whole INSERT on an index does.
_ENTRY_FIELDS = [f for f in Entry._meta.local_concrete_fields if not f.primary_key]
_ENTRY_INSERT = "INSERT INTO {} ({}) VALUES ({})".format(
    Entry._meta.db_table,
    ", ".join(f'"{f.column}"' for f in _ENTRY_FIELDS),
    ", ".join(["%s"] * len(_ENTRY_FIELDS)),
)
# On PostgreSQL the insert and _touch_table's updates are one statement, one round trip:
# the entry's id, and whether late taps wait at the table (NULL with no such table). Its
# EXISTS reads the table's entries as they were before the statement, without this one.
_INSERT_AND_MOVE_SQL = (
    f"WITH entry AS ({_ENTRY_INSERT} RETURNING id), {_NIGHT_MOVE_CTE}, "
    f"moved AS ({_TABLE_MOVE_AFTER_NIGHT} AS waits) "
    "SELECT entry.id, (SELECT waits FROM moved) FROM entry"
)


def _entry_row(entry: Entry) -> list:
    """The values of ``entry``'s row, as ``Model.save`` gives them to its INSERT (the
    time it is created is set, as ``auto_now_add`` does)."""
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


def _insert_and_touch(
    entry: Entry, rnd: Round, table: Table, *, commit: bool = False
) -> bool | None:
    """``_insert`` then ``_touch_table``, which it answers as: in one statement on
    PostgreSQL, sent with the ``COMMIT`` of a ``short_transaction`` (``commit``)."""
    if connection.vendor != "postgresql":
        _insert(entry)
        return _touch_table(rnd, table)
    with connection.cursor() as cursor:
        params = [*_entry_row(entry), rnd.night_id, table.pk]
        sql, params = prepared(connection, _INSERT_AND_MOVE_SQL, params)
        cursor.execute(f"{sql}; COMMIT" if commit else sql, params)
        pk, waits = cursor.fetchone()  # the first statement's answer: the insert's
    _stored(entry, pk)
    table.version += 1
    # The new entry is one that waits if it is late (its EXISTS did not see it).
    return None if waits is None else bool(waits or entry.late_at is not None)


def _after_change(
    rnd: Round, table: Table | None = None, held: tuple[SeatedTable, list[Entry]] | None = None
) -> bool | None:
    """Ring (or, after an undo, un-ring) the bell as the rules say; tell the polling pages.

    A change at one table bumps that table's version and the night's score version
    (the host's board), so the other phones' polls stay unchanged; a change to the
    bell bumps the night's version, which every page polls. With head-table control
    only the head table's entries can ring the bell, so taps elsewhere skip the check.
    ``held``: the table's seats and counting entries after the change, when the caller
    holds them (``engine_bell`` need not read the head table again). Returns what
    ``_touch_table`` says of the table's late taps.
    """
    rules = rnd.night.rules_obj
    bell_changed = False
    if _may_move_bell(rnd, table):
        bell = engine_bell(rnd, rules, held)
        if bell and rnd.bell_at is None:
            now = timezone.now()
            bell_changed = bool(
                Round.objects.filter(pk=rnd.pk, bell_at__isnull=True).update(bell_at=now)
            )
            rnd.bell_at = now if bell_changed else rnd.bell_at
        elif not bell and rnd.bell_at is not None:
            bell_changed = bool(Round.objects.filter(pk=rnd.pk).update(bell_at=None))
            rnd.bell_at = None if bell_changed else rnd.bell_at
            if bell_changed:
                _play_on(rnd)
    late_waiting = _touch_table(rnd, table) if table is not None else None
    if table is None or bell_changed:
        night_touch(rnd.night)
    return late_waiting


def _play_on(rnd: Round) -> None:
    """The bell was taken back: the round plays on at every table (docs/rules.md section
    6.2). A Done tapped after the bell goes with it, and so does a tie's settling after
    it: the rolls of its extra turns count as play, and a tie-break's recorded winner (the
    table's or the host's) is forgotten. A winner the host set, overruling the scores,
    stays. Every page sees it by the night's version."""
    TablePlay.objects.filter(round=rnd, finished_turn=True).update(finished_turn=False)
    TablePlay.objects.filter(round=rnd).exclude(extra_passes=0, tiebreak_side=None).update(
        extra_passes=0, tiebreak_side=None
    )
    Entry.objects.filter(round=rnd, extra_pass__gt=0).update(extra_pass=0)


def _may_move_bell(rnd: Round, table: Table | None) -> bool:
    """Whether a change at ``table`` (None: anywhere) in ``rnd``, in play, may ring or
    un-ring the bell: not in the card game, not once the host rang it, and under
    head-table rules only at the head table (docs/rules.md section 3.1)."""
    rules = rnd.night.rules_obj
    return (
        not rules.is_card_game
        and not rnd.bell_by_host
        and (table is None or rules.round_end != HEAD_TABLE or table.number == 1)
    )


class Settled(NamedTuple):
    """What ``_settle`` says: in a round in play, whether late taps wait at the table
    (``_after_change``); in a closed round, what the correction changed."""

    late_waiting: bool | None = None
    recomputed: Recomputed | None = None


def _settle(
    rnd: Round, table: Table, held: tuple[SeatedTable, list[Entry]] | None = None
) -> Settled:
    """After a change at ``table``: a closed round's results follow (a host's correction),
    a round in play rings the bell if it must and tells the polling pages (``held``: as
    for ``_after_change``)."""
    if rnd.is_closed:
        return Settled(recomputed=results_recompute(rnd=rnd))
    return Settled(late_waiting=_after_change(rnd, table, held))


def _round_for_tap(table: Table, round_number: int | None) -> tuple[Round, bool]:
    """The round a phone's tap is for: the one it names (a tap queued offline may name a
    round that has ended since), read with ``_lock_play``'s lock on it, else the round in
    play. And whether it was read with the lock."""
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


def _stored_tap(existing: Entry, table: Table) -> Entry:
    """The answer to a tap whose nonce is stored already: the stored entry, when it is this
    table's (the phone sent it again); a nonce of another table's entry is refused."""
    if existing.table_id != table.pk:
        raise ServiceError("This entry id belongs to another table.", "forged_nonce")
    existing.table_after = existing.late_waiting = existing.recomputed = None
    return existing


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
) -> Entry:
    """Store one tap from a table phone (or a host's correction), exactly once per nonce.

    ``kind`` is points (with ``count`` 1-3: 3 is a bunco), bunco, mini/low/high, miss,
    mark (a group-defined mark, ``mark_code``), or dice (three ``dice`` the engine
    scores). A phone's tap is for the round it names (``round_number``) or the round in
    play; once that round is over for the table (it pressed Done, it is finished by the
    rules, or the round is closed) the tap is kept as a late entry for the host to
    accept or discard, except the extra turns of a tie-break (docs/rules.md sections
    3.4 and 3.5). The host corrects any started round with ``rnd``.

    The stored entry's ``table_after`` is the table as this write left it while its round
    is in play (what the phone shows next, without reading it again), else None (a retry
    of a stored tap, a tap for a round that has ended); its ``late_waiting``, whether
    late taps at the table wait for the host as this write left them, where the write
    says so (``_touch_table``), else None; its ``recomputed``, what a host's entry in a
    closed round changed (``results_recompute``), else None.
    """
    if not is_nonce(nonce):
        raise ServiceError("This entry has no valid id: reload the page.", "bad_nonce")
    # A retry of a stored tap is answered as the stored entry. On SQLite it is looked up
    # before the write transaction, so that it does not wait for the writers' turn. On
    # PostgreSQL, where every query is a round trip for every tap, it is looked up only
    # when the write finds the nonce stored (the unique nonce: a retry, or one racing
    # its first try) or is refused (a retry of a tap the table has moved on from).
    if connection.vendor != "postgresql":
        existing = _ENTRY_BY_NONCE.first(nonce)
        if existing is not None:
            return _stored_tap(existing, table)
    tap = {"nonce": nonce, "seat": seat, "kind": kind, "count": count, "mark_code": mark_code}
    tap |= {"dice": dice, "by_host": by_host}
    short = rnd is None and _is_round_number(round_number) and _tap_alone(table, by_host)
    try:
        if short and may_shorten():
            return _entry_store_short(table, round_number, tap)
        return _entry_store(table, rnd, round_number, tap)
    except (IntegrityError, ServiceError):
        # The nonce was stored, by this tap's first try or by a request racing it: this
        # write was rolled back whole (no savepoint around the insert: on PostgreSQL
        # that is two more round trips for every tap), and the stored entry answers.
        existing = _ENTRY_BY_NONCE.first(nonce)
        if existing is None:
            raise
        return _stored_tap(existing, table)


@transaction.atomic
def _entry_store(table: Table, rnd: Round | None, round_number: int | None, tap: dict) -> Entry:
    """``entry_record``'s write, for a nonce not stored yet (``tap``: ``_new_entry``'s
    keywords, as the phone or the host sent them)."""
    by_host = tap["by_host"]
    locked = False
    seats = None
    if rnd is None and _tap_alone(table, by_host):
        rnd, play, seats = _lock_play_alone(table, round_number)
    else:
        if rnd is None:
            rnd, locked = _round_for_tap(table, round_number)
        elif not by_host:
            raise ServiceError("Only the host can correct another round.", "not_host")
        elif rnd.night_id != table.night_id:
            raise ServiceError("That round is not this table's night.", "other_night")
        play = _lock_play(rnd, table, locked=locked)
    here = table_round(rnd, table, play, seats)
    entry = _new_entry(rnd, table, play, here, **tap)
    # A nonce stored meanwhile fails the insert: see entry_record.
    if _changes_only_its_table(entry, rnd, table):
        entry.late_waiting = _insert_and_touch(entry, rnd, table)
    else:
        _insert(entry)
        entry.late_waiting, entry.recomputed = _settle(
            rnd, table, (here.seated, _entries_after(here, entry))
        )
    return _with_table_after(entry, rnd, here, play)


def _entry_store_short(table: Table, round_number: int, tap: dict) -> Entry:
    """``_entry_store`` for a tap alone at its table (``_tap_alone``) that names its
    round, on PostgreSQL, in two round trips (``short_transaction``; ``_entry_store``
    takes four, and psycopg's BEGIN and COMMIT two more): the same lock and reads, then
    the same write. The lock goes first: the seats and entries read after it in the same
    round trip see what a tap it waited for committed."""
    with short_transaction():
        plays, seats, entries = all_together(
            (_PLAY_BY_NUMBER, (table.night_id, round_number, table.pk)),
            (_SEATS_BY_NUMBER, (table.night_id, round_number, table.pk)),
            (_ENTRIES_BY_NUMBER, (table.night_id, round_number, table.pk)),
            first="BEGIN",
        )
        if not plays:
            raise _no_play(table, round_number)
        play = plays[0]
        rnd = _round_of_play(table, play, seats[0].round if seats else None)
        here = table_round(rnd, table, play, seats, entries)
        entry = _new_entry(rnd, table, play, here, **tap)
        if not _changes_only_its_table(entry, rnd, table):  # _tap_alone says it does
            raise RuntimeError("A tap alone at its table would change more than its table.")
        # A nonce stored meanwhile fails the insert: see entry_record.
        entry.late_waiting = _insert_and_touch(entry, rnd, table, commit=True)
    return _with_table_after(entry, rnd, here, play)


def _with_table_after(entry: Entry, rnd: Round, here: TableRound, play: TablePlay) -> Entry:
    """``entry``, stored, with its ``table_after``: its table as the write left it
    (``here`` with the entry, unless it is late) while its round is in play, else None."""
    entries = _entries_after(here, entry)
    entry.table_after = table_round_of(rnd, here.seated, play, entries) if rnd.is_playing else None
    return entry


def _entries_after(here: TableRound, entry: Entry) -> list[Entry]:
    """The table's counting entries once ``entry`` is stored: a late one does not count."""
    return here.entries if entry.is_late else [*here.entries, entry]


def _changes_only_its_table(entry: Entry, rnd: Round, table: Table) -> bool:
    """Whether storing ``entry`` changes nothing but its table (its entries and versions):
    a late tap, shown and not counted, from which nothing is computed; or a tap in a
    round in play that cannot ring or silence the bell."""
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
) -> Entry:
    """The entry a tap at ``table`` makes (not stored yet), from the table's play and
    where it stands in ``rnd`` (``here``); refused if the tap cannot be one there."""
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
    entry = Entry(
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
        late_at=timezone.now() if late else None,
    )
    entry.recomputed = None  # what a correction to a closed round changed, once stored
    return entry


def _score(
    rules, rnd: Round, kind: str, count: int, mark_code: str, dice, streak: int = 0
) -> tuple:
    """(points, kind, count, mark code, reset) of a tap, as the rules score it.

    ``count`` is stored as the dice that showed the mark. With two dice (docs/rules.md
    section 9.2) ``streak`` is the doubles the seat rolled in a row just before: the third
    is a bunco, whatever the tap said.
    """
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


@transaction.atomic
def late_entry_decide(*, entry: Entry, accept: bool) -> Entry:
    """The host accepts a late entry (it counts, and everything computed from it follows)
    or discards it (kept on record, counting for nothing): docs/rules.md section 3.5."""
    rnd = entry.round
    _lock_play(rnd, entry.table)
    entry.refresh_from_db()
    if not entry.is_late or entry.late_decision or entry.undone_at:
        raise ServiceError("That entry is not waiting for a decision.", "not_late")
    entry.late_decision = Entry.Late.ACCEPTED if accept else Entry.Late.DISCARDED
    entry.save(update_fields=["late_decision"])
    entry.recomputed = None
    if accept:
        entry.recomputed = _settle(rnd, entry.table).recomputed
    else:
        _touch_table(rnd, entry.table)
    return entry


def _entry_held(table: Table, entry_id: int) -> tuple[Entry, TablePlay]:
    """An entry at ``table`` with its table's play in its round, held for a change: the
    entry as it is once the play is held (a bell taken back meanwhile may have changed it)."""
    entry = Entry.objects.filter(pk=entry_id, table=table).select_related("round").first()
    if entry is None:
        raise ServiceError("That entry is not at this table.", "unknown_entry")
    play = _lock_play(entry.round, table)
    entry.refresh_from_db(fields=["undone_at", "extra_pass", "late_at", "late_decision"])
    return entry, play


@transaction.atomic
def entry_undo(*, table: Table, entry_id: int, by_host: bool = False) -> Entry:
    """Undo an entry (kept, marked undone); undoing twice is a no-op."""
    entry, play = _entry_held(table, entry_id)
    rnd = entry.round
    if not by_host:
        here = table_round(rnd, table, play) if rnd.is_playing else None
        if here is None or not here.may_undo(entry):
            if here is not None and here.outcome.in_extra_turns and not entry.is_late:
                raise ServiceError(
                    "That turn was in an earlier pass of extra turns: ask the host to correct "
                    "it, or take back Extra turns done first.",
                    "round_closed",
                )
            raise ServiceError(
                "That round is over here: ask the host to correct it.", "round_closed"
            )
    # Written only if not undone meanwhile (a double tap held behind the table's lock).
    now = timezone.now()
    entry.recomputed = None
    if Entry.objects.filter(pk=entry.pk, undone_at__isnull=True).update(undone_at=now):
        entry.undone_at = now
        entry.recomputed = _settle(rnd, table).recomputed
    return entry


@transaction.atomic
def entry_put_back(*, table: Table, entry_id: int) -> Entry:
    """The host puts back an entry that was undone, a mis-tapped Undo (docs/rules.md
    section 6.2): it counts again, and everything follows, as after any correction.
    Putting it back twice is a no-op. A turn of a tie's extra turns (section 3.4) is not
    put back once the table has taken back the pass it was in, or its Done."""
    entry, play = _entry_held(table, entry_id)
    here = table_round(entry.round, table, play) if entry.extra_pass else None
    if entry.extra_pass and (
        entry.extra_pass > play.extra_passes + 1 or here is None or not here.outcome.done
    ):
        raise ServiceError(
            "That turn was in extra turns the table has taken back: add it again if it counts.",
            "extra_pass_taken_back",
        )
    entry.recomputed = None
    if Entry.objects.filter(pk=entry.pk, undone_at__isnull=False).update(undone_at=None):
        entry.undone_at = None
        entry.recomputed = _settle(entry.round, table).recomputed
    return entry


@transaction.atomic
def table_done(*, table: Table, done: bool = True) -> TablePlay:
    """The table finished the turn in play after the bell (docs/rules.md section 3.1), or,
    with ``done`` False, takes a mis-tapped Done back (section 6.2)."""
    rnd = _playing_round(table)
    play = _lock_play(rnd, table)
    if not rnd.is_playing:  # closed while this waited for the lock
        raise ServiceError("That round is over: ask the host to correct it.", "round_closed")
    here = table_round(rnd, table, play)
    if not done and here is not None and play.finished_turn and not here.may_take_back_done:
        # A tie's extra turns were played after it: taking Done back under them would
        # leave turns counted in a tie-break that is no longer being played.
        if play.extra_passes:
            raise ServiceError(
                "The extra turns are done: take back Extra turns done first.",
                "extra_turns_finished",
            )
        raise ServiceError("Undo the extra turns entered since Done first.", "extra_turns_entered")
    if done:
        if not here.bell:
            raise ServiceError("Keep rolling: the bell has not rung.", "no_bell")
        if here.outcome.waiting_for:
            who = ", ".join(
                here.seats[s - 1].occupant_name for s in sorted(here.outcome.waiting_for)
            )
            raise ServiceError(
                f"Everyone rolls at least once: {who} still to roll.", "everyone_rolls_once"
            )
    if not done and play.finished_turn:
        # A roll-off's winner the table recorded after the Done goes with it: the turn
        # plays on, and a tie at the next Done is a new one (docs/rules.md section 6.2).
        play.tiebreak_side = None
    play.finished_turn = done
    play.save(update_fields=["finished_turn", "tiebreak_side"])
    _after_change(rnd, table)
    return play


@transaction.atomic
def extra_turns_done(*, table: Table, done: bool = True, passes: int | None = None) -> TablePlay:
    """Everyone at a tied table has taken one more turn: the highest total wins, or, still
    tied, they take another (docs/rules.md section 3.4). With ``done`` False, the table
    takes a mis-tapped "Extra turns done" back, and plays that pass on (section 6.2).
    ``passes``, the passes finished as the phone saw them, makes a repeat of either (a
    double tap) a no-op."""
    rnd = _playing_round(table)
    play = _lock_play(rnd, table)
    here = table_round(rnd, table, play) if rnd.is_playing else None
    if passes is not None and passes != play.extra_passes:
        return play  # a repeat: done (or taken back) already
    if not done:
        if here is None:
            raise ServiceError("That round is over: ask the host to correct it.", "round_closed")
        if not play.extra_passes:
            raise ServiceError("This table has not tapped Extra turns done.", "no_extra_turns")
        if not here.may_take_back_extra_turns_done:
            raise ServiceError(
                "Undo the extra turns entered since Extra turns done first.",
                "extra_turns_entered",
            )
        play.extra_passes -= 1
        play.save(update_fields=["extra_passes"])
        _after_change(rnd, table)
        return play
    if here is None or not here.outcome.in_extra_turns:
        raise ServiceError("This table is not playing extra turns.", "no_extra_turns")
    this_pass = here.outcome.extra_passes + 1
    if not any(e.extra_pass == this_pass for e in here.entries):
        raise ServiceError(
            "Enter each player's extra turn first (a miss too), then tap Extra turns done.",
            "no_extra_rolls",
        )
    play.extra_passes += 1
    play.save(update_fields=["extra_passes"])
    _after_change(rnd, table)
    return play


@transaction.atomic
def tiebreak_record(
    *, table: Table, side: int, rnd: Round | None = None, by_host: bool = False
) -> TablePlay:
    """Record who won a tie-break (the roll-off, or the extra turns)."""
    rnd = rnd if (rnd is not None and by_host) else _playing_round(table)
    play = _lock_play(rnd, table)
    if not rnd.is_playing and not by_host:  # closed while this waited for the lock
        raise ServiceError("That round is over: ask the host to correct it.", "round_closed")
    here = table_round(rnd, table, play)
    tied = here.outcome.tied_sides if here else ()
    if side not in tied:
        raise ServiceError("Pick one of the tied sides.", "bad_tiebreak")
    play.tiebreak_side = side
    play.save(update_fields=["tiebreak_side"])
    play.recomputed = _settle(rnd, table).recomputed
    return play


@transaction.atomic
def bell_ring(*, night: Night) -> Round:
    """The host rings the bell by hand: every table finishes the turn in play."""
    rnd = night.rounds.select_for_update(no_key=True).playing().first()
    if rnd is None:
        raise ServiceError("No round is being played.", "no_round")
    _lock_plays(rnd)
    rnd.bell_by_host = True
    rnd.bell_at = rnd.bell_at or timezone.now()
    rnd.save(update_fields=["bell_at", "bell_by_host"])
    night_touch(night)
    return rnd


@transaction.atomic
def winner_set(*, rnd: Round, table: Table, side: int | None) -> TablePlay:
    """The host sets (or clears, with None) a table's winner, overriding the scores."""
    play = _lock_play(rnd, table)
    here = table_round(rnd, table, play)
    if side is not None and (here is None or not 0 <= side < here.seated.game.sides):
        raise ServiceError("Pick one of the table's sides.", "bad_winner")
    play.winner_side = side
    play.save(update_fields=["winner_side"])
    play.recomputed = _settle(rnd, table).recomputed
    return play


# ---------------------------------------------------------------------------
# Closing a round and moving


RESULT_FIELDS = ["won", "buncos", "mini_buncos", "low_buncos", "high_buncos", "marks", "score"]


def _seat_results(board: RoundBoard) -> None:
    """Write each seat's win or loss, buncos, mini (low, high) buncos, marks and the points
    its person rolled (docs/rules.md section 6.4) from the entries."""
    card_game = board.round.night.rules_obj.is_card_game
    seats = []
    for tr in board.tables:
        side = tr.winner_side
        winners = set(tr.seated.game.side_seats(side)) if side is not None else set()
        credit: dict[int, dict] = {}
        for e in tr.entries:
            if e.roller_id is None:
                continue
            c = credit.setdefault(e.roller_id, _no_credit())
            if e.kind == Entry.Kind.BUNCO:
                c["buncos"] += 1
            elif e.kind in MINI_KINDS:
                c["minis"] += 1
                c["low"] += e.kind == LOW
                c["high"] += e.kind == HIGH
            elif e.kind == Entry.Kind.MARK:
                c["marks"][e.mark_code] = c["marks"].get(e.mark_code, 0) + 1
        rollers = {n: p.pk for n in range(1, tr.size + 1) if (p := tr.seated.roller(n))}
        points = points_rolled(rule_entries(tr.entries), rollers, teams=tr.teams)
        for s in tr.seats:
            c = credit.get(s.player_id, _no_credit())
            s.won = s.number in winners if side is not None else None
            s.buncos, s.mini_buncos, s.marks = c["buncos"], c["minis"], c["marks"]
            s.low_buncos, s.high_buncos = c["low"], c["high"]
            s.score = None if card_game or s.player_id is None else points.get(s.player_id, 0)
        seats += tr.seats
    update_each(seats, RESULT_FIELDS)


def _no_credit() -> dict:
    return {"buncos": 0, "minis": 0, "low": 0, "high": 0, "marks": {}}


def _seat_next_round(board: RoundBoard, tables: list[Table] | None = None) -> Round | None:
    """Seat the next round by the engine's movement (at ``tables``, by default the
    round's own, as they are); None after the last round."""
    rnd = board.round
    night = rnd.night
    if rnd.number >= night.total_rounds:
        return None
    seating = seating_of([tr.seated for tr in board.tables])
    ghosts = {o for t in seating for o in t if isinstance(o, Ghost)}
    winners = [tr.seated.game.side_seats(tr.winner_side) for tr in board.tables]
    moved = next_seating(night.rules_obj, seating, winners, ghosts)
    number = rnd.number + 1
    nxt = round_for(night, number)
    if not nxt.is_pending:
        return nxt
    if nxt.mark is None:
        nxt.mark = round_mark(night, number, random.Random(f"{night.seed}-{number}"))
    # The movement made this seating, not a draw: no seed makes it (docs/rules.md section
    # 4.4). A mark a draw rolled for the round stays: it is not part of the seating.
    nxt.draw_seed = None
    nxt.save(update_fields=["mark", "draw_seed"])
    seats_save(nxt, tables or [tr.table for tr in board.tables], moved)
    return nxt


def _seat_next_round_again(board: RoundBoard) -> None:
    """After a correction that changed a winner: the next round seated again by the
    movement from the new winners, then for who plays now, as a change of who plays
    between the rounds re-seats it (docs/rules.md section 10)."""
    night = board.round.night
    played = [s.player_id for tr in board.tables for s in tr.seats if s.player_id is not None]
    playing = [p.pk for p in players_tonight(night)]
    # The tables as the corrected round had them: who plays may have changed them since.
    _seat_next_round(board, tables_sync(night, [tr.size for tr in board.tables]))
    seating_reseat(
        night,
        leaving=[p for p in played if p not in playing],
        arriving=[p for p in playing if p not in played],
    )


def _tables(numbers: list[int]) -> str:
    """ "Table 3", or "Tables 3, 5 and 8"."""
    if len(numbers) == 1:
        return f"Table {numbers[0]}"
    return f"Tables {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


@transaction.atomic
def round_close(*, rnd: Round) -> Round | None:
    """Close a round the rules say is over: record results and seat the next round.

    Returns the next round (seated, not started), or None when the night is over.
    """
    rnd = Round.objects.select_for_update(no_key=True).get(pk=rnd.pk)
    if not rnd.is_playing:
        raise ServiceError("That round is not being played.", "round_not_playing")
    _lock_plays(rnd)
    rnd.night = night_lock(rnd.night_id)  # before it seats the next round: results_recompute
    board = round_board(rnd)
    missing = [tr for tr in board.tables if tr.winner_side is None]
    if missing:
        ties = [tr for tr in missing if tr.outcome.needs_tiebreak]
        if ties:
            playing = [tr.table.number for tr in ties if tr.outcome.in_extra_turns]
            settle = [tr.table.number for tr in ties if not tr.outcome.in_extra_turns]
            said = []
            if settle:
                each = "each tie-break" if len(settle) > 1 else "the tie-break"
                said.append(f"{_tables(settle)}: record who won {each}.")
            if playing:  # docs/rules.md section 3.4: the phone says when they are done
                are = "are" if len(playing) > 1 else "is"
                said.append(
                    f"{_tables(playing)} {are} playing extra turns to break a tie: wait "
                    "for them, or record who won."
                )
            raise ServiceError(" ".join(said), "tie_needs_break")
        late = [tr.table.number for tr in missing]
        them = ("their phones", "their winners") if len(late) > 1 else ("its phone", "its winner")
        raise ServiceError(
            f"Not every table is done: {_tables(late).lower()}. Wait for Done on {them[0]}, "
            f"or set {them[1]} with Correct.",
            "round_not_over",
        )
    rnd.status, rnd.closed_at = Round.Status.CLOSED, timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    _seat_results(board)
    nxt = _seat_next_round(board)
    if nxt is None:
        night = rnd.night
        night.status = Night.Status.FINISHED
        night.save(update_fields=["status"])
        money_record(night)  # docs/rules.md section 7.9
    night_touch(rnd.night)
    return nxt


# What became of the next round's seating after a correction (``Recomputed``).
SEATING_DRAWN_AGAIN = "drawn_again"  # not started: seated again from the new winners
SEATING_KEPT = "kept"  # started already: seated from the old winners, and stays so


@dataclass(frozen=True)
class TableWinner:
    """A table's winner after a correction, by name, and whether the correction changed it."""

    number: int
    name: str
    changed: bool


@dataclass(frozen=True)
class Recomputed:
    """What a host's correction to a closed round changed (docs/rules.md section 6.2):
    each table's winner, and the next round's seating (``next_seating``): drawn again
    from the new winners, kept because that round had started, or None when it did not
    change (the same winners, or a next round with no seating yet) or there is no next
    round."""

    winners: tuple[TableWinner, ...]
    next_round: int | None
    next_seating: str | None
    # The next round's draw could be taken back before, and no longer can (section 4.4).
    draw_undo_lost: bool = False


@transaction.atomic
def results_recompute(*, rnd: Round) -> Recomputed:
    """After a host's correction to a closed round: results, and the next seating if unplayed.

    The night is locked before the winners and the next round are read, as the services
    that seat the next round or start it lock it (``night_lock``): a draw, a swap or a
    start in progress commits first, and those wait for this. The order of the locks:
    a started round's rows (the correction holds the closed round's row and its table's
    play, ``_lock_play``), then the night, then a pending round's rows. A tap holds its
    play when it moves the night's scores version: a correction taking the night before
    the play could deadlock with a late tap at that table.

    Returns what changed, for the host's answer: each table's winner, and what became of
    the next round's seating."""
    rnd.night = night_lock(rnd.night_id)
    board = round_board(rnd)
    if any(tr.winner_side is None for tr in board.tables):
        raise ServiceError("After this change a table has no winner: set one.", "no_winner")
    won_before = set(Seat.objects.filter(round=rnd, won=True).values_list("table_id", "number"))
    _seat_results(board)
    won_now = {(s.table_id, s.number) for tr in board.tables for s in tr.seats if s.won}
    nxt = rnd.night.rounds.filter(number=rnd.number + 1).first()
    # The movement follows the winners: with the same winners the next seating stays as it
    # is, seats the host swapped by hand included. A next round that has started keeps
    # the seating it was played with; one with no seating has none because who plays
    # changed since this round: the movement from it no longer fits, and the host draws
    # it (docs/rules.md sections 6.2 and 10).
    moved, seating, undo_lost = won_now != won_before, None, False
    if nxt is not None and moved and not nxt.is_pending:
        seating = SEATING_KEPT
    elif nxt is not None and moved and nxt.seats.exists():
        undo_lost = nxt.replaced_seating is not None
        _seat_next_round_again(board)
        # A draw of that round can no longer be taken back: the seating it replaced
        # followed the old winners (docs/rules.md section 6.2).
        Round.objects.filter(pk=nxt.pk).update(replaced_seating=None)
        seating = SEATING_DRAWN_AGAIN
    night_touch(rnd.night)
    flipped = {table_id for table_id, _ in won_now ^ won_before}
    return Recomputed(
        winners=tuple(
            TableWinner(tr.table.number, tr.side_names()[tr.winner_side], tr.table.pk in flipped)
            for tr in board.tables
        ),
        next_round=None if nxt is None else nxt.number,
        next_seating=seating,
        draw_undo_lost=undo_lost,
    )


@transaction.atomic
def night_finish(*, night: Night) -> Night:
    """End the night early (after the round in play is closed)."""
    night_lock(night.pk)  # before the pending rounds' rows, as results_recompute
    if night.rounds.playing().exists():
        raise ServiceError("Close the round being played first.", "round_in_play")
    night.rounds.pending().delete()
    night.status = Night.Status.FINISHED
    night.save(update_fields=["status"])
    money_record(night)  # docs/rules.md section 7.9
    night_touch(night)
    return night


# ---------------------------------------------------------------------------
# Prizes


def _prize_key_shape(code: str) -> bool:
    """A code that can name a prize: a category, or the most of a group mark with the
    mark's code (docs/rules.md section 7.5), short enough to store."""
    if code in ALL_PRIZE_LABELS:
        return True
    mark = code.removeprefix(f"{MOST_MARK}:")
    return (
        mark != code
        and 0 < len(mark) <= MARK_CODE_MAX_LENGTH
        and len(code) <= TIEBREAK_CODE_MAX_LENGTH
        and "\x00" not in mark
    )


@transaction.atomic
def prize_tiebreak_record(*, night: Night, code: str, player: Player | None) -> None:
    """Record (or clear) who won a tied prize (``code`` is the prize's key, such as
    "most_mark:wipeout"), or the roll-off of a tied set (docs/rules.md sections 7.1
    and 7.3)."""
    # Checked first: PostgreSQL cannot even compare a code holding a NUL.
    if not _prize_key_shape(code) and not SET_CODE.fullmatch(code):
        raise ServiceError("Pick one of the prizes.", "bad_tiebreak")
    if player is None:
        PrizeTiebreak.objects.filter(night=night, code=code).delete()
    else:
        standings = night_standings(night)
        prize = next((p for p in standings.prizes if p.key == code), None)
        tied_set = next((s for s in standings.sets if s.code == code), None)
        if prize is not None:
            candidates = prize.candidates
        elif tied_set is not None:
            candidates = [p.pk for p in tied_set.level] if len(tied_set.level) > 1 else []
        else:
            candidates = []
        if player.pk not in candidates:
            raise ServiceError("Pick one of the tied players.", "bad_tiebreak")
        PrizeTiebreak.objects.update_or_create(night=night, code=code, defaults={"player": player})
    night_touch(night)


@transaction.atomic
def door_prize_draw(*, night: Night) -> Night:
    """Draw the door prize (docs/rules.md section 7.5): a number is chosen at random and
    kept, and everyone present, in name order, is drawn from with it. Drawing again keeps
    the first number, so the draw can be checked and never changes."""
    night = night_lock(night.pk)
    if night.door_seed is None:
        night.door_seed = secrets.randbelow(2**31)
        night.save(update_fields=["door_seed"])
        night_touch(night)
    return night


# ---------------------------------------------------------------------------
# Table links


@transaction.atomic
def table_link_renew(*, table: Table) -> Table:
    """Give a table a new secret link (a lost phone, a link posted by mistake).

    The old link stops working at once: every table page and write looks the table
    up by its token. The table's entries and seats stay as they are. Its version moves:
    a board drawn for the old link (its links name the old token) is never sent as the
    new link's (``boards.py``).
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.token = new_token()
    table.version += 1
    table.save(update_fields=["token", "version"])
    return table

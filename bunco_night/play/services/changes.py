"""A tap stored, and after any change at a table: the bell as the rules say, and the versions
the pages poll."""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection
from django.db.models import F
from django.utils import timezone

from bunco_night.core.speed.compiled import (
    ID_MARKERS,
    CompiledUpdate,
    WriteBatch,
    prepared,
)
from bunco_night.nights.models import Night, Round, Table
from bunco_night.nights.services import (
    night_touch,
)
from bunco_night.rules.presets import HEAD_TABLE

from ..models import Entry, TablePlay
from ..state import TableRound, engine_bell, table_round_of
from .corrections import Recomputed, results_recompute


def _touch_table(rnd: Round, table: Table) -> bool | None:
    """Move the night's scores version and the table's version after a change at ``table``.
    Returns whether late taps wait at ``table``, or None when there is no such table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # one statement, one round trip
            cursor.execute(*prepared(connection, _BOTH_MOVE_SQL, [rnd.night_id, table.pk]))
        else:
            _NIGHT_SCORES_MOVE.run(rnd.night_id)
            cursor.execute(_TABLE_MOVE_SQL, [rnd.night_id, table.pk])
        row = cursor.fetchone()
    table.version += 1
    return bool(row[0]) if row else None


# _touch_table's two updates (one statement on PostgreSQL); the table's answers as
# pages._LATE_PROBE asks (tests/play/test_late_entries.py, tests/play/test_services.py).
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


def _after_change(rnd: Round, table: Table | None = None) -> bool | None:
    """Ring (or un-ring) the bell as the rules say and move the versions pages poll, after a
    change at ``table`` (None: anywhere). Returns ``_touch_table``'s answer."""
    moved = _may_move_bell(rnd, table) and _bell_move(rnd, engine_bell(rnd, rnd.night.rules_obj))
    return _versions_move(rnd, table, moved)


def _bell_move(rnd: Round, bell: bool) -> bool:
    """Ring the round's bell, or take it back, as ``bell`` (the rules') says; whether it moved."""
    if bell and rnd.bell_at is None:
        now = timezone.now()
        moved = bool(Round.objects.filter(pk=rnd.pk, bell_at__isnull=True).update(bell_at=now))
        rnd.bell_at = now if moved else rnd.bell_at
        return moved
    if not bell and rnd.bell_at is not None:
        moved = bool(Round.objects.filter(pk=rnd.pk).update(bell_at=None))
        rnd.bell_at = None if moved else rnd.bell_at
        if moved:
            _play_on(rnd)
        return moved
    return False


def _versions_move(rnd: Round, table: Table | None, bell_moved: bool) -> bool | None:
    """Move the versions pages poll after a change at ``table`` (None: anywhere): the table's,
    and the night's when the change is anywhere or moved the bell."""
    late_waiting = _touch_table(rnd, table) if table is not None else None
    if table is None or bell_moved:
        night_touch(rnd.night)
    return late_waiting


def _play_on(rnd: Round) -> None:
    """The bell was taken back: play goes on everywhere (docs/rules.md section 6.2); Dones
    and tie settlings after it go, a host's winner stays."""
    TablePlay.objects.filter(round=rnd, finished_turn=True).update(finished_turn=False)
    TablePlay.objects.filter(round=rnd).exclude(extra_passes=0, tiebreak_side=None).update(
        extra_passes=0, tiebreak_side=None
    )
    Entry.objects.filter(round=rnd, extra_pass__gt=0).update(extra_pass=0)


def _may_move_bell(rnd: Round, table: Table | None) -> bool:
    """Whether a change at ``table`` (None: anywhere) may move the bell (docs/rules.md 3.1)."""
    rules = rnd.night.rules_obj
    return (
        not rules.is_card_game
        and not rnd.bell_by_host
        and (table is None or rules.round_end != HEAD_TABLE or table.number == 1)
    )


class Settled(NamedTuple):
    """After a change at a table. In play: whether late taps wait there, and (for a tap) the
    table after it; closed: what the correction changed."""

    late_waiting: bool | None = None
    recomputed: Recomputed | None = None
    table_after: TableRound | None = None


def _settle(rnd: Round, table: Table) -> Settled:
    """After a change at ``table``: recompute a closed round, or ``_after_change`` in play."""
    if rnd.is_closed:
        return Settled(recomputed=results_recompute(rnd=rnd))
    return Settled(late_waiting=_after_change(rnd, table))


def entry_insert(entry: Entry, here: TableRound, batch: WriteBatch) -> Settled:
    """Store ``entry``, a new tap at ``here``'s table, then settle: a host's correction of a
    closed round is recomputed; else the bell rings as the rules say (if the tap may move it)
    and the versions move, and the table after is answered while in play. A tap that changes
    only its table (late, or unable to move the bell) is stored with the versions' move: on
    PostgreSQL in one statement, sent as ``batch``'s last."""
    rnd, table = entry.round, here.table
    if rnd.is_closed and not entry.is_late:
        _insert(entry)
        return Settled(recomputed=results_recompute(rnd=rnd))
    moves = not entry.is_late and _may_move_bell(rnd, table)
    if not moves:
        late_waiting = _insert_and_touch(entry, rnd, table, batch)
    elif batch.short:  # tap_alone says it changes only its table
        raise RuntimeError("A tap alone at its table would change more than its table.")
    else:
        _insert(entry)
    entries = here.entries if entry.is_late else [*here.entries, entry]
    after = table_round_of(rnd, here.seated, here.play, entries, bell_moves=moves)
    if moves:
        late_waiting = _versions_move(rnd, table, _bell_move(rnd, after.bell))
    return Settled(late_waiting, table_after=after if rnd.is_playing else None)


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

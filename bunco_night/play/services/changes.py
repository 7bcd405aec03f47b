"""After a change at a table: the bell as the rules say, and the versions the pages poll."""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection
from django.db.models import F
from django.utils import timezone

from bunco_night.core.speed.compiled import (
    ID_MARKERS,
    CompiledUpdate,
    prepared,
)
from bunco_night.nights.models import Night, Round, Table
from bunco_night.nights.selectors import (
    SeatedTable,
)
from bunco_night.nights.services import (
    night_touch,
)
from bunco_night.rules.presets import HEAD_TABLE

from ..models import Entry, TablePlay
from ..state import (
    engine_bell,
)
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


def _after_change(
    rnd: Round, table: Table | None = None, held: tuple[SeatedTable, list[Entry]] | None = None
) -> bool | None:
    """Ring (or un-ring) the bell as the rules say and move the versions pages poll. ``held``:
    the table's seats and entries if held. Returns ``_touch_table``'s answer."""
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
    """In play: whether late taps wait at the table; closed: what the correction changed."""

    late_waiting: bool | None = None
    recomputed: Recomputed | None = None


def _settle(
    rnd: Round, table: Table, held: tuple[SeatedTable, list[Entry]] | None = None
) -> Settled:
    """After a change at ``table``: recompute a closed round, or ``_after_change`` in play."""
    if rnd.is_closed:
        return Settled(recomputed=results_recompute(rnd=rnd))
    return Settled(late_waiting=_after_change(rnd, table, held))

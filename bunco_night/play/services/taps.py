"""A tap from a table phone, or a host's entry: stored once per nonce."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import IntegrityError, connection
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.core.speed.compiled import (
    Compiled,
    write_transaction,
)
from bunco_night.core.text import is_nonce
from bunco_night.nights.models import Round, Table
from bunco_night.rules.errors import RuleError
from bunco_night.rules.rounds import doubles_before
from bunco_night.rules.scoring import score_entry

from ..models import Entry, TablePlay
from ..state import TableRound
from .changes import entry_insert
from .corrections import Recomputed
from .locks import is_round_number, table_hold, tap_alone


@dataclass(frozen=True)
class TapResult:
    """What ``entry_record`` did: the ``entry`` stored (now or by a retry's first try).
    ``table_after``: the table after the write while in play; ``late_waiting``: whether late taps
    wait for the host; ``recomputed``: a closed round's changes. Else None."""

    entry: Entry
    table_after: TableRound | None = None
    late_waiting: bool | None = None
    recomputed: Recomputed | None = None


_ENTRY_BY_NONCE = Compiled(lambda nonce: Entry.objects.filter(nonce=nonce)[:1], "NONCE")


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
    """Store one tap from a table phone (or a host's correction), exactly once per nonce: a
    retry gets the entry stored, refused if it is another table's. ``kind``: points
    (``count`` 1-3), bunco, mini/low/high, miss, mark (``mark_code``) or dice. A tap after the
    table's round is over is kept late for the host, except extra turns (docs/rules.md
    sections 3.4 and 3.5). The host corrects a round with ``rnd``. ``waited_ms``: how long
    the tap waited on the phone. Raises ``ServiceError``."""
    if not is_nonce(nonce):
        raise ServiceError("This entry has no valid id: reload the page.", "bad_nonce")
    # A retry's entry is looked up first on SQLite (no wait for the writers' turn), on
    # PostgreSQL only when the write fails (saves a round trip per tap).
    existing = _ENTRY_BY_NONCE.instance(nonce) if connection.vendor != "postgresql" else None
    if existing is None:
        tap = {"nonce": nonce, "seat": seat, "kind": kind, "count": count}
        tap |= {"mark_code": mark_code, "dice": dice, "by_host": by_host, "waited_ms": waited_ms}
        try:
            return _entry_store(table, rnd, round_number, tap)
        except (IntegrityError, ServiceError):
            # The nonce was stored meanwhile: the write rolled back whole (no savepoint).
            existing = _ENTRY_BY_NONCE.instance(nonce)
            if existing is None:
                raise
    if existing.table_id != table.pk:
        raise ServiceError("This entry id belongs to another table.", "forged_nonce")
    return TapResult(existing)


def _entry_store(table: Table, rnd: Round | None, round_number: int | None, tap: dict) -> TapResult:
    """``entry_record``'s write for a new nonce (``tap``: ``_new_entry``'s keywords), one
    transaction; a tap alone at its table may use a short one."""
    by_host = tap["by_host"]
    alone = rnd is None and is_round_number(round_number) and tap_alone(table, by_host)
    with write_transaction(short=alone) as batch:
        rnd, play, here = table_hold(
            table, batch, by_host=by_host, rnd=rnd, round_number=round_number
        )
        entry = _new_entry(rnd, table, play, here, **tap)
        # A nonce stored meanwhile fails the insert: see entry_record.
        settled = entry_insert(entry, here, batch)
    return TapResult(entry, settled.table_after, settled.late_waiting, settled.recomputed)


def _new_entry(
    rnd: Round,
    table: Table,
    play: TablePlay,
    here: TableRound,
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
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= here.size:
        raise ServiceError("That seat is not at this table.", "bad_seat")
    rules = rnd.night.rules_obj
    if rules.is_card_game:
        raise ServiceError("In the card game the host enters each table's winner.", "card_game")
    streak = 0
    if rules.is_two_dice:
        streak = doubles_before(here.rolls, seat)
    try:
        scored = score_entry(
            kind,
            rules,
            count=count,
            dice=dice or (),
            mark=rnd.mark,
            mark_code=mark_code,
            doubles_before=streak,
        )
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
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
        kind=scored.kind,
        count=scored.mark_dice,
        mark_code=scored.mark_code,
        points=scored.points,
        reset=scored.reset,
        nonce=nonce,
        by_host=by_host,
        extra_pass=here.outcome.extra_passes + 1 if extra and not by_host else 0,
        late_at=now if late else None,
        tapped_at=now - dt.timedelta(milliseconds=waited_ms) if waited_ms else None,
    )

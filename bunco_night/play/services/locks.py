"""Holding a table's play or a round while it changes, and ringing a timed round's bell."""

from __future__ import annotations

from typing import NamedTuple

from bunco_night.core.errors import ServiceError
from bunco_night.core.speed.compiled import (
    ID_MARKERS,
    Compiled,
    WriteBatch,
)
from bunco_night.nights.models import Round, Seat, Table
from bunco_night.nights.services import night_touch
from bunco_night.rules.presets import HEAD_TABLE

from ..models import Entry, TablePlay
from ..state import TableRound, round_deadline, round_time_up, table_round_from

MAX_ROUND_NUMBER = 32767  # a PositiveSmallIntegerField


class Held(NamedTuple):
    """A table held for a change: the round, the table's play (locked) and where it stands."""

    round: Round
    play: TablePlay
    here: TableRound


def table_hold(
    table: Table,
    batch: WriteBatch,
    *,
    by_host: bool = False,
    rnd: Round | None = None,
    round_number: int | None = None,
) -> Held:
    """Lock the round a change at ``table`` is for, then the table's play, and read where the
    table stands: ``rnd`` (the host's, any round of the night), else the round numbered
    ``round_number``, else the one in play. A phone's tap alone at its table (``tap_alone``)
    locks only the play. The reads go with ``batch`` (with its BEGIN in a short one). Lock
    order: docs/architecture.md, Design notes. Raises ``ServiceError``."""
    number = _round_number(table, by_host, rnd, round_number)
    named = (table.night_id, number, table.pk)
    reads = [(_PLAY_BY_NUMBER, named), (_SEATS_BY_NUMBER, named), (_ENTRIES_BY_NUMBER, named)]
    alone = rnd is None and tap_alone(table, by_host)
    if not alone:
        reads.insert(0, (_ROUND_LOCKED, named[:2]))
    *locked, plays, seats, entries = batch.read(*reads)
    if not plays or not seats or locked == [[]]:
        if rnd is None:  # a phone's round: one not started, or no seats for it here
            named = table.night.rounds.filter(number=number).first()
            if named is None or named.is_pending:
                raise _not_started()
        raise ServiceError("This table has no seats in this round.", "not_in_round")
    held = locked[0][0] if locked else seats[0].round
    if rnd is not None:  # the caller's, refreshed
        for name in ("status", "bell_at", "bell_by_host", "started_at"):
            setattr(rnd, name, getattr(held, name))
    elif held.is_pending:
        raise _not_started()
    else:
        rnd, rnd.night = held, table.night
    _ring_when_time_up(rnd)
    return Held(rnd, plays[0], table_round_from(rnd, table, plays[0], seats, entries))


def tap_alone(table: Table, by_host: bool) -> bool:
    """Whether a tap locks only its table's play, not the round: a phone's tap under
    head-table rules (docs/rules.md section 3.1), off the head table, in an untimed round.
    Why that is safe: docs/architecture.md, Design notes."""
    rules = table.night.rules_obj
    return (
        not by_host and table.number != 1 and rules.round_end == HEAD_TABLE and not rules.is_timed
    )


def is_round_number(value) -> bool:
    """A round's number is a small positive integer: any other is no round of the night."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ROUND_NUMBER


def _round_number(table: Table, by_host: bool, rnd: Round | None, round_number) -> int:
    """The number of the round a change at ``table`` is for (see ``table_hold``)."""
    if rnd is not None:
        if not by_host:
            raise ServiceError("Only the host can correct another round.", "not_host")
        if rnd.night_id != table.night_id:
            raise ServiceError("That round is not this table's night.", "other_night")
        return rnd.number
    if round_number is None:
        return _playing_round(table).number
    if not is_round_number(round_number):
        raise _not_started()
    return round_number


# A change's reads by the night, the round's number and the table (core/speed/compiled.py):
# the round's row (not for a tap alone), the table's play locked, its seats with the round,
# its counting entries.
_ROUND_LOCKED = Compiled(
    lambda night, number: (
        Round.objects.select_for_update(no_key=True)
        .filter(night_id=night, number=number)
        .order_by()[:1]
    ),
    ID_MARKERS[0],
    MAX_ROUND_NUMBER,  # a number marker must be one the field takes
)


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


def _playing_round(table: Table) -> Round:
    rnd = table.night.rounds.playing().first()
    if rnd is None:
        if table.night.is_over:
            raise ServiceError("This night is over: scores are closed.", "night_over")
        raise ServiceError("No round is being played right now.", "no_round")
    return rnd


# The reads every tap makes, written once (bunco_night/core/speed/compiled.py).
_PLAY_LOCKED = Compiled(
    lambda rnd, table: (
        TablePlay.objects.select_for_update()
        .filter(round_id=rnd, table_id=table)
        .order_by("pk")[:1]
    ),
    *ID_MARKERS[:2],
)


def _lock_play(rnd: Round, table: Table, *, locked: bool = False) -> TablePlay:
    """Lock the round's row (``no_key``), then the table's play, and refresh ``rnd``
    (``locked``: already locked). Lock order: docs/architecture.md, Design notes."""
    if not locked:
        rnd.refresh_from_db(
            fields=["status", "bell_at", "bell_by_host", "started_at"],
            from_queryset=Round.objects.select_for_update(no_key=True),
        )
    play = _PLAY_LOCKED.instance(rnd.pk, table.pk)
    if play is None:
        raise ServiceError("This table has no seats in this round.", "not_in_round")
    _ring_when_time_up(rnd)
    return play


def _lock_plays(rnd: Round) -> None:
    """Lock every play of ``rnd`` (the round's row held), so taps alone wait."""
    list(TablePlay.objects.select_for_update().filter(round=rnd).order_by("pk").values_list("pk"))


def _not_started() -> ServiceError:
    """The answer to a tap for a round that is not being played or closed."""
    return ServiceError("That round has not started.", "no_round")


def _ring_when_time_up(rnd: Round) -> bool:
    """Ring a timed round's bell once its time is up (docs/rules.md section 3.8): an
    idempotent update by the first request after the deadline (no server timer)."""
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

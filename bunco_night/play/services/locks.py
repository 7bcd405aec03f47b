"""Holding a table's play or a round while it changes, and ringing a timed round's bell."""

from __future__ import annotations

from bunco_night.core.errors import ServiceError
from bunco_night.core.speed.compiled import (
    ID_MARKERS,
    Compiled,
)
from bunco_night.nights.models import Round, Table
from bunco_night.nights.services import (
    night_touch,
)

from ..models import TablePlay
from ..state import (
    round_deadline,
    round_time_up,
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
    _ring_when_time_up(rnd)
    play = _PLAY_LOCKED.first(rnd.pk, table.pk)
    if play is None:
        raise ServiceError("This table has no seats in this round.", "not_in_round")
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

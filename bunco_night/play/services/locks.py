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


def _lock_plays(rnd: Round) -> None:
    """Lock every play of ``rnd`` (the caller holds the round's row): taps alone at their
    tables (``_tap_alone``) in progress are waited for, and later ones wait."""
    list(TablePlay.objects.select_for_update().filter(round=rnd).order_by("pk").values_list("pk"))


def _not_started() -> ServiceError:
    """The answer to a tap for a round that is not being played or closed."""
    return ServiceError("That round has not started.", "no_round")


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

"""A round in play: its start, its clock and bell, a table's Done, extra turns and
tie-breaks, and the winner the host sets."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Night, Round, Table
from bunco_night.nights.services import (
    night_lock,
    night_touch,
)

from ..models import TablePlay
from ..state import (
    round_seconds_left,
    table_round,
)
from .changes import _after_change, _settle
from .corrections import PlayChanged
from .locks import _lock_play, _lock_plays, _playing_round, _ring_when_time_up


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


def round_clock(*, night: Night) -> int | None:
    """Ring the bell if the round in play's time is up; seconds left, or None untimed
    (then no transaction at all)."""
    rules = night.rules_obj
    if not rules.is_timed:
        return None
    with transaction.atomic():
        rnd = night.rounds.playing().first()
        if rnd is None:
            return None
        _ring_when_time_up(rnd)
        return round_seconds_left(rnd, rules)


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
        # Extra turns after it must be undone first.
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
        # A roll-off's winner recorded after the Done goes with it (docs/rules.md 6.2).
        play.tiebreak_side = None
    play.finished_turn = done
    play.save(update_fields=["finished_turn", "tiebreak_side"])
    _after_change(rnd, table)
    return play


@transaction.atomic
def extra_turns_done(*, table: Table, done: bool = True, passes: int | None = None) -> TablePlay:
    """A pass of extra turns is done (docs/rules.md section 3.4), or with ``done`` False
    taken back (6.2); ``passes`` as the phone saw them makes a repeat a no-op."""
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
) -> PlayChanged:
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
    return PlayChanged(play, _settle(rnd, table).recomputed)


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
def winner_set(*, rnd: Round, table: Table, side: int | None) -> PlayChanged:
    """The host sets a table's winner over the scores, or with None lets the scores
    decide (docs/rules.md sections 3.1 and 6.2)."""
    play = _lock_play(rnd, table)
    here = table_round(rnd, table, play)
    if side is not None and (here is None or not 0 <= side < here.seated.game.sides):
        raise ServiceError("Pick one of the table's sides.", "bad_winner")
    play.winner_side = side
    if side is None and here is not None:
        outcome = here.outcome
        play.finished_turn |= outcome.stopped and not outcome.done and not outcome.waiting_for
    play.save(update_fields=["winner_side", "finished_turn"])
    return PlayChanged(play, _settle(rnd, table).recomputed)

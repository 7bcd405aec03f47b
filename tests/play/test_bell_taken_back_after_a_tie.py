"""A bell taken back after a tied table began settling its tie: the round plays on there
too (docs/rules.md sections 3.4 and 6.2)."""

import pytest

from bunco_night.play.models import Entry, TablePlay
from bunco_night.play.services import (
    entry_undo,
    extra_turns_done,
    table_done,
    tiebreak_record,
)
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


def ring_at_the_head_table(night):
    """House rules, head-table control: the head table's 11th +2 rings the bell; that tap."""
    head = night.tables.get(number=1)
    last = None
    for _ in range(11):
        last = tap(head, 1, "points", 2)
    return head, last


def state(rnd, table):
    rnd.refresh_from_db()
    return round_board(rnd).table(table.pk)


def tied_at_the_bell(**knobs):
    """Twelve players; table 2 at 0-0 (a miss each) taps Done after the head table's tap
    rang the bell: the round, table 2, the head table and that tap."""
    night = make_night(make_group(regulars=12, **knobs), sets=1)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    for seat in range(1, 5):
        tap(t2, seat, "miss")
    head, ringing = ring_at_the_head_table(night)
    table_done(table=t2)
    return rnd, t2, head, ringing


def test_extra_turns_played_after_a_bell_taken_back_count_as_play():
    rnd, t2, head, ringing = tied_at_the_bell()
    assert state(rnd, t2).outcome.in_extra_turns
    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)  # still tied, 1-1: a second pass
    second = tap(t2, 3, "points", 2)
    assert second.extra_pass == 2 and state(rnd, t2).outcome.in_extra_turns

    entry_undo(table=head, entry_id=ringing.pk)  # the head table's mis-tap: no bell
    now = state(rnd, t2)
    assert not round_board(rnd).bell
    assert not now.outcome.done and not now.outcome.in_extra_turns
    assert now.play.extra_passes == 0 and not now.play.finished_turn
    assert now.scores == (3, 1)  # the extra turns' rolls count as play
    assert not Entry.objects.filter(round=rnd, extra_pass__gt=0).exists()

    # Play on; when the bell rings again, a tie is settled from the start.
    tap(t2, 2, "points", 2)  # 3-3
    tap(head, 1, "points", 2)
    table_done(table=t2)
    again = state(rnd, t2)
    assert again.outcome.in_extra_turns and again.outcome.extra_passes == 0
    assert tap(t2, 1, "points", 1).extra_pass == 1


def test_a_roll_off_winner_recorded_after_a_bell_taken_back_is_forgotten():
    rnd, t2, head, ringing = tied_at_the_bell(tie_break="roll_off")
    tiebreak_record(table=t2, side=1)
    assert state(rnd, t2).winner_side == 1

    entry_undo(table=head, entry_id=ringing.pk)
    now = state(rnd, t2)
    assert now.winner_side is None and not now.outcome.done
    assert TablePlay.objects.get(round=rnd, table=t2).tiebreak_side is None


def test_the_hosts_own_choice_of_a_winner_stays_when_the_bell_is_taken_back():
    from bunco_night.play.services import winner_set

    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    head, ringing = ring_at_the_head_table(night)
    winner_set(rnd=rnd, table=t2, side=0)
    entry_undo(table=head, entry_id=ringing.pk)
    assert state(rnd, t2).winner_side == 0

"""Entries after a table's round is over are kept aside for the host (docs/rules.md section 3.5),
and a tie's extra turns are entered after Done (section 3.4)."""

import pytest

from bunco_night.core.errors import ServiceError
from bunco_night.play.models import Entry
from bunco_night.play.services import (
    bell_ring,
    entry_record,
    entry_undo,
    extra_turns_done,
    late_entry_decide,
    round_close,
    round_start,
    table_done,
)
from bunco_night.play.standings import night_standings
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import nonce, play_round, start_night, tap, tap_result

pytestmark = pytest.mark.django_db


def tables(rnd):
    return [tr.table for tr in round_board(rnd).tables]


def outcome(rnd, table):
    rnd.refresh_from_db()
    return round_board(rnd).table(table.pk)


def misses_and_a_lead(table):
    """Everyone at ``table`` has rolled once, and seats 1 and 3 lead 2-0 (not a tie)."""
    for seat in range(1, 5):
        tap(table, seat, "miss")
    tap(table, 1, "points", 2)


def done_with_a_lead(night, table):
    """The host rang the bell and ``table`` pressed Done leading 2-0: its round is over."""
    misses_and_a_lead(table)
    bell_ring(night=night)
    table_done(table=table)


def test_after_a_deluxe_bunco_ended_the_round_a_tap_is_late_and_changes_nothing():
    night = make_night(make_group(rules="deluxe", regulars=12), sets=1)
    rnd = start_night(night)
    t1, t2, t3 = tables(rnd)
    tap(t2, 1, "points", 2)
    tap(t1, 1, "bunco")  # ends the round everywhere: t2's leader (seat 1's team) wins
    assert round_board(rnd).bell and outcome(rnd, t2).winner_side == 0
    late = tap(t2, 2, "points", 2)  # from a phone that was offline: would make it 2-2
    late_bunco = tap(t2, 2, "bunco")
    assert late.is_late and late_bunco.is_late
    board = round_board(rnd)
    assert board.table(t2.pk).scores == (2, 0) and board.table(t2.pk).winner_side == 0
    assert Entry.objects.late_pending().count() == 2


def test_a_late_bunco_at_a_table_that_pressed_done_rings_nothing():
    night = make_night(make_group(regulars=12), sets=1)  # house: the head table controls
    rnd = start_night(night)
    t1, t2, t3 = tables(rnd)
    for t in (t1, t2, t3):
        for seat in range(1, 5):
            tap(t, seat, "miss")
    while round_board(rnd).table(t1.pk).scores[0] < 21:
        tap(t1, 1, "points", 2)
    rnd.refresh_from_db()
    bell_at = rnd.bell_at
    assert bell_at is not None
    tap(t2, 1, "points", 2)  # a lead, so Done ends the round here (no tie to break)
    table_done(table=t2)
    late = tap(t2, 2, "bunco")
    assert late.is_late
    rnd.refresh_from_db()
    assert rnd.bell_at == bell_at
    assert round_board(rnd).table(t2.pk).scores == (2, 0)


def test_after_the_head_table_reached_its_target_one_more_head_tap_is_late():
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t1 = tables(rnd)[0]
    for seat in range(1, 5):
        tap(t1, seat, "miss")
    while round_board(rnd).table(t1.pk).scores[0] < 21:
        tap(t1, 1, "points", 2)
    assert outcome(rnd, t1).winner_side == 0
    late = tap(t1, 2, "bunco")  # would flip the head table's winner
    assert late.is_late
    assert outcome(rnd, t1).winner_side == 0


def test_taps_from_a_phone_that_missed_done_are_kept_not_refused():
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t1, t2, t3 = tables(rnd)
    done_with_a_lead(night, t2)
    queued = [tap(t2, 3, "points", 1) for _ in range(3)]
    assert all(e.is_late for e in queued)
    assert Entry.objects.filter(table=t2, late_at__isnull=False).count() == 3


def test_the_host_accepts_one_late_entry_and_discards_two_and_the_scores_follow():
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t2 = tables(rnd)[1]

    done_with_a_lead(night, t2)
    late = [tap(t2, 2, "points", 2), tap(t2, 2, "points", 1), tap(t2, 4, "points", 2)]
    late_entry_decide(entry=late[0], accept=True)
    late_entry_decide(entry=late[1], accept=False)
    late_entry_decide(entry=late[2], accept=False)
    assert round_board(rnd).table(t2.pk).scores == (2, 2)
    assert not Entry.objects.late_pending().exists()
    assert Entry.objects.get(pk=late[1].pk).late_decision == Entry.Late.DISCARDED
    with pytest.raises(ServiceError) as caught:
        late_entry_decide(entry=late[0], accept=False)
    assert caught.value.code == "not_late"


def test_a_tap_for_a_closed_round_is_late_for_that_round_and_accepting_it_changes_results():
    night = make_night(make_group(regulars=12), sets=1)
    start_night(night)
    play_round(night, winners=[1, 1, 1])
    round_one = night.rounds.get(number=1)
    t3 = tables(round_one)[2]
    # Queued on a phone during round 1, sent after the round closed.
    late = entry_record(table=t3, nonce=nonce(), seat=2, kind="bunco", round_number=1).entry
    assert late.round_id == round_one.pk and late.is_late
    assert night_standings(night).buncos_rolled == 0
    assert round_one.seats.get(player=late.roller).buncos == 0
    late_entry_decide(entry=late, accept=True)
    assert night_standings(night).buncos_rolled == 1
    assert round_one.seats.get(player=late.roller).buncos == 1  # the results follow


def test_a_late_entry_cannot_be_undone_from_the_phone():
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t2 = tables(rnd)[1]
    done_with_a_lead(night, t2)
    late = tap(t2, 1, "points", 1)
    with pytest.raises(ServiceError) as caught:
        entry_undo(table=t2, entry_id=late.pk)
    assert caught.value.code == "round_closed"


def test_extra_turns_at_a_table_of_three_let_the_untied_player_win():
    """Section 3.4: each player takes one more turn and the scores are added again, so the
    player who was not tied can win."""
    night = make_night(make_group(regulars=11), sets=1)  # house: 4 + 4 + 3
    rnd = start_night(night)
    t3 = tables(rnd)[2]
    for points in ((1, 2), (2, 2), (3, 1)):
        seat, score = points
        for _ in range(score):
            tap(t3, seat, "points", 2)

    bell_ring(night=night)
    table_done(table=t3)
    here = outcome(rnd, t3)
    assert here.scores == (4, 4, 2)
    assert here.outcome.in_extra_turns and here.outcome.tied_sides == (0, 1)
    # The extra turns count: seat 3 rolls a bunco, seats 1 and 2 miss.
    extra = [tap(t3, 1, "miss"), tap(t3, 2, "miss"), tap(t3, 3, "bunco")]
    assert not any(e.is_late for e in extra) and {e.extra_pass for e in extra} == {1}
    assert outcome(rnd, t3).outcome.in_extra_turns  # until the table says the turns are done
    extra_turns_done(table=t3)
    here = outcome(rnd, t3)
    assert not here.outcome.in_extra_turns and here.winner_side == 2
    assert here.scores == (4, 4, 23)


def test_still_tied_after_the_extra_turns_means_another_pass():
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t2 = tables(rnd)[1]
    for seat in range(1, 5):
        tap(t2, seat, "miss")

    bell_ring(night=night)
    table_done(table=t2)
    assert outcome(rnd, t2).outcome.in_extra_turns  # 0-0
    # "Extra turns done" before anyone has rolled again is a mis-tap: refused, in words.
    with pytest.raises(ServiceError) as caught:
        extra_turns_done(table=t2)
    assert caught.value.code == "no_extra_rolls"
    assert "Enter each player's extra turn first" in caught.value.message
    assert outcome(rnd, t2).outcome.extra_passes == 0
    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)
    here = outcome(rnd, t2).outcome
    assert here.in_extra_turns and here.extra_passes == 1
    with pytest.raises(ServiceError) as caught:  # the second pass needs its rolls too
        extra_turns_done(table=t2)
    assert caught.value.code == "no_extra_rolls"
    second = tap(t2, 2, "points", 2)
    assert second.extra_pass == 2
    undo = tap(t2, 1, "points", 1)
    entry_undo(table=t2, entry_id=undo.pk)  # an extra turn can be undone by the table
    extra_turns_done(table=t2)
    assert outcome(rnd, t2).winner_side == 1
    with pytest.raises(ServiceError) as caught:
        extra_turns_done(table=t2)
    assert caught.value.code == "no_extra_turns"


def test_a_round_closes_with_a_late_entry_waiting_and_the_next_round_takes_taps():
    night = make_night(make_group(regulars=12), sets=1)
    start_night(night)
    rnd = night.rounds.get(number=1)
    t2 = tables(rnd)[1]
    play_round(night, winners=[1, 1, 1])
    round_start(night=night)
    late = entry_record(table=t2, nonce=nonce(), seat=1, kind="bunco", round_number=1).entry
    now = entry_record(table=t2, nonce=nonce(), seat=1, kind="points", count=1).entry
    assert late.is_late and late.round_id == rnd.pk
    assert not now.is_late and now.round.number == 2
    with pytest.raises(ServiceError) as caught:
        round_close(rnd=rnd)
    assert caught.value.code == "round_not_playing"


def test_a_tap_says_whether_late_taps_wait_at_its_table_as_the_probe_would():
    """The tap's own update says whether late taps wait at the table (the table's page
    then asks no more); it must say what the page's own probe says."""
    from bunco_night.play import pages
    from bunco_night.play.services import changes

    night = make_night(make_group(rules="deluxe", regulars=12), sets=1)
    rnd = start_night(night)
    t1, t2, _ = tables(rnd)

    def says(done, table):
        waiting = bool(pages._LATE_PROBE.first_row(table.pk))
        assert done.late_waiting is waiting
        # The page drawn from what the write said lists the same late taps as a fresh one.
        listed = [e.pk for e in pages._late_taps(table, done.late_waiting)]
        assert listed == [e.pk for e in pages._late_taps(table)]
        return waiting

    assert says(tap_result(t2, 1, "points", 2), t2) is False
    assert says(tap_result(t1, 1, "bunco"), t1) is False  # ends the round everywhere
    late = tap_result(t2, 2, "points", 2)
    assert late.entry.is_late and says(late, t2) is True
    late_entry_decide(entry=late.entry, accept=False)
    again = tap_result(t2, 3, "points", 1)  # late too, and now the only one waiting
    assert again.entry.is_late and says(again, t2) is True
    assert [e.pk for e in pages._late_taps(t2)] == [again.entry.pk]
    assert pages._late_taps(t1) == []  # none waits at the other table
    # The host undoes it: none waits any more, as the next change at the table says.
    entry_undo(table=t2, entry_id=again.entry.pk, by_host=True)
    assert pages._late_taps(t2) == []
    assert changes._touch_table(rnd, t2) is False

"""A host's correction to a closed round and the next round's seating, on PostgreSQL,
each on its own connection, committing.

A correction that changes a table's winner seats the unplayed next round again by the
movement (docs/rules.md section 6.2). It reads the winners and the next round only once
it holds the night, as a draw, a swap or a start of that round do: the two serialise,
and the next round is never seated from winners or a seating another write is changing.
It takes the night after its table's play, as a tap does: a late tap at that table and
the correction both go through.
"""

import threading

import pytest
from django.db import connection, transaction

from bunco_night.core.speed.compiled import WriteBatch
from bunco_night.nights.services import seating_draw
from bunco_night.play import services
from bunco_night.play.services import changes, locks
from bunco_night.play.state import round_board
from bunco_night.rules.movement import next_seating
from tests.factories import make_group, make_night
from tests.locks import held_elsewhere, host_waiting
from tests.play.helpers import play_round, start_night

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks"),
    pytest.mark.django_db(transaction=True),
]


def first_round_closed():
    """Twelve at three tables: round 1 closed (seat 1's team won everywhere), round 2
    seated by the movement, not started."""
    night = make_night(make_group())
    start_night(night)
    play_round(night)
    return night, night.rounds.get(number=1), night.rounds.get(number=2)


def seating(rnd):
    return tuple(tuple(s.player_id for s in tv.seats) for tv in round_board(rnd).tables)


def won(rnd, table):
    return {s.number for s in round_board(rnd).table(table.pk).seats if s.won}


def test_a_correction_waits_for_a_draw_of_the_next_round_then_seats_it_by_the_movement():
    night, rnd, nxt = first_round_closed()
    t1 = night.tables.get(number=1)
    # The host draws round 2 again while correcting round 1's head table: the correction
    # reads round 2 once the draw has committed, and seats it from the corrected winners.
    with (
        held_elsewhere(lambda: seating_draw(night=night, seed=2), commit=True) as commit,
        host_waiting(services.winner_set, rnd=rnd, table=t1, side=1),
    ):
        commit()
    night.refresh_from_db()
    assert night.seed == 2  # the draw went through first
    assert won(rnd, t1) == {2, 4}
    board = round_board(rnd)
    winners = [tv.seated.game.side_seats(tv.winner_side) for tv in board.tables]
    assert seating(nxt) == next_seating(night.rules_obj, seating(rnd), winners)
    assert nxt.seats.count() == 12  # one seating, not the draw's and the movement's


def test_a_correction_waits_for_the_next_rounds_start_and_leaves_its_seating_alone():
    night, rnd, nxt = first_round_closed()
    t1 = night.tables.get(number=1)
    started_with = seating(nxt)
    # The host starts round 2 while correcting round 1: round 2 is played as it started,
    # and round 1's results follow the correction.
    with (
        held_elsewhere(lambda: services.round_start(night=night), commit=True) as commit,
        host_waiting(services.winner_set, rnd=rnd, table=t1, side=1),
    ):
        commit()
    nxt.refresh_from_db()
    assert nxt.is_playing
    assert seating(nxt) == started_with
    assert won(rnd, t1) == {2, 4}


def test_a_correction_and_a_late_tap_at_its_table_both_go_through():
    # A late tap at a closed round holds its table's play, then moves the night's scores
    # version. A correction at that table waits for the play before it takes the night:
    # taken the other way round, the two would wait for each other.
    night, rnd, _ = first_round_closed()
    t2 = night.tables.get(number=2)
    locked, go, failed = threading.Event(), threading.Event(), []

    def late_tap():
        try:
            with transaction.atomic():
                locks.table_hold(t2, WriteBatch(short=False), round_number=1)
                locked.set()
                go.wait(10)
                changes._touch_table(rnd, t2)
        except Exception as error:  # noqa: BLE001 - the test reports it
            failed.append(error)
        finally:
            locked.set()
            connection.close()

    phone = threading.Thread(target=late_tap)
    phone.start()
    assert locked.wait(10) and not failed, failed
    with host_waiting(services.winner_set, rnd=rnd, table=t2, side=1):
        go.set()
        phone.join(10)
    assert not phone.is_alive() and not failed, failed
    assert won(rnd, t2) == {2, 4}

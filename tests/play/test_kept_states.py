"""Each table's state, kept with its board for the host's screens (bunco_night/play/
boards.py, ``state.round_board``): the screens decide the room's bell and whether every
table is done from it as from the entries read afresh, through Done, tie-breaks, extra
turns, the host's winner, late entries and the next round (docs/rules.md sections 3.4,
3.5 and 3.6)."""

import json

import pytest
from django.urls import reverse

from bunco_night.nights.models import Night, Table
from bunco_night.nights.selectors import current_round
from bunco_night.play import live, state
from bunco_night.play.models import Board
from bunco_night.play.services import (
    bell_ring,
    extra_turns_done,
    late_entry_decide,
    round_close,
    round_start,
    table_done,
    tiebreak_record,
    winner_set,
)
from bunco_night.rules.rounds import TableState
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db


def poll_all(client, night):
    """Every table's phone polls: each table's board and state are kept at its version."""
    for t in night.tables.all():
        client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})


def check(client, night, what) -> int:
    """After every table polled, the screens' light read decides as the full read, every
    kept state current now is the state read afresh; how many kept states were current."""
    poll_all(client, night)
    night.refresh_from_db()
    rnd = current_round(night)
    if not rnd.is_playing:
        return 0
    full = state.round_board(rnd)
    used = 0
    for kept in Board.objects.exclude(state=""):
        t = Table.objects.get(pk=kept.table_id)
        if kept.version == f"{night.version}.{t.version}" and full.table(t.pk):
            used += 1
            assert TableState.from_data(json.loads(kept.state)) == full.table(t.pk).state, what
    light = state.screen_board(rnd, [tr.table.pk for tr in full.tables])
    assert (light.bell, light.over) == (full.bell, full.over), what
    assert [(tr.state, tr.outcome) for tr in light.tables] == [
        (tr.state, tr.outcome) for tr in full.tables
    ], what
    return used


def test_done_extra_turns_late_entries_and_the_host_s_winner(client):
    night = make_night(make_group(regulars=12), sets=1)
    rnd = start_night(night)
    t1, t2, t3 = night.tables.order_by("number")
    assert check(client, night, "start") == 3
    for seat in range(1, 5):
        tap(t2, seat, "miss")
        tap(t3, seat, "miss")
    tap(t3, 1, "points", 2)
    assert check(client, night, "taps") == 3
    bell_ring(night=night)
    assert check(client, night, "bell") == 3
    table_done(table=t2)  # 0-0: extra turns (section 3.4)
    table_done(table=t3)
    assert check(client, night, "done") == 3
    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    assert check(client, night, "an extra turn") == 3
    extra_turns_done(table=t2)  # still tied: another pass
    assert check(client, night, "extra turns done") == 3
    tap(t2, 2, "points", 2)
    extra_turns_done(table=t2)
    assert check(client, night, "extra turns done again") == 3
    late = tap(t3, 2, "points", 3)
    assert late.is_late
    assert check(client, night, "a late tap") == 3
    late_entry_decide(entry=late, accept=True)  # section 3.5
    assert check(client, night, "late tap accepted") == 3
    for seat in range(1, 5):
        tap(t1, seat, "miss")
    table_done(table=t1)  # 0-0 at the head table
    assert check(client, night, "head table done") == 3
    winner_set(rnd=rnd, table=t1, side=0)
    assert check(client, night, "the host's winner") == 3
    rnd.refresh_from_db()
    assert state.round_board(rnd).over
    round_close(rnd=rnd)
    round_start(night=night)
    assert check(client, night, "next round") == 3


def test_a_roll_off(client):
    night = make_night(make_group(regulars=12, tie_break="roll_off"), sets=1)
    start_night(night)
    t3 = night.tables.get(number=3)
    for seat in range(1, 5):
        tap(t3, seat, "miss")
    bell_ring(night=night)
    table_done(table=t3)
    assert check(client, night, "tied") == 3
    tiebreak_record(table=t3, side=1)
    assert check(client, night, "roll-off recorded") == 3


def test_the_next_round_never_takes_the_last_round_s_states(client):
    # A table's version does not move with the round: round 1's states stay kept at
    # "night version then.table version".
    night = make_night(make_group(regulars=12), sets=2)
    start_night(night)
    play_round(night, close=False)
    assert check(client, night, "every table done") == 3
    round_close(rnd=current_round(night))
    round_start(night=night)
    night.refresh_from_db()
    nxt = current_round(night)
    light = state.screen_board(nxt, [t.pk for t in night.tables.all()])
    full = state.round_board(nxt)
    assert (light.bell, light.over) == (full.bell, full.over) == (False, False)
    assert [tr.state for tr in light.tables] == [tr.state for tr in full.tables]


def test_a_screen_s_poll_that_read_the_night_before_the_round_changed(client):
    """The poll's view reads the night (version N), then the host closes round 1 and
    starts round 2, then the poll reads the round in play: round 1's states and drawings,
    kept at "N.table version", are not taken for round 2's."""
    night = make_night(make_group(regulars=12), sets=2)
    start_night(night)
    play_round(night, close=False)
    assert check(client, night, "every table done") == 3
    read_before = Night.objects.get(pk=night.pk)
    round_close(rnd=current_round(night))
    round_start(night=night)
    update = live.board_update(read_before, f"{read_before.version}.0", "live")
    nxt = current_round(Night.objects.get(pk=night.pk))
    assert update.round.pk == nxt.pk and nxt.number == 2
    full = state.round_board(nxt)
    assert (update.board.bell, update.board.over) == (full.bell, full.over) == (False, False)
    assert update.kept == [] and len(update.tables) == 3  # every table drawn afresh


def test_a_card_party_s_screens_decide_from_the_plays(client):
    # Its tables keep a board for the phones but no state: the host enters each winner.
    night = make_night(make_group(rules="card_1904", regulars=9), sets=1)
    start_night(night)
    poll_all(client, night)
    assert Board.objects.count() > 0 and not Board.objects.exclude(state="").exists()
    night.refresh_from_db()
    update = live.board_update(night, f"{night.version}.0", "live")
    assert update is not None and not update.bell and not update.board.over

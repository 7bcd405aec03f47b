"""Timed rounds: docs/rules.md section 3.8. The clock is the caller's; the engine is told
``time_up`` and rings the bell, and each table's leader wins."""

import pytest

from bunco_night.rules.presets import DELUXE, HOUSE, TWO_DICE
from bunco_night.rules.rounds import (
    BELL_HEAD_TABLE,
    BELL_HOST,
    BELL_TIME,
    Entry,
    TableState,
    bell_reason,
    round_status,
    seconds_left,
)
from bunco_night.rules.simulate import SECONDS_PER_ROLL, simulate_night


def state(number, scores, *, rolled=(1, 2, 3, 4), finished_turn=False, tiebreak_winner=None):
    entries = [Entry(seat, points, "points") for seat, points in scores]
    entries += [Entry(seat, 0, "miss") for seat in rolled]
    return TableState.from_entries(
        number=number,
        size=4,
        teams=True,
        target=21,
        entries=entries,
        finished_turn=finished_turn,
        tiebreak_winner=tiebreak_winner,
    )


@pytest.mark.parametrize(
    ("minutes", "elapsed", "left"),
    [(0, 30, None), (10, 0, 600), (10, 599.5, 0.5), (10, 600, 0), (10, 900, 0)],
)
def test_seconds_left(minutes, elapsed, left):
    assert seconds_left(HOUSE.with_(round_minutes=minutes), elapsed) == left


def test_time_up_counts_only_when_rounds_are_timed():
    tables = [state(1, [(1, 5)])]
    assert bell_reason(HOUSE, tables, time_up=True) is None
    assert bell_reason(HOUSE.with_(round_minutes=15), tables, time_up=True) == BELL_TIME
    # The host's own bell comes first; a head table at its target is its own reason.
    assert bell_reason(HOUSE.with_(round_minutes=15), tables, time_up=True, bell_rung=True) == (
        BELL_HOST
    )
    assert bell_reason(HOUSE, [state(1, [(1, 21)])]) == BELL_HEAD_TABLE


def test_head_table_control_time_up_is_like_the_host_s_bell():
    """Section 3.8 with 3.1: every table, the head table too, finishes the turn in play,
    lets anyone who has not rolled take a turn, taps Done; the leader wins."""
    rules = HOUSE.with_(round_minutes=15)
    tables = [state(1, [(1, 12), (2, 9)]), state(2, [(2, 4)], rolled=(2, 3, 4))]
    status = round_status(rules, tables, time_up=True)
    assert status.bell and status.reason == BELL_TIME and not status.over
    head, other = status.tables
    assert head.stopped and not head.done  # it finishes the turn in play
    assert other.waiting_for == {1}
    tables = [
        state(1, [(1, 12), (2, 9)], finished_turn=True),
        state(2, [(2, 4)], finished_turn=True),
    ]
    status = round_status(rules, tables, time_up=True)
    assert status.over and [t.winner_side for t in status.tables] == [0, 1]


@pytest.mark.parametrize("rules", [DELUXE, TWO_DICE])
def test_every_table_and_any_table_time_up_stops_every_table(rules):
    """Section 3.8 with 3.2 and 3.9: a table without a winner stops at once and its leader
    wins; a table already at its target keeps its winner; a tie waits for its tie-break."""
    timed = rules.with_(round_minutes=20)
    tables = [state(1, [(1, 21)]), state(2, [(2, 7), (1, 3)]), state(3, [(1, 4), (2, 4)])]
    before = round_status(timed, tables)
    assert before.tables[0].done and before.tables[1].stopped == (rules is TWO_DICE)
    status = round_status(timed, tables, time_up=True)
    assert status.bell and status.reason == BELL_TIME
    assert [t.winner_side for t in status.tables] == [0, 1, None]
    assert status.tables[2].needs_tiebreak and not status.over


def test_a_timed_night_in_the_simulator():
    """With a pretend clock of one roll per table every ``SECONDS_PER_ROLL`` seconds, a
    one-minute round stops after six rolls at each table, and every round says so."""
    rules = DELUXE.with_(round_minutes=1)
    night = simulate_night(players=8, rules=rules, seed=4)
    assert all(r["time_up"] for r in night["rounds"])
    ticks = 60 // SECONDS_PER_ROLL
    for rnd in night["rounds"]:
        for table in rnd["tables"]:
            assert len(table["rolls"]) <= ticks or table["tiebreak"]
    untimed = simulate_night(players=8, rules=DELUXE, seed=4)
    assert all("time_up" not in r for r in untimed["rounds"])

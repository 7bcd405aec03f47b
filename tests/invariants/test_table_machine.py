"""A round's play from the table phones, checked by a Hypothesis state machine: taps of any
kind, undo, Done, "Extra turns done", tie-breaks and the host's bell, in any order, on the
head-table presets and on two-dice bunko (the first side anywhere, docs/rules.md 3.9, 9.2).

After every step it checks (docs/rules.md section 3):

- every change is taken or refused with a message (a ``ServiceError``), never an error;
- the bell the round row keeps is the rules' bell for the room as its entries stand;
- the host's screens (read lightly, from scoring columns and kept states) and a table
  phone's page (one table read alone) say what the whole room's read says of each table.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter

import pytest
from django.db import transaction
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from bunco_night.core.errors import ServiceError
from bunco_night.play import services as play
from bunco_night.play.models import Entry
from bunco_night.play.state import round_board, screen_board, table_round
from tests.factories import make_group, make_night
from tests.play.helpers import start_night
from tests.search import machine_search

pytestmark = pytest.mark.django_db

SEARCH = machine_search(15, 40)
TAPS = {
    "two_dice": [("points", 1), ("points", 2), ("pair", 0), ("doubles", 0), ("miss", 0)],
    "house": [("points", 1), ("points", 2), ("points", 3), ("mini", 0), ("miss", 0)],
    "deluxe": [("points", 1), ("points", 3), ("low", 0), ("high", 0), ("miss", 0)],
}
_nonces = itertools.count(1)


class TableMachine(RuleBasedStateMachine):
    """One round, tap by tap."""

    happened: Counter = Counter()  # what the search reached, for its summary

    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()

    def teardown(self):
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    @initialize(preset=st.sampled_from(sorted(TAPS)), regulars=st.integers(8, 12))
    def start(self, preset, regulars):
        night = make_night(make_group(rules=preset, regulars=regulars, substitutes=0), sets=1)
        self.preset = preset
        self.rnd = start_night(night)
        self.tables = [tr.table for tr in round_board(self.rnd).tables]

    def nonce(self) -> str:
        return f"table-machine-{next(_nonces):08d}"

    def table(self, t: int):
        return self.tables[t % len(self.tables)]

    @rule(
        t=st.integers(0, 2),
        seat=st.integers(1, 4),
        which=st.integers(0, 4),
        times=st.integers(1, 12),
    )
    def tap(self, t, seat, which, times):
        """A table's phone taps ``times`` rolls of one kind, seat after seat."""
        kind, count = TAPS[self.preset][which]
        for i in range(times):
            with contextlib.suppress(ServiceError):
                tapped = play.entry_record(
                    table=self.table(t),
                    nonce=self.nonce(),
                    seat=(seat + i - 1) % 4 + 1,
                    kind=kind,
                    count=count,
                )
                if tapped.entry.extra_pass > 1:
                    self.happened[f"{self.preset}: a turn in a second pass"] += 1

    @rule(t=st.integers(0, 2), by_host=st.booleans())
    def undo(self, t, by_host):
        """The table's (or the host's) undo of the table's last entry."""
        last = Entry.objects.filter(table=self.table(t), undone_at=None).order_by("-pk").first()
        if last is not None:
            with contextlib.suppress(ServiceError):
                play.entry_undo(table=self.table(t), entry_id=last.pk, by_host=by_host)

    @rule(t=st.integers(0, 2), side=st.integers(0, 2), take_back=st.booleans())
    def done(self, t, side, take_back):
        """The phone's Done (or taking it back), "Extra turns done", or a tie-break's winner."""
        table = self.table(t)
        self.rnd.refresh_from_db()
        outcome = round_board(self.rnd).table(table.pk).outcome
        with contextlib.suppress(ServiceError):
            if outcome.in_extra_turns:
                play.extra_turns_done(table=table, done=not take_back)
            elif outcome.needs_tiebreak and outcome.tied_sides:
                tied = sorted(outcome.tied_sides)
                play.tiebreak_record(table=table, side=tied[side % len(tied)])
            else:
                play.table_done(table=table, done=not take_back)

    @rule(t=st.integers(0, 2))
    def hot_table(self, t):
        """A table rolls two of the mark, seat after seat, until the round's bell rings."""
        for i in range(30):
            self.rnd.refresh_from_db()
            if self.rnd.bell_rang:
                return
            with contextlib.suppress(ServiceError):
                play.entry_record(
                    table=self.table(t), nonce=self.nonce(), seat=i % 4 + 1, kind="points", count=2
                )

    @rule(t=st.integers(0, 2))
    def level_pass(self, t):
        """A tied table's pass of extra turns where everyone misses: still level, another pass."""
        table = self.table(t)
        self.rnd.refresh_from_db()
        here = round_board(self.rnd).table(table.pk)
        if not here.outcome.in_extra_turns:
            return
        with contextlib.suppress(ServiceError):
            for seat in range(1, here.size + 1):
                play.entry_record(table=table, nonce=self.nonce(), seat=seat, kind="miss")
            play.extra_turns_done(table=table)

    @rule()
    def ring(self):
        """The host rings the bell (docs/rules.md section 3.6)."""
        with contextlib.suppress(ServiceError):
            play.bell_ring(night=self.rnd.night)

    @invariant()
    def every_read_agrees(self):
        if not hasattr(self, "rnd"):
            return
        self.rnd.refresh_from_db()
        board = round_board(self.rnd)
        assert board.bell == self.rnd.bell_rang, "the round row's bell is not the rules'"
        ids = [tr.table.pk for tr in board.tables]
        screen = screen_board(self.rnd, only=ids)
        assert (screen.bell, screen.over) == (board.bell, board.over)
        if board.bell and not self.rnd.bell_by_host:
            self.happened[f"{self.preset}: the rules rang the bell"] += 1
        for tr in board.tables:
            if tr.outcome.in_extra_turns:
                self.happened[f"{self.preset}: a tie's extra turns"] += 1
            if tr.play.extra_passes:
                self.happened[f"{self.preset}: a second pass of extra turns"] += 1
            assert screen.table(tr.table.pk).outcome == tr.outcome
            assert table_round(self.rnd, tr.table).outcome == tr.outcome


def test_a_round_reads_the_same_however_it_is_played():
    TableMachine.happened.clear()
    run_state_machine_as_test(TableMachine, settings=SEARCH)
    print(f"\nTableMachine reached (checks after a step): {dict(TableMachine.happened)}")

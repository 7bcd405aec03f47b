"""A tie's extra turns where a table is done by the rules, not by a Done tap (two-dice
bunko: the first side anywhere to its target stops every table, docs/rules.md sections
3.4, 3.9 and 9.2): the table undoes the turns of the pass being played only, and the host
puts an undone turn back (section 6.2)."""

import pytest

from bunco_night.core.errors import ServiceError
from bunco_night.play.models import Entry
from bunco_night.play.services import entry_put_back, entry_undo, extra_turns_done
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied():
    """Twelve players on the two-dice preset; table 3 reaches 21, so the bell stops every
    table, and table 2, at 0-0, plays a tie's extra turns without tapping Done."""
    night = make_night(make_group(rules="two_dice", regulars=12, substitutes=0), sets=1)
    rnd = start_night(night)
    t2, t3 = night.tables.get(number=2), night.tables.get(number=3)
    for _ in range(6):  # a pair, then one die: never three doubles in a row
        tap(t3, 2, "pair")
        tap(t3, 2, "points", 1)
    tap(t3, 2, "pair")
    tap(t3, 4, "points", 1)
    here = round_board(rnd).table(t2.pk)
    assert here.outcome.in_extra_turns and not here.play.finished_turn
    return rnd, t2


def test_the_host_puts_back_a_turn_of_the_pass_being_played(tied):
    rnd, t2 = tied
    turn = tap(t2, 1, "points", 1)
    assert turn.extra_pass == 1
    entry_undo(table=t2, entry_id=turn.pk)  # the table's own undo
    entry_put_back(table=t2, entry_id=turn.pk)
    assert Entry.objects.get(pk=turn.pk).undone_at is None
    assert round_board(rnd).table(t2.pk).scores == (1, 0)


def test_a_later_pass_leaves_the_earlier_passes_turns_to_the_host(tied):
    rnd, t2 = tied
    first = tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)  # 1-1: pass 2
    with pytest.raises(ServiceError) as caught:
        entry_undo(table=t2, entry_id=first.pk)
    assert caught.value.code == "round_closed"
    entry_undo(table=t2, entry_id=first.pk, by_host=True)  # the host still may
    assert Entry.objects.get(pk=first.pk).undone_at is not None


def test_a_second_pass_takes_turns_and_the_room_reads_them(tied):
    """Section 3.4: a tie still level after its extra turns plays another pass; its turns
    count, and every change after them still reads the room (docs/rules.md 3.9)."""
    rnd, t2 = tied
    tap(t2, 1, "points", 1)
    tap(t2, 2, "points", 1)
    extra_turns_done(table=t2)  # 1-1: pass 2
    second = tap(t2, 1, "points", 1)
    assert second.extra_pass == 2
    t1 = rnd.night.tables.get(number=1)
    tap(t1, 1, "points", 1)  # a change anywhere reads every table's state again
    assert round_board(rnd).table(t2.pk).scores == (2, 1)

"""The host's screens read only the tables that changed (``round_board`` with ``only``),
and what they show of them, and of the room, is what reading every table in full shows:
the bell, whether every table is done, and each table's seats, play, score and outcome
(docs/rules.md section 3)."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.core.errors import ServiceError
from bunco_night.play.services import entry_undo, table_done, winner_set
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db

KINDS = ["points:1", "points:2", "points:3", "bunco", "miss", "mini"]

_examples = itertools.count()

actions = st.lists(
    st.tuples(
        st.sampled_from(["tap", "tap", "tap", "undo", "done", "winner"]),
        st.integers(min_value=0, max_value=2),  # the table (0: the head table)
        st.integers(min_value=1, max_value=4),  # the seat
        st.sampled_from(KINDS),
    ),
    max_size=25,
)


def seen(tr) -> tuple:
    """What a host's screen shows of a table."""
    play = tr.play
    return (
        tr.table.pk,
        tr.table.number,
        [(s.pk, s.occupant_name) for s in tr.seats],
        (play.finished_turn, play.tiebreak_side, play.winner_side, play.extra_passes),
        tr.state,
        tr.outcome,
        tr.bell,
        tr.sides,
        tr.winner_side,
        tr.finished,
    )


def act(rnd, tables, kind, number, seat, tap_kind):
    table = tables[number % len(tables)]
    try:
        if kind == "tap":
            name, _, count = tap_kind.partition(":")
            tap(table, seat, name, int(count or 0))
        elif kind == "undo":
            last = rnd.entries.filter(table=table, undone_at=None).order_by("-pk").first()
            if last is not None:
                entry_undo(table=table, entry_id=last.pk)
        elif kind == "done":
            table_done(table=table)
        else:
            winner_set(rnd=rnd, table=table, side=seat % 2)
    except ServiceError:
        pass  # refused as a phone's tap would be: the board stays as it was


@pytest.mark.parametrize("rules", ["house", "deluxe", "two_dice", "card_1904"])
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=actions, subset=st.sets(st.integers(min_value=0, max_value=2)))
def test_a_board_of_some_tables_is_the_full_boards_view_of_them(rules, steps, subset):
    n = next(_examples)  # a night of its own for each example
    # Low targets, so that tables reach them, the bell rings and tables finish.
    group = make_group(
        user=make_user(f"host{n}"),
        name=f"G{n}",
        rules=rules,
        regulars=12,
        target_teams=5,
        target_individuals=3,
    )
    night = make_night(group, sets=1)
    rnd = start_night(night)
    tables = list(night.tables.order_by("number"))
    for step in steps:
        act(rnd, tables, *step)
        rnd.refresh_from_db()
    full = round_board(rnd)
    only = {tables[i].pk for i in subset}
    part = round_board(rnd, only=only)
    assert (part.bell, part.over) == (full.bell, full.over)
    assert [seen(t) for t in part.tables] == [seen(t) for t in full.tables if t.table.pk in only]
    assert all(t.entries is None for t in part.tables)


def test_every_table_done_with_a_winner_is_over_in_both(django_assert_max_num_queries):
    """The host's screens say "every table is done" from every table, even when only
    one of them changed; and however many tables there are, in a few queries."""
    night = make_night(make_group(rules="card_1904", regulars=12), sets=1)
    rnd = start_night(night)
    tables = list(night.tables.order_by("number"))
    for side, table in zip(itertools.cycle([0, 1]), tables):
        winner_set(rnd=rnd, table=table, side=side)
    rnd.refresh_from_db()
    # The night (its rules), every seat's table, the plays, the entries as values, and
    # the changed table's seats with their people.
    with django_assert_max_num_queries(5):
        part = round_board(rnd, only={tables[-1].pk})
    assert part.over and round_board(rnd).over
    assert [t.table.pk for t in part.tables] == [tables[-1].pk]

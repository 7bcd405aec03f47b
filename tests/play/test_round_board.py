"""The host's screens read only the tables that changed (``round_board`` with ``only``),
and what they show of them, and of the room, is what reading every table in full shows:
the bell, whether every table is done, and each table's seats, play, score and outcome
(docs/rules.md section 3)."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.core.errors import ServiceError
from bunco_night.groups.services import player_add
from bunco_night.play.services import entry_undo, table_done, winner_set
from bunco_night.play.state import round_board, screen_board
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import start_night, tap
from tests.search import examples

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
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
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
    part = screen_board(rnd, only)
    assert (part.bell, part.over) == (full.bell, full.over)
    assert [seen(t) for t in part.tables] == [seen(t) for t in full.tables if t.table.pk in only]
    assert all(t.entries is None for t in part.tables)


stored_rows = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=2),  # the table
        st.integers(min_value=1, max_value=4),  # the seat
        st.sampled_from(["points", "miss", "bunco", "mini", "mark", "pair", "doubles"]),
        st.sampled_from([0, 0, 0, 1, 3, -2]),  # the points: often none
        st.booleans(),  # a reset
        st.integers(min_value=0, max_value=2),  # the pass of extra turns
        st.booleans(),  # undone
    ),
    min_size=5,
    max_size=40,
)


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rows=stored_rows, passes=st.lists(st.integers(0, 2), min_size=3, max_size=3))
def test_the_screens_read_of_every_tables_entries_gives_the_full_read_state(rows, passes):
    """The host's screens read every table's entries lightly (those that change no score
    as one per table, seat and pass): each table's state is the one the full read gives,
    whatever the entries (marks, resets, negative points, buncos, passes of extra turns,
    undone taps), stored as they are here rather than through the taps' checks."""
    from bunco_night.play.models import Entry, TablePlay

    n = next(_examples)
    night = make_night(make_group(user=make_user(f"host{n}"), name=f"G{n}", rules="deluxe"))
    rnd = start_night(night)
    tables = list(night.tables.order_by("number"))
    for table, finished in zip(tables, passes, strict=False):
        TablePlay.objects.filter(round=rnd, table=table).update(extra_passes=finished)
    for k, (i, seat, kind, points, reset, extra, undone) in enumerate(rows):
        table = tables[i % len(tables)]
        Entry.objects.create(
            round=rnd,
            table=table,
            seat=seat,
            kind=kind,
            points=points,
            reset=reset,
            extra_pass=min(extra, passes[i % len(tables)] + 1),
            nonce=f"stored-{n}-{k}",
            undone_at=rnd.started_at if undone else None,
        )
    full = round_board(rnd)
    part = screen_board(rnd, {t.pk for t in tables})
    assert (part.bell, part.over) == (full.bell, full.over)
    assert [seen(t) for t in part.tables] == [seen(t) for t in full.tables]


def test_every_table_done_with_a_winner_is_over_in_both(django_assert_max_num_queries):
    """The host's screens say "every table is done" from every table, even when only
    one of them changed; and however many tables there are, in a few queries."""
    night = make_night(make_group(rules="card_1904", regulars=12), sets=1)
    rnd = start_night(night)
    tables = list(night.tables.order_by("number"))
    for side, table in zip(itertools.cycle([0, 1]), tables):
        winner_set(rnd=rnd, table=table, side=side)
    rnd.refresh_from_db()
    # The night (its rules), every seat's table, the plays, the states kept with the
    # tables' boards, the entries as values (those that change a score, and the others
    # one per seat and pass), and the changed table's seats with their people.
    with django_assert_max_num_queries(7):
        part = screen_board(rnd, {tables[-1].pk})
    assert part.over and round_board(rnd).over
    assert [t.table.pk for t in part.tables] == [tables[-1].pk]


def test_a_tables_entries_name_their_rollers_from_its_seats(django_assert_num_queries):
    """A table's entries get their rollers from the players seated there, read with the
    seats: no join, the same Player objects. A roller who no longer sits there (a seat
    edited in the admin) is read too, in one query."""
    from bunco_night.nights.models import Seat
    from bunco_night.play.state import table_round

    night = make_night(make_group(), sets=1)
    rnd = start_night(night)
    table = round_board(rnd).tables[0].table
    first = tap(table, 1, "points", 1)
    second = tap(table, 2, "miss")
    rolled = {first.pk: first.roller, second.pk: second.roller}
    with django_assert_num_queries(3):  # seats, play, entries
        here = table_round(rnd, table)
        assert {e.pk: e.roller for e in here.entries} == rolled
    seated = {s.number: s.player for s in here.seated.seats}
    assert here.entries[0].roller is seated[1] and here.entries[1].roller is seated[2]
    # Seat 1 edited in the admin mid-round: its first player no longer sits here.
    late = player_add(group=night.group, name="Late Lou")
    Seat.objects.filter(round=rnd, table=table, number=1).update(player=late)
    with django_assert_num_queries(4):  # and the one roller not seated here
        here = table_round(rnd, table)
        assert {e.pk: e.roller.name for e in here.entries} == {
            pk: p.name for pk, p in rolled.items()
        }


def test_a_ghosts_entries_name_the_partner_who_rolled(django_assert_num_queries):
    """At a team table with a ghost, the partner rolls for it (docs/rules.md section 5.5):
    that entry's roller is the partner, from the seats too."""
    from bunco_night.nights.services import attendance_set
    from bunco_night.play.state import table_round

    night = make_night(make_group(regulars=12, fill="ghosts"), sets=1)
    attendance_set(attendance=night.attendances.first(), status="absent")
    rnd = start_night(night)
    tv = next(t for t in round_board(rnd).tables if any(s.is_ghost for s in t.seated.seats))
    ghost = next(s for s in tv.seated.seats if s.is_ghost)
    entry = tap(tv.table, ghost.number, "points", 1)
    partner = tv.seated.partner(ghost).player
    with django_assert_num_queries(3):
        here = table_round(rnd, tv.table)
        assert [e.roller for e in here.entries] == [partner] and entry.roller == partner


def test_the_query_of_entries_that_change_no_score_agrees_with_the_rules():
    """``_scoring_entries`` reads the entries that change no score as one per table, seat
    and pass, picked by a query: it picks exactly those the rules say change no score."""
    from bunco_night.play.models import Entry
    from bunco_night.play.state import _NO_SCORE
    from bunco_night.rules.rounds import Entry as RuleEntry
    from bunco_night.rules.rounds import changes_no_score

    night = make_night(make_group(), sets=1)
    rnd = start_night(night)
    table = round_board(rnd).tables[0].table
    for n, (kind, points, reset) in enumerate(
        itertools.product(["miss", "points", "bunco", "mini", "mark"], [0, 1, -2], [False, True])
    ):
        Entry.objects.create(
            round=rnd,
            table=table,
            seat=1,
            kind=kind,
            points=points,
            reset=reset,
            nonce=f"no-score-{n:04d}",
        )
    stored = list(Entry.objects.filter(round=rnd))
    picked = set(Entry.objects.filter(round=rnd).filter(_NO_SCORE).values_list("pk", flat=True))
    said = {e.pk for e in stored if changes_no_score(RuleEntry(e.seat, e.points, e.kind, e.reset))}
    assert len(stored) == 30 and picked == said
    assert {(e.kind, e.points, e.reset) for e in stored if e.pk in picked} == {
        ("miss", 0, False),
        ("points", 0, False),
        ("mini", 0, False),
        ("mark", 0, False),
    }

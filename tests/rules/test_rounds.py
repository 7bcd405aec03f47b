"""When a round ends: docs/rules.md section 3 (and section 2.4 for group marks)."""

import json
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import DELUXE, HOUSE
from bunco_night.rules.rounds import (
    Entry,
    TableOutcome,
    TableState,
    changes_no_score,
    room_over,
    round_status,
    table_scores,
)
from tests.search import examples


def table(
    number,
    scores,
    *,
    size=4,
    teams=True,
    target=21,
    rolled=None,
    bunco=False,
    finished_turn=False,
    tiebreak_winner=None,
):
    return TableState(
        number=number,
        size=size,
        teams=teams,
        target=target,
        scores=tuple(scores),
        rolled=frozenset(range(1, size + 1) if rolled is None else rolled),
        bunco=bunco,
        finished_turn=finished_turn,
        tiebreak_winner=tiebreak_winner,
    )


def test_us_them_is_the_sum_of_entries_with_resets():
    """Section 6: the running score is the sum of entered rolls; section 2: a wipeout resets."""
    entries = [
        Entry(1, 3, "points"),
        Entry(2, 2, "points"),
        Entry(3, 5, "mini"),
        Entry(4, 0, "wipeout", reset=True),
        Entry(2, 1, "points"),
    ]
    assert table_scores(entries, size=4, teams=True) == (8, 1)
    assert table_scores(entries[:3], size=3, teams=False) == (3, 2, 5)
    with pytest.raises(RuleError) as caught:
        table_scores([Entry(5, 1, "points")], size=4, teams=True)
    assert caught.value.code == "bad_seat"


class TestHeadTableControls:
    """Section 3.1: "The bell rings, for every table, when a side at the head table reaches
    the head table's target"."""

    def test_nothing_happens_before_the_head_table_reaches_21(self):
        status = round_status(HOUSE, [table(1, (20, 3)), table(2, (25, 0))])
        assert not status.bell and not status.over
        assert not any(t.stopped for t in status.tables)

    def test_head_table_at_21_rings_and_others_finish_the_turn(self):
        """ "the player rolling finishes the turn, nobody else starts one" """
        status = round_status(HOUSE, [table(1, (21, 3)), table(2, (4, 9))])
        assert status.bell and not status.over
        head, other = status.tables
        assert head.done and head.winner_side == 0
        assert other.stopped and not other.done
        status = round_status(HOUSE, [table(1, (21, 3)), table(2, (4, 9), finished_turn=True)])
        assert status.over and status.tables[1].winner_side == 1

    def test_everyone_must_have_rolled_once(self):
        """ "except that every player must have rolled at least once in the round" """
        tables = [table(1, (22, 0)), table(2, (5, 1), rolled={1, 2, 3}, finished_turn=True)]
        status = round_status(HOUSE, tables)
        assert not status.over and status.tables[1].waiting_for == {4}

    def test_the_host_can_ring_the_bell(self):
        status = round_status(HOUSE, [table(1, (5, 3), finished_turn=True)], bell_rung=True)
        assert status.bell and status.over

    def test_a_tie_waits_for_the_recorded_tie_break(self):
        """ "The app records the tie-break's winner as entered; it never invents one." """
        tied = table(2, (7, 7), finished_turn=True)
        status = round_status(HOUSE, [table(1, (21, 0)), tied])
        assert not status.over and status.tables[1].needs_tiebreak
        assert status.tables[1].tied_sides == (0, 1)
        settled = table(2, (7, 7), finished_turn=True, tiebreak_winner=1)
        status = round_status(HOUSE, [table(1, (21, 0)), settled])
        assert status.over and status.tables[1].winner_side == 1

    def test_a_tie_break_winner_must_be_tied(self):
        three = table(
            2, (4, 4, 1), size=3, teams=False, target=11, finished_turn=True, tiebreak_winner=2
        )
        with pytest.raises(RuleError) as caught:
            round_status(HOUSE, [table(1, (21, 0)), three])
        assert caught.value.code == "bad_tiebreak"


class TestEveryTableToTheTarget:
    """Section 3.2: "Each table plays until a side reaches the table's target"."""

    def test_round_over_when_every_table_has_a_winner(self):
        tables = [table(1, (21, 3)), table(2, (3, 11, 2), size=3, teams=False, target=11)]
        status = round_status(DELUXE, tables)
        assert status.over and [t.winner_side for t in status.tables] == [0, 1]

    def test_a_table_short_of_target_keeps_playing(self):
        status = round_status(DELUXE, [table(1, (21, 3)), table(2, (10, 5))])
        assert not status.over and status.tables[0].done and not status.tables[1].stopped

    def test_a_true_bunco_ends_the_round_everywhere(self):
        """ "A true bunco ends the round at every table at once; each other table's leader wins" """
        tables = [
            table(1, (3, 4)),
            table(2, (21, 2), bunco=True),
            table(3, (1, 6, 5), size=3, teams=False, target=11),
        ]
        status = round_status(DELUXE, tables)
        assert status.bell and status.over
        assert [t.winner_side for t in status.tables] == [1, 0, 1]

    def test_a_bunco_does_not_end_the_round_under_house_rules(self):
        status = round_status(HOUSE, [table(1, (3, 4)), table(2, (21, 2), bunco=True)])
        assert not status.bell

    def test_a_tie_at_a_bunco_ended_table_needs_the_roll_off(self):
        """Section 3.4: "hold a roll off until one team scores 5 points"."""
        status = round_status(DELUXE, [table(1, (4, 4)), table(2, (21, 0), bunco=True)])
        assert not status.over and status.tables[0].needs_tiebreak


def test_a_round_needs_tables():
    with pytest.raises(RuleError) as caught:
        round_status(HOUSE, [])
    assert caught.value.code == "no_tables"


def individuals(entries, *, passes=0, tiebreak_winner=None, size=3):
    """Table 2 of a house night: individuals to 11, stopped by the head table's bell."""
    return TableState.from_entries(
        number=2,
        size=size,
        teams=False,
        target=11,
        entries=entries,
        finished_turn=True,
        extra_passes=passes,
        tiebreak_winner=tiebreak_winner,
    )


def play(*points, extra_pass=0):
    """One entry per seat, seat 1 first: the points each rolled."""
    return [
        Entry(seat, p, "points" if p else "miss", extra_pass=extra_pass)
        for seat, p in enumerate(points, start=1)
    ]


HEAD_DONE = table(1, (21, 0))


class TestExtraTurns:
    """docs/rules.md section 3.4: "each player at the table (not only the tied ones) takes one
    more turn, and the scores are added again ... the side with the highest total wins"."""

    def test_the_player_who_was_not_tied_can_win(self):
        tied = play(11, 11, 7)
        status = round_status(HOUSE, [HEAD_DONE, individuals(tied)])
        o = status.tables[1]
        assert (o.done, o.winner_side, o.needs_tiebreak) == (True, None, True)
        assert (o.in_extra_turns, o.tied_sides, o.extra_passes) == (True, (0, 1), 0)
        assert not status.over
        # The pass is being played: 11-11-12 already, but nobody wins before it is done.
        playing = individuals(tied + play(0, 0, 5, extra_pass=1))
        assert playing.scores == (11, 11, 12) and playing.scores_at_done == (11, 11, 7)
        o = round_status(HOUSE, [HEAD_DONE, playing]).tables[1]
        assert o.in_extra_turns and o.winner_side is None and o.extra_passes == 0
        # "Extra turns done": the highest total wins, the third player.
        status = round_status(
            HOUSE, [HEAD_DONE, individuals(tied + play(0, 0, 5, extra_pass=1), passes=1)]
        )
        o = status.tables[1]
        assert status.over
        assert (o.winner_side, o.needs_tiebreak, o.in_extra_turns) == (2, False, False)
        assert (o.tied_sides, o.extra_passes) == ((0, 1), 1)
        assert o.winner_seats(3, False) == (3,)

    def test_still_tied_after_a_pass_means_another_pass(self):
        entries = play(11, 11, 7) + play(2, 2, 0, extra_pass=1)
        o = round_status(HOUSE, [HEAD_DONE, individuals(entries, passes=1)]).tables[1]
        assert (o.in_extra_turns, o.needs_tiebreak, o.tied_sides, o.extra_passes) == (
            True,
            True,
            (0, 1),
            1,
        )
        entries += play(0, 3, 1, extra_pass=2)
        o = round_status(HOUSE, [HEAD_DONE, individuals(entries, passes=2)]).tables[1]
        assert (o.winner_side, o.in_extra_turns, o.extra_passes) == (1, False, 2)

    def test_a_pass_can_tie_three_sides(self):
        entries = play(11, 11, 7) + play(0, 0, 4, extra_pass=1)
        o = round_status(HOUSE, [HEAD_DONE, individuals(entries, passes=1)]).tables[1]
        assert o.in_extra_turns and o.tied_sides == (0, 1, 2)

    def test_teams_add_every_players_extra_turn(self):
        """At a team table all four take a turn; each team's points add up."""
        tied = play(8, 7, 7, 8)  # 15-15
        extra = play(1, 2, 1, 4, extra_pass=1)  # Us +2, Them +6
        state = TableState.from_entries(
            number=2,
            size=4,
            teams=True,
            target=21,
            entries=tied + extra,
            finished_turn=True,
            extra_passes=1,
        )
        assert state.scores == (17, 21) and state.scores_at_done == (15, 15)
        o = round_status(HOUSE, [HEAD_DONE, state]).tables[1]
        assert (o.winner_side, o.tied_sides) == (1, (0, 1))
        assert o.winner_seats(4, True) == (2, 4)

    def test_a_table_without_a_tie_plays_no_extra_turn(self):
        o = round_status(HOUSE, [HEAD_DONE, individuals(play(11, 10, 7))]).tables[1]
        assert (o.winner_side, o.in_extra_turns, o.tied_sides, o.extra_passes) == (0, False, (), 0)

    def test_a_winner_recorded_among_the_tied_sides_is_kept(self):
        """The table phones may still record who won the extra turns."""
        o = round_status(
            HOUSE, [HEAD_DONE, individuals(play(11, 11, 7), tiebreak_winner=1)]
        ).tables[1]
        assert (o.winner_side, o.needs_tiebreak, o.in_extra_turns) == (1, False, False)

    def test_an_entry_for_a_pass_not_begun_is_refused(self):
        with pytest.raises(RuleError) as caught:
            individuals(play(11, 11, 7) + play(1, 0, 0, extra_pass=2), passes=0)
        assert caught.value.code == "bad_extra_pass"

    def test_extra_turn_entries_do_not_count_as_the_rounds_rolls(self):
        """Everyone must have rolled once in the round's play (section 3.1), not in extra turns."""
        state = individuals(play(11, 11) + [Entry(3, 0, "miss", extra_pass=1)])
        assert state.rolled == {1, 2}


class TestRollOffUnchanged:
    """docs/rules.md section 3.4: "the tied sides roll off ... these rolls are not added to the
    round score. The app records the roll-off's winner, chosen among the tied sides"."""

    def test_a_tie_waits_for_the_recorded_roll_off_winner(self):
        tables = [table(1, (4, 4)), table(2, (21, 0), bunco=True)]
        o = round_status(DELUXE, tables).tables[0]
        assert (o.needs_tiebreak, o.in_extra_turns, o.tied_sides, o.winner_side) == (
            True,
            False,
            (0, 1),
            None,
        )
        tables[0] = table(1, (4, 4), tiebreak_winner=1)
        o = round_status(DELUXE, tables).tables[0]
        assert (o.winner_side, o.needs_tiebreak, o.tied_sides) == (1, False, (0, 1))

    def test_the_roll_off_winner_is_one_of_the_tied(self):
        three = table(2, (4, 4, 1), size=3, teams=False, target=11, tiebreak_winner=2)
        with pytest.raises(RuleError) as caught:
            round_status(DELUXE, [table(1, (21, 0)), three], bell_rung=True)
        assert caught.value.code == "bad_tiebreak"


@pytest.mark.parametrize(
    "fields",
    [
        {"done": False, "winner_side": 1, "needs_tiebreak": False},
        {"done": True, "winner_side": 1, "needs_tiebreak": True, "tied_sides": (0, 1)},
        {"done": False, "winner_side": None, "needs_tiebreak": True, "tied_sides": (0, 1)},
        {"done": True, "winner_side": None, "needs_tiebreak": True, "tied_sides": (0,)},
        {"done": True, "winner_side": 0, "needs_tiebreak": False, "in_extra_turns": True},
    ],
)
def test_an_outcome_is_never_half_valid(fields):
    with pytest.raises(RuleError) as caught:
        TableOutcome(number=2, stopped=True, waiting_for=frozenset(), **fields)
    assert caught.value.code == "bad_outcome"


@settings(max_examples=examples(300), deadline=None)
@given(
    size=st.sampled_from([2, 3, 4]),
    play_points=st.lists(st.integers(0, 6), min_size=4, max_size=12),
    passes=st.lists(st.lists(st.integers(0, 6), min_size=4, max_size=4), max_size=4),
    in_progress=st.booleans(),
)
def test_extra_turn_outcomes(size, play_points, passes, in_progress):
    """docs/rules.md section 3.4 for any table: the winner is the single leader at Done, or
    after the first finished pass with a single leader; otherwise the tied sides play on."""
    finished = max(0, len(passes) - in_progress)  # the last pass may be being played
    entries = [Entry(i % size + 1, p, "points") for i, p in enumerate(play_points)]
    for number, points in enumerate(passes, start=1):
        seats = range(1, size + 1)
        entries += [
            Entry(s, p, "points", extra_pass=number)
            for s, p in zip(seats, points[:size], strict=True)
        ]
    state = TableState.from_entries(
        number=2,
        size=size,
        teams=size == 4,
        target=99,
        entries=entries,
        finished_turn=True,
        extra_passes=finished,
    )
    assert state.extra_passes == finished
    o = round_status(HOUSE, [HEAD_DONE, state]).tables[1]
    assert o.done and (o.winner_side is None) == o.needs_tiebreak == o.in_extra_turns
    checkpoints = [state.scores_at_done, *state.pass_scores]
    decided = [c for c in checkpoints if c.count(max(c)) == 1]
    if decided:
        assert o.winner_side == decided[0].index(max(decided[0]))
        assert o.extra_passes == checkpoints.index(decided[0])
    else:
        last = checkpoints[-1]
        assert o.tied_sides == tuple(i for i, s in enumerate(last) if s == max(last))
        assert o.extra_passes == finished
    roll_off = round_status(DELUXE, [HEAD_DONE, state]).tables[1]
    assert not roll_off.in_extra_turns  # a roll-off never plays extra turns


# A table's rolls, any size, any passes of extra turns: (seat folded into the size,
# points, kind, a reset, the pass).
ROLLS = st.lists(
    st.tuples(
        st.integers(1, 4),  # the seat (folded into the table's size)
        st.one_of(st.just(0), st.integers(-3, 5)),  # the points, often none
        st.sampled_from(["points", "miss", "bunco", "mini", "pair", "mark"]),
        st.booleans(),  # a reset
        st.integers(0, 2),  # the pass of extra turns
    ),
    max_size=30,
)


def rolled(size: int, rolls: list, passes: int) -> list[Entry]:
    """``rolls`` (``ROLLS``) as entries at a table of ``size`` that finished ``passes``
    passes of extra turns."""
    return [
        Entry((seat - 1) % size + 1, points, kind, reset, min(p, passes + 1))
        for seat, points, kind, reset, p in rolls
    ]


def state_of(size: int, entries: list[Entry], passes: int, **done) -> TableState:
    return TableState.from_entries(
        number=1,
        size=size,
        teams=size == 4,
        target=21,
        entries=entries,
        extra_passes=passes,
        **done,
    )


@settings(max_examples=examples(300), deadline=None)
@given(
    size=st.sampled_from([2, 3, 4]),
    rolls=ROLLS,
    passes=st.integers(0, 2),
    finished_turn=st.booleans(),
)
def test_entries_that_change_no_score_count_once_per_seat_and_pass(
    size, rolls, passes, finished_turn
):
    """What the host's screens read (``play.state._scoring_entries``): a table's state from
    its entries in order is its state from the entries that change a score, in order, and
    one entry per seat and pass for those that do not (docs/rules.md section 3)."""
    entries = rolled(size, rolls, passes)
    kept = [e for e in entries if not changes_no_score(e)]
    once = {(e.seat, e.extra_pass) for e in entries if changes_no_score(e)}
    folded = kept + [Entry(seat, 0, "miss", extra_pass=p) for seat, p in sorted(once)]
    assert state_of(size, folded, passes, finished_turn=finished_turn) == state_of(
        size, entries, passes, finished_turn=finished_turn
    )


@settings(max_examples=examples(200), deadline=None)
@given(
    size=st.sampled_from([2, 3, 4]),
    rolls=ROLLS,
    passes=st.integers(0, 2),
    finished_turn=st.booleans(),
    tiebreak_winner=st.one_of(st.none(), st.integers(0, 3)),
)
def test_a_state_as_plain_data_comes_back_the_same(
    size, rolls, passes, finished_turn, tiebreak_winner
):
    """What a kept board keeps of its table's state for the host's screens
    (``play.speed.boards``): every field, through JSON, back equal to the state."""
    state = state_of(
        size,
        rolled(size, rolls, passes),
        passes,
        finished_turn=finished_turn,
        tiebreak_winner=tiebreak_winner,
    )
    data = state.as_data()
    assert len(data) == len(fields(TableState))  # a field added to the state is kept too
    again = TableState.from_data(json.loads(json.dumps(data)))
    assert again == state and hash(again) == hash(state)


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ([], 3),  # nobody has rolled: who rolls first
        ([(1, "points")], 1),  # a roll that scores keeps the dice (section 2.2)
        ([(1, "points"), (1, "miss")], 2),  # a miss passes them to the left
        ([(4, "miss")], 1),  # from the last seat round to seat 1
        ([(2, "miss"), (3, "mark")], 3),  # a group mark is no roll: the dice stay put
        ([(2, "bunco")], 2),
    ],
)
def test_the_seat_rolling_next_follows_the_entries(kinds, expected):
    """docs/rules.md section 2.2: "The phones offer the seat the entries say rolls next
    (a miss passes the dice)"; before any roll, the seat that rolls first (section 2.5)."""
    from bunco_night.rules.rounds import seat_rolling_next

    entries = [Entry(seat, 0, kind) for seat, kind in kinds]
    assert seat_rolling_next(entries, size=4, first=3) == expected


def _outcome(number, *, done, winner=None):
    """A table's outcome: done with ``winner`` (None: a tie to break), or still playing."""
    tie = done and winner is None
    return TableOutcome(number, done, done, frozenset(), winner, tie, (0, 1) if tie else ())


@pytest.mark.parametrize(
    "outcomes,host,over",
    [
        ([], [], False),  # no table: no round to close
        ([_outcome(1, done=True, winner=0), _outcome(2, done=True, winner=1)], [None, None], True),
        ([_outcome(1, done=True, winner=0), _outcome(2, done=False)], [None, None], False),
        ([_outcome(1, done=True, winner=0), _outcome(2, done=False)], [None, 1], False),
        ([_outcome(1, done=True, winner=0), _outcome(2, done=True)], [None, None], False),
        ([_outcome(1, done=True, winner=0), _outcome(2, done=True)], [None, 0], True),
        ([_outcome(1, done=True, winner=0)], [1], True),  # the host's word over the rules'
    ],
)
def test_the_room_is_over_when_every_table_is_done_with_a_winner(outcomes, host, over):
    """docs/rules.md sections 3 and 3.4: a table that is done has a winner by the rules or,
    for a tie, by the host's word; a table still playing is not done by the host's word."""
    assert room_over(outcomes, host) is over

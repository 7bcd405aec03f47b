"""Two-dice bunko: docs/rules.md section 9.2 (scoring, three doubles, movement) and 3.9
(the first team to its target anywhere stops every table)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plan_layout
from bunco_night.rules.movement import next_seating, seat_players
from bunco_night.rules.presets import HOUSE, TWO_DICE
from bunco_night.rules.replan import round_partners
from bunco_night.rules.rounds import (
    BELL_BUNCO,
    BELL_TARGET,
    Entry,
    TableState,
    doubles_before,
    round_status,
)
from bunco_night.rules.scoring import score_roll, score_tap
from tests.search import examples


@pytest.mark.parametrize(
    ("dice", "mark", "before", "points", "kind", "again"),
    [
        # "If the designated number given by the head table is rolled then that team scores
        # points": the app chooses 1 for one die showing it and 2 for both (a pair).
        ((4, 2), 4, 0, 1, "points", True),
        ((4, 4), 4, 0, 2, "pair", True),
        # "if a person at a table rolls doubles, even if it isn't the designated number for
        # that round, they roll again"
        ((3, 3), 4, 0, 0, "doubles", True),
        ((3, 5), 4, 0, 0, "miss", False),
        ((6, 6), 4, 1, 0, "doubles", True),
        # "If they roll doubles (of any combination) three times straight, that team wins
        # the round"
        ((6, 6), 4, 2, 0, "bunco", False),
        ((4, 4), 4, 2, 0, "bunco", False),
        ((4, 1), 4, 2, 1, "points", True),  # not a double: the run is broken
    ],
)
def test_two_dice_scoring(dice, mark, before, points, kind, again):
    scored = score_roll(dice, mark, TWO_DICE, doubles_before=before)
    assert (scored.points, scored.kind, scored.roll_again) == (points, kind, again)
    assert scored.doubles == (dice[0] == dice[1])


@pytest.mark.parametrize(
    ("kind", "count", "before", "expected"),
    [
        ("points", 1, 0, ("points", 1)),
        ("points", 2, 0, ("pair", 2)),  # both dice show the mark: a pair, like count 3 above
        ("pair", 0, 1, ("pair", 2)),
        ("doubles", 0, 0, ("doubles", 0)),
        ("doubles", 0, 2, ("bunco", 0)),
        ("pair", 0, 2, ("bunco", 0)),
        ("bunco", 0, 0, ("bunco", 0)),  # the table says so: three doubles in a row
        ("miss", 0, 2, ("miss", 0)),
    ],
)
def test_two_dice_taps_score_as_the_dice_do(kind, count, before, expected):
    scored = score_tap(kind, TWO_DICE, count, doubles_before=before)
    assert (scored.kind, scored.points) == expected


def test_the_points_for_the_mark_are_knobs():
    """docs/rules.md section 9.2: the letter is silent on the points; both are knobs."""
    rules = TWO_DICE.with_(mark_die_points=2, mark_pair_points=5)
    assert score_roll((2, 5), 2, rules).points == 2
    assert score_roll((2, 2), 2, rules).points == 5
    assert score_tap("points", rules, 2).points == 5


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: score_roll((1, 2, 3), 1, TWO_DICE), "bad_dice"),
        (lambda: score_roll((1, 2), 1, HOUSE), "bad_dice"),
        (lambda: score_roll((1, 7), 1, TWO_DICE), "bad_dice"),
        (lambda: score_roll((1, 1), 1, TWO_DICE, doubles_before=3), "bad_streak"),
        (lambda: score_tap("points", TWO_DICE, 3), "bad_count"),
        (lambda: score_tap("mini", TWO_DICE), "bad_kind"),
        (lambda: score_tap("doubles", HOUSE), "bad_kind"),
    ],
)
def test_refused_rolls(call, code):
    with pytest.raises(RuleError) as caught:
        call()
    assert caught.value.code == code


def test_doubles_before_counts_the_roller_s_run():
    """The third double in a row of one turn: another seat's roll, a roll that is not a
    double, or a miss ends the run; group marks are not rolls."""
    entries = [Entry(1, 0, "doubles"), Entry(1, 2, "pair")]
    assert doubles_before(entries, 1) == 2
    assert doubles_before(entries, 2) == 0
    assert doubles_before([*entries, Entry(1, 0, "mark")], 1) == 2
    assert doubles_before([*entries, Entry(1, 1, "points")], 1) == 0
    assert doubles_before([Entry(1, 0, "doubles"), Entry(1, 0, "miss")], 1) == 0
    assert doubles_before([Entry(1, 0, "doubles"), Entry(2, 0, "doubles")], 1) == 0
    # A pass of extra turns starts a new run (docs/rules.md section 3.4).
    assert doubles_before([Entry(1, 0, "doubles"), Entry(1, 0, "doubles", extra_pass=1)], 1) == 1


def state(number, entries, *, size=4, teams=True, target=21):
    return TableState.from_entries(
        number=number, size=size, teams=teams, target=target, entries=entries
    )


class TestFirstToTheTargetAnywhere:
    """docs/rules.md section 3.9: "The first team to "21" yells, "BUNKO." Play at all the
    other tables stop immediately with who ever is ahead in score at that particular point
    advancing.\""""

    def test_any_table_reaching_21_stops_every_table(self):
        tables = [
            state(1, [Entry(1, 5, "points")]),
            state(2, [Entry(2, 21, "points")]),
            state(3, [Entry(1, 3, "points"), Entry(2, 4, "points")]),
        ]
        status = round_status(TWO_DICE, tables)
        assert status.bell and status.reason == BELL_TARGET and status.over
        assert [t.winner_side for t in status.tables] == [0, 1, 1]

    def test_nothing_rings_below_the_target(self):
        status = round_status(TWO_DICE, [state(1, [Entry(1, 20, "points")]), state(2, [])])
        assert not status.bell and not any(t.stopped for t in status.tables)

    def test_a_tie_at_a_stopped_table_waits_for_extra_turns(self):
        tables = [state(1, [Entry(1, 21, "points")]), state(2, [Entry(1, 2, "points")] * 2)]
        tables[1] = state(2, [Entry(1, 2, "points"), Entry(2, 2, "points")])
        status = round_status(TWO_DICE, tables)
        assert status.tables[1].needs_tiebreak and status.tables[1].in_extra_turns
        assert not status.over

    def test_three_doubles_win_the_table_at_once_and_stop_the_room(self):
        """ "If they roll doubles (of any combination) three times straight, that team wins
        the round, screams BUNKO": the side that rolled them wins, whatever the scores."""
        head = state(1, [Entry(2, 15, "points"), Entry(1, 0, "doubles")])
        other = state(
            2,
            [
                Entry(2, 2, "pair"),
                Entry(2, 0, "doubles"),
                Entry(2, 0, "bunco"),
                Entry(1, 9, "points"),
            ],
        )
        status = round_status(TWO_DICE, [head, other])
        assert status.bell and status.reason == BELL_BUNCO and status.over
        assert status.tables[0].winner_side == 1  # the leader where play stopped
        assert status.tables[1].winner_side == 1  # the bunco's side, though behind 2 to 9

    def test_without_bunco_ends_round_three_doubles_win_only_their_table(self):
        rules = TWO_DICE.with_(bunco_ends_round=False)
        status = round_status(rules, [state(1, []), state(2, [Entry(3, 0, "bunco")])])
        assert not status.bell
        assert not status.tables[0].stopped
        assert status.tables[1].done and status.tables[1].winner_side == 0

    def test_three_dice_nights_may_use_the_rule_too(self):
        """Any dice preset may end its rounds this way; with ``everyone_rolls_once`` a table
        the bell stopped first lets those who have not rolled take a turn (section 3.2)."""
        rules = HOUSE.with_(round_end="any_table")
        first = [Entry(1, 3, "points")]
        tables = [state(1, first), state(2, [Entry(2, 21, "points")])]
        status = round_status(rules, tables)
        assert status.bell and not status.over and status.tables[0].waiting_for == {2, 3, 4}
        rolled = [*first, Entry(2, 0, "miss"), Entry(3, 1, "points"), Entry(4, 0, "miss")]
        status = round_status(rules, [state(1, rolled), tables[1]])
        assert status.over and [t.winner_side for t in status.tables] == [0, 1]


# Two-dice movement is ladder movement with head-table partners staying (docs/rules.md
# section 9.2): "winners advance", "every time a couple loses a round, one of them switches
# chairs at the same table", "partners at the head table remain partners until they lose".


@settings(max_examples=examples(80), deadline=None)
@given(
    players=st.integers(5, 40),
    winners=st.lists(st.sampled_from([(1, 3), (2, 4)]), min_size=10, max_size=10),
)
def test_two_dice_movement(players, winners):
    layout = plan_layout(players, TWO_DICE)
    ghosts = [f"G{i}" for i in range(layout.ghosts)]
    seating = seat_players(
        [(t.seats, t.ghosts) for t in layout.tables], list(range(players)), ghosts
    )
    won = [winners[i % len(winners)] for i in range(len(seating))]
    after = next_seating(TWO_DICE, seating, won, set(ghosts))
    before_partners = round_partners(TWO_DICE, seating)
    after_partners = round_partners(TWO_DICE, after)
    where = {p: t for t, table in enumerate(after, start=1) for p in table}
    bottom = len(seating)
    # Everyone is seated exactly once, at tables of four, and no two ghosts are partners.
    assert sorted(map(str, where)) == sorted(map(str, [*range(players), *ghosts]))
    assert all(len(t) == 4 for t in after)
    for p, q in after_partners.items():
        assert not (p in ghosts and q in ghosts)
    for t, (table, seats) in enumerate(zip(seating, won, strict=True), start=1):
        winning = [table[s - 1] for s in seats]
        losing = [p for p in table if p not in winning]
        if t == 1:
            # The head table's winners stay, still partners; its losers go to the bottom.
            assert all(where[p] == 1 for p in winning)
            assert after_partners[winning[0]] == winning[1]
            assert all(where[p] == bottom for p in losing)
        else:
            # Winners advance one table; losers stay and switch partners.
            assert all(where[p] == t - 1 for p in winning)
            assert all(where[p] == t for p in losing)
            assert after_partners[losing[0]] != losing[1]
            if t > 2:
                # Winners arriving at a table other than the head table split up too.
                assert after_partners[winning[0]] != winning[1]
    # The pair arriving at the head table stays together "until they lose".
    arriving = [seating[1][s - 1] for s in won[1]]
    assert after_partners[arriving[0]] == arriving[1]
    # Nobody but the head table's two pairs keeps a partner.
    kept = {p for p, q in after_partners.items() if before_partners.get(p) == q}
    assert kept <= {*[seating[0][s - 1] for s in won[0]], *arriving}

"""When a round ends: docs/rules.md section 3 (and section 2.4 for group marks)."""

import pytest

from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import DELUXE, HOUSE
from bunco_night.rules.rounds import Entry, TableState, round_status, table_scores


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

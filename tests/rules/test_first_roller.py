"""Who rolls first at a table in a round: docs/rules.md section 2.5."""

import pytest

from bunco_night.rules.errors import RuleError
from bunco_night.rules.movement import first_roller
from bunco_night.rules.presets import DELUXE, HOUSE, LADDER, ONE_TABLE

ONE = (("Ann", "Bea", "Cal", "Dee"),)


@pytest.mark.parametrize(
    ("last_winner", "seat"),
    [
        # "The scorekeeper begins by ringing the bell ... This player then rolls": round 1.
        (None, 1),
        # "The player to the left of the round's winner picks up the dice and rolls first"
        ("Ann", 2),
        ("Cal", 4),
        ("Dee", 1),  # to the left of seat 4 is seat 1, going clockwise
        ("Zed", 1),  # the winner has left the table: the scorekeeper
    ],
)
def test_one_table_the_left_of_the_last_winner(last_winner, seat):
    assert first_roller(ONE_TABLE, ONE, 1, last_winner=last_winner) == seat


def test_a_party_starts_with_each_table_s_scorekeeper():
    """ "The scorekeeper at each table rolls first": the app names seat 1, whatever the last
    round's winners; at a team table seat 1 is one of the two who stayed (section 5.3)."""
    seating = (("Ann", "Bea", "Cal", "Dee"), ("Eve", "Fay", "Gus"), ("Hal", "Ivy"))
    for table in (1, 2, 3):
        assert first_roller(DELUXE, seating, table, last_winner="Bea") == 1
        assert first_roller(HOUSE, seating, table) == 1


def test_a_ghost_is_never_the_scorekeeper():
    seating = (("Ann", "Bea", "Cal", "Dee"), ("G1", "Fay", "G2", "Hal"))
    assert first_roller(LADDER, seating, 2, ghosts={"G1", "G2"}) == 2


@pytest.mark.parametrize(("table", "ghosts", "code"), [(0, (), "bad_table"), (2, (), "bad_table")])
def test_refused(table, ghosts, code):
    with pytest.raises(RuleError) as caught:
        first_roller(HOUSE, ONE, table, ghosts=ghosts)
    assert caught.value.code == code

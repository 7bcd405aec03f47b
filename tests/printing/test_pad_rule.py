"""The one line on a score pad that says how a round ends at that table (docs/rules.md
section 3: 3.1 the head table, 3.2 every table, 3.8 timed rounds, 3.9 the first side
anywhere; section 9.2 for two dice)."""

import dataclasses

import pytest

from bunco_night.printing.documents import pad_rule
from bunco_night.rules.presets import preset


def rules(name, **knobs):
    return dataclasses.replace(preset(name), **knobs)


@pytest.mark.parametrize(
    ("rules_", "head", "line"),
    [
        # 3.1: the head table rings the bell; the others play until it rings.
        (rules("house"), True, "First to 21 rings the bell for every table"),
        (rules("house"), False, "Play until the bell rings: the higher score wins"),
        # 3.8: a timed round says when the bell rings whatever the scores.
        (
            rules("house", round_minutes=15),
            False,
            "Play until the bell rings: the higher score wins; the bell rings after 15 minutes",
        ),
        # 3.9 and 9.2: the first team anywhere stops every table, or three doubles in a row.
        (
            rules("two_dice"),
            True,
            "The first side anywhere to 21 stops every table: the higher score wins; "
            "three doubles in a row win at once",
        ),
        # 3.2: every table plays to its own target; a bunco ends it everywhere.
        (rules("deluxe"), None, "First to 21 wins the round; a bunco ends it everywhere"),
    ],
)
def test_a_pad_says_how_the_round_ends(rules_, head, line):
    assert pad_rule(rules_, target=21, head=head) == line

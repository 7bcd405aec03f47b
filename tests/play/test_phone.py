"""What the table phone counts for a tap still waiting on it (docs/rules.md section 2.3):
each button's points as the rules score them, and each roll of the dice entry."""

import dataclasses
import json

import pytest

from bunco_night.play.phone import dice_points, tap_buttons
from bunco_night.play.rolls import taps
from bunco_night.rules.presets import GroupMark, preset
from bunco_night.rules.scoring import score_roll


def test_each_button_says_what_its_roll_adds_as_the_rules_score_it():
    rules = dataclasses.replace(
        preset("house"),
        group_marks=(
            GroupMark("wipeout", "Wipeout", effect="reset_round_score"),
            GroupMark("monte", "Monte Carlo", points=3),
        ),
    )
    buttons = {b.tap.value: (b.points, b.reset) for b in tap_buttons(rules, taps(rules, 4))}
    assert buttons == {
        "points:1": (1, False),
        "points:2": (2, False),
        "bunco": (rules.bunco_points, False),
        "miss": (0, False),
        "mini": (rules.mini_points, False),
        "mark:wipeout": (0, True),
        "mark:monte": (3, False),
    }


def test_two_dice_buttons_score_the_die_the_pair_and_a_bunco_that_wins_the_round():
    rules = preset("two_dice")
    buttons = {b.tap.value: b.points for b in tap_buttons(rules, taps(rules, 2))}
    assert buttons == {
        "points:1": rules.mark_die_points,
        "pair": rules.mark_pair_points,
        "bunco": 0,  # it wins the round at once (section 9.2): nothing to add
        "miss": 0,
        "doubles": 0,
    }


@pytest.mark.parametrize("name, dice", [("house", 3), ("deluxe", 3), ("two_dice", 2)])
def test_every_roll_of_the_dice_entry_is_scored_as_the_server_scores_it(name, dice):
    rules = preset(name)
    table = json.loads(dice_points(rules, 3))
    assert len(table) == (56 if dice == 3 else 21)  # faces in order, with repeats
    for faces, points in table.items():
        assert points == score_roll([int(f) for f in faces], 3, rules).points
    assert table["333"[:dice]] == (rules.bunco_points if dice == 3 else rules.mark_pair_points)
    assert dice_points(rules, None) == "{}"

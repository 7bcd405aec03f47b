"""Rule presets and their knobs (docs/rules.md section 11)."""

import dataclasses

import pytest

from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import (
    CARD_1904,
    DELUXE,
    HOUSE,
    LADDER,
    ONE_TABLE,
    PRESETS,
    GroupMark,
    Rules,
    preset,
)


def test_the_five_presets_exist_by_name():
    assert set(PRESETS) == {"deluxe", "house", "ladder", "one_table", "card_1904"}
    assert preset("house") is HOUSE


def test_deluxe_is_the_winning_moves_party():
    """Section 2/3 Deluxe: low 7, high 5; every table to 21; a bunco ends the round."""
    assert (DELUXE.split_low_high, DELUXE.low_points, DELUXE.high_points) == (True, 7, 5)
    assert DELUXE.round_end == "every_table" and DELUXE.bunco_ends_round
    assert DELUXE.tie_break == "roll_off"


def test_house_is_head_table_control_with_mini_5():
    """Section 11.1 house: mini bunco 5, head table controls, extra-turn ties."""
    assert not HOUSE.split_low_high and HOUSE.mini_points == 5
    assert HOUSE.round_end == "head_table" and HOUSE.everyone_rolls_once
    assert HOUSE.tie_break == "extra_turn"
    assert HOUSE.sets_per_night == 4  # section 8.4: "4 sets of one through six"


def test_ladder_fills_with_ghosts():
    """Section 5.2: "The ladder is played at tables of four", so ghosts fill empty seats."""
    assert LADDER.movement == "ladder" and LADDER.fill == "ghosts"
    with pytest.raises(RuleError) as caught:
        LADDER.with_(fill="tables")
    assert caught.value.code == "ladder_needs_ghosts"


@pytest.mark.parametrize("rules", [HOUSE, DELUXE, HOUSE.with_(fill="ghosts")])
def test_head_table_partners_stay_only_with_ladder_movement(rules):
    """docs/rules.md section 5.4: the variant is offered only with ladder movement; with Deluxe
    movement the pair arriving at the head table were partners last round."""
    with pytest.raises(RuleError) as caught:
        rules.with_(head_partners_stay=True)
    assert caught.value.code == "head_partners_need_ladder"
    with pytest.raises(RuleError) as caught:
        Rules.from_dict({**rules.as_dict(), "head_partners_stay": True})
    assert caught.value.code == "head_partners_need_ladder"
    assert LADDER.with_(head_partners_stay=True).head_partners_stay


def test_one_table_and_card_presets():
    assert ONE_TABLE.target_one_table == 21
    assert CARD_1904.is_card_game and CARD_1904.rounds_per_set == 10  # "ten games"


def test_targets_and_quick_game():
    """Section 3: 21 teams, 21 one table, 11 individuals; quick game 11 for all."""
    assert (HOUSE.target_teams, HOUSE.target_one_table, HOUSE.target_individuals) == (21, 21, 11)
    assert HOUSE.with_(quick_game=True).quick_game


def test_marks_per_set_can_be_two_to_six():
    """Section 1: "some groups play 2 to 6"."""
    rules = HOUSE.with_(marks=(2, 3, 4, 5, 6))
    assert rules.rounds_per_set == 5


def test_presets_are_immutable_copies():
    with pytest.raises(dataclasses.FrozenInstanceError):
        HOUSE.bunco_points = 30
    changed = HOUSE.with_(bunco_points=30)
    assert HOUSE.bunco_points == 21 and changed.bunco_points == 30


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"bunco_points": -1}, "negative_points"),
        ({"target_teams": 0}, "bad_target"),
        ({"marks": (0, 1)}, "bad_marks"),
        ({"marks": ()}, "bad_marks"),
        ({"sets_per_night": 0}, "bad_sets"),
        ({"round_end": "whenever"}, "bad_round_end"),
        ({"fill": "chairs"}, "bad_fill"),
        ({"tie_break": "coin"}, "bad_tie_break"),
        ({"movement": "card"}, "bad_movement"),
        ({"group_marks": (GroupMark("w", "W"), GroupMark("w", "W2"))}, "duplicate_mark"),
        ({"group_marks": (GroupMark("w", "W", effect="explode"),)}, "bad_mark"),
    ],
)
def test_bad_knobs_are_refused_with_a_code(changes, code):
    with pytest.raises(RuleError) as caught:
        HOUSE.with_(**changes)
    assert caught.value.code == code


def test_rules_round_trip_through_plain_values():
    rules = HOUSE.with_(group_marks=(GroupMark("wipeout", "Wipeout", effect="reset_round_score"),))
    assert Rules.from_dict(rules.as_dict()) == rules
    with pytest.raises(RuleError) as caught:
        Rules.from_dict({**rules.as_dict(), "colour": "red"})
    assert caught.value.code == "unknown_knob"


def test_unknown_preset():
    with pytest.raises(RuleError) as caught:
        preset("yahtzee")
    assert caught.value.code == "unknown_preset"

"""Rule presets and their knobs (docs/rules.md section 11)."""

import dataclasses

import pytest

from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import (
    BUCK_DICE,
    CARD_1904,
    DELUXE,
    HOUSE,
    LADDER,
    ONE_TABLE,
    PRESETS,
    TWO_DICE,
    GroupMark,
    Rules,
    preset,
)
from bunco_night.rules.prizes import PrizePolicy


def test_the_seven_presets_exist_by_name():
    assert set(PRESETS) == {
        "deluxe",
        "house",
        "ladder",
        "one_table",
        "card_1904",
        "two_dice",
        "buck_dice",
    }
    assert preset("house") is HOUSE


def test_two_dice_is_the_letter_s_game_on_the_ladder():
    """docs/rules.md sections 9.2 and 11.1: two dice, a die for each round's number, the first
    team to 21 anywhere stops every table, winners move up (ladder movement, so tables of
    four with ghosts) and head-table partners stay together until they lose."""
    assert TWO_DICE.is_two_dice and TWO_DICE.dice == 2 and TWO_DICE.draw_mark_with_die
    assert TWO_DICE.round_end == "any_table" and TWO_DICE.bunco_ends_round
    assert not TWO_DICE.everyone_rolls_once
    assert (TWO_DICE.movement, TWO_DICE.fill, TWO_DICE.head_partners_stay) == (
        "ladder",
        "ghosts",
        True,
    )
    assert (TWO_DICE.mark_die_points, TWO_DICE.mark_pair_points) == (1, 2)
    assert TWO_DICE.planned_mark(1) is None and TWO_DICE.rounds_per_set == 6


def test_buck_dice_is_one_game_a_set():
    """docs/rules.md section 9.3: out on exactly 15, a Little Buck is 5, one game a set."""
    assert BUCK_DICE.is_buck_dice and not BUCK_DICE.is_card_game and not BUCK_DICE.is_two_dice
    assert (BUCK_DICE.buck_target, BUCK_DICE.little_buck_points) == (15, 5)
    assert BUCK_DICE.rounds_per_set == 1 and BUCK_DICE.planned_mark(1) is None


@pytest.mark.parametrize(
    ("rules", "changes", "code"),
    [
        (HOUSE, {"dice": 4}, "bad_dice"),
        (CARD_1904, {"dice": 2}, "bad_dice"),
        (BUCK_DICE, {"dice": 2}, "bad_buck_dice"),
        (TWO_DICE, {"mark_pair_points": -1}, "negative_points"),
        (HOUSE, {"round_minutes": -1}, "bad_round_minutes"),
        (HOUSE, {"round_minutes": 121}, "bad_round_minutes"),
        (BUCK_DICE, {"round_minutes": 10}, "bad_buck_dice"),
        (BUCK_DICE, {"buck_target": 0}, "bad_target"),
        (BUCK_DICE, {"little_buck_points": -5}, "negative_points"),
        (HOUSE, {"prize_rounding": "dimes"}, "bad_prize_rounding"),
        (HOUSE, {"prize_leftover": "charity"}, "bad_prize_leftover"),
        (HOUSE, {"prize_ties": "coin"}, "bad_prize_ties"),
        (HOUSE, {"substitute_prizes": "maybe"}, "bad_substitute_prizes"),
        (HOUSE, {"fewest_wins_min_rounds": -1}, "bad_min_rounds"),
        (TWO_DICE, {"movement": "deluxe", "fill": "tables"}, "head_partners_need_ladder"),
    ],
)
def test_new_knobs_are_refused_with_a_code(rules, changes, code):
    """docs/rules.md section 11.3: the combinations the app refuses."""
    with pytest.raises(RuleError) as caught:
        rules.with_(**changes)
    assert caught.value.code == code


def test_timed_rounds_for_any_dice_preset():
    """docs/rules.md section 3.8: minutes per round, 0 for no clock, for any preset but Buck
    Dice."""
    for name in ("deluxe", "house", "ladder", "one_table", "card_1904", "two_dice"):
        assert not preset(name).is_timed
        assert preset(name).with_(round_minutes=12).is_timed


def test_prize_knobs_default_to_whole_dollars_and_the_first_prize():
    """docs/rules.md section 7.8: a group's prizes are rounded to whole dollars by default,
    the rest goes to the first prize; ties are rolled off; substitutes win like anyone."""
    assert HOUSE.prize_policy == PrizePolicy(rounding="dollars", leftover="first_prize")
    changed = HOUSE.with_(prize_rounding="quarters", prize_ties="split", fewest_wins_min_rounds=6)
    assert changed.prize_policy.unit_cents == 25 and changed.prize_policy.ties == "split"


def test_rules_stored_before_the_new_knobs_still_load():
    """A night keeps its rules (docs/rules.md section 8.5): rules stored without the new
    knobs load with their defaults."""
    stored = HOUSE.as_dict()
    for knob in ("dice", "round_minutes", "buck_target", "prize_rounding", "prize_ties"):
        del stored[knob]
    assert Rules.from_dict(stored) == HOUSE


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

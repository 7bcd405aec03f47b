"""A group's rules in words, made from its own knobs (the rules page and the rules card).
Each case quotes what docs/rules.md says and checks the words follow the knob."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.explain import how_to_play
from bunco_night.rules.presets import PRESETS, GroupMark, preset
from bunco_night.rules.shares import PrizeCategory
from tests.search import examples


def said(rules, prizes=(), **kw) -> str:
    return " ".join(line for s in how_to_play(rules, prizes, **kw) for line in s.lines)


def section(rules, key, prizes=()) -> str:
    return " ".join(next(s for s in how_to_play(rules, prizes) if s.key == key).lines)


@pytest.mark.parametrize(
    ("name", "changes", "key", "words"),
    [
        # docs/rules.md section 2.1: the points are knobs.
        ("house", {}, "scoring", "a mini bunco: 5 points"),
        ("house", {"mini_points": 3}, "scoring", "a mini bunco: 3 points"),
        ("deluxe", {}, "scoring", "a low bunco: 7 points"),
        ("house", {"bunco_points": 25}, "scoring", "BUNCO: 25 points"),
        # Section 9.2: two dice, 1 and 2 points, three doubles in a row.
        ("two_dice", {}, "scoring", "A roll is two dice."),
        ("two_dice", {"mark_pair_points": 3}, "scoring", "(a pair): 3 points"),
        ("two_dice", {}, "scoring", "Three doubles in a row in one turn are a BUNCO"),
        # Section 3.1, 3.2 and 3.9: the three ways a round ends.
        ("house", {}, "round", "The head table controls the round"),
        ("house", {}, "round", "everyone who has not rolled yet this round takes one turn"),
        ("deluxe", {}, "round", "Every table plays to its target"),
        ("deluxe", {}, "round", "A BUNCO ends the round at every table at once"),
        ("two_dice", {}, "round", "The first side anywhere to reach its target stops every"),
        ("house", {"round_end": "any_table"}, "round", "The first side anywhere"),
        # Section 3.3: targets, and the quick game.
        ("house", {"target_teams": 15}, "round", "a team at a table of four: 15"),
        ("deluxe", {"quick_game": True}, "round", "Every table plays to 11"),
        # Section 3.4: the tie-break.
        ("house", {}, "round", "every player at that table takes one more turn"),
        ("deluxe", {}, "round", "the first side to 5 points wins"),
        # Section 3.8: timed rounds.
        ("house", {"round_minutes": 15}, "round", "Each round has 15 minutes"),
        ("deluxe", {"round_minutes": 1}, "round", "Each round has 1 minute,"),
        # Section 2.5: who rolls first.
        ("house", {}, "first", "the person in seat 1"),
        # Sections 5.1 to 5.4: moving.
        ("house", {}, "moving", "a table of four sends its losing team"),
        ("ladder", {}, "moving", "the winners move up a table"),
        ("two_dice", {}, "moving", "Partners at the head table stay together until they lose"),
        ("ladder", {}, "moving", "ghosts fill the empty seats"),
        # Section 9.1 and 9.3: the other games.
        ("card_1904", {}, "scoring", "The host records each table's winner."),
        ("buck_dice", {}, "scoring", "exactly 15"),
        ("buck_dice", {"buck_target": 21}, "scoring", "exactly 21"),
        ("buck_dice", {"little_buck_points": 4}, "scoring", "a Little Buck: 4 points"),
        ("buck_dice", {}, "moving", "Nobody moves"),
        # Sections 1 and 8.4: how long a night is.
        ("house", {}, "length", "the night has 4 sets"),
        ("two_dice", {}, "length", "A die is rolled at the head table for each round's number"),
        ("house", {"marks": (2, 3, 4, 5, 6)}, "length", "played for 2, 3, 4, 5, 6"),
    ],
)
def test_the_words_follow_the_knobs(name, changes, key, words):
    assert words in section(preset(name).with_(**changes), key)


def test_the_group_s_own_marks_are_explained():
    """Section 2.4: a mark that resets, a mark with points, a tally."""
    marks = (
        GroupMark("wipeout", "Wipeout", 0, "reset_round_score"),
        GroupMark("monte", "Monte Carlo", 3),
        GroupMark("snake", "Snake eyes"),
    )
    text = section(preset("house").with_(group_marks=marks), "scoring")
    assert "Wipeout: puts your side's score for the round back to 0." in text
    assert "Monte Carlo: scores +3 for your side." in text
    assert "Snake eyes: is tallied on your card." in text


def test_the_prizes_and_how_they_are_paid():
    """Sections 7.2 and 7.4 to 7.8."""
    prizes = [
        PrizeCategory("most_wins", percent=42),
        PrizeCategory("fewest_wins", amount_cents=300),
        PrizeCategory("most_mark", amount_cents=500, mark="wipeout", label="Most wipeouts"),
        PrizeCategory("door_prize", amount_cents=1000),
    ]
    rules = preset("house")
    text = section(rules, "prizes", prizes)
    assert "Most wins: the most wins. 42% of the pot." in text
    assert "Fewest wins: the fewest wins. $3." in text
    assert "Most wipeouts: the most wipeouts. $5." in text
    assert "drawn at random among everyone present" in text
    assert "rounded down to the whole dollar; what is left over goes to most wins" in text
    assert "roll off for it" in text
    policy = {
        "prize_rounding": "quarters",
        "prize_leftover": "next_pot",
        "prize_ties": "split",
        "substitute_prizes": "regular",
        "fewest_wins_min_rounds": 3,
    }
    text = section(rules.with_(**policy), "prizes", prizes)
    assert "rounded down to the quarter; what is left over is kept for next month's pot" in text
    assert "Players tied for a prize split its money." in text
    assert "wins it for the regular they came for" in text
    assert "at least 3 rounds" in text
    assert "The group gives no prizes." in section(rules, "prizes", [])


def test_a_night_says_its_own_number_of_sets():
    assert "the night has 2 sets" in said(preset("house"), sets=2)


knobs = st.fixed_dictionaries(
    {},
    optional={
        "dice": st.sampled_from([2, 3]),
        "split_low_high": st.booleans(),
        "round_end": st.sampled_from(["head_table", "every_table", "any_table"]),
        "bunco_ends_round": st.booleans(),
        "everyone_rolls_once": st.booleans(),
        "tie_break": st.sampled_from(["roll_off", "extra_turn"]),
        "round_minutes": st.integers(0, 120),
        "quick_game": st.booleans(),
        "fill": st.sampled_from(["tables", "ghosts"]),
        "draw_mark_with_die": st.booleans(),
        "prize_ties": st.sampled_from(["roll_off", "split"]),
        "prize_leftover": st.sampled_from(["first_prize", "next_pot", "host"]),
    },
)


@settings(max_examples=examples(200), deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), changes=knobs)
def test_every_rules_the_app_accepts_can_be_explained(name, changes):
    try:
        rules = preset(name).with_(**changes)
    except RuleError:
        return
    sections = how_to_play(rules, [PrizeCategory("most_wins", percent=50)])
    assert [s.key for s in sections][:2] == ["scoring", "round"]
    assert all(s.title and all(line.strip() for line in s.lines) for s in sections)
    text = said(rules)
    assert ("two dice" in text) == rules.is_two_dice
    assert (f"Each round has {rules.round_minutes} minute" in text) == (
        rules.is_timed and not rules.is_buck_dice
    )


def test_rules_are_plain_values():
    """Sections are frozen dataclasses: the pages only lay them out."""
    (first, *_) = how_to_play(preset("house"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.title = "x"

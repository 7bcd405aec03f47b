"""Scoring a roll: docs/rules.md section 2."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import DELUXE, HOUSE, TWO_DICE, GroupMark
from bunco_night.rules.scoring import DICE, MARK, ScoredEntry, score_entry, score_roll, score_tap

# (dice, mark, preset, points, kind, roll again) -- each row follows docs/rules.md 2.1.
CASES = [
    # "each die showing the mark: 1"
    ((1, 4, 5), 1, HOUSE, 1, "points", True),
    ((1, 1, 5), 1, HOUSE, 2, "points", True),
    ((2, 6, 2), 2, DELUXE, 2, "points", True),
    # "bunco (three of the mark): 21"
    ((1, 1, 1), 1, HOUSE, 21, "bunco", True),
    ((6, 6, 6), 6, DELUXE, 21, "bunco", True),
    # "three of a kind below the mark: 7 (low bunco) | 5 (mini bunco)"
    ((2, 2, 2), 4, DELUXE, 7, "low", True),
    ((2, 2, 2), 4, HOUSE, 5, "mini", True),
    # "three of a kind above the mark: 5 (high bunco) | 5 (mini bunco)"
    ((5, 5, 5), 4, DELUXE, 5, "high", True),
    ((5, 5, 5), 4, HOUSE, 5, "mini", True),
    # "nothing scores: 0; the turn passes left"
    ((2, 3, 4), 1, HOUSE, 0, "miss", False),
    ((2, 3, 4), 6, DELUXE, 0, "miss", False),
]


@pytest.mark.parametrize(("dice", "mark", "rules", "points", "kind", "again"), CASES)
def test_score_roll_section_2(dice, mark, rules, points, kind, again):
    scored = score_roll(dice, mark, rules)
    assert (scored.points, scored.kind, scored.roll_again) == (points, kind, again)


@pytest.mark.parametrize(
    "dice", [(0, 1, 2), (1, 2, 7), (1, 2), (1, 2, 3, 4), ("1", 2, 3), (1.0, 2, 3), (True, 2, 3)]
)
def test_bad_dice_raise_a_coded_error(dice):
    with pytest.raises(RuleError) as caught:
        score_roll(dice, 1, HOUSE)
    assert caught.value.code == "bad_dice"


@pytest.mark.parametrize("mark", [0, 7, -1, "1"])
def test_bad_mark_raises(mark):
    with pytest.raises(RuleError) as caught:
        score_roll((1, 2, 3), mark, HOUSE)
    assert caught.value.code == "bad_mark"


@given(
    st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    st.integers(1, 6),
    st.sampled_from([HOUSE, DELUXE]),
)
def test_any_roll_scores_again_exactly_when_it_scores(dice, mark, rules):
    """Section 2.2: "A roll that scores anything ... lets the same player roll again"."""
    scored = score_roll(dice, mark, rules)
    assert scored.roll_again == (scored.points > 0)
    assert scored.points >= 0


def test_tap_matches_the_dice():
    """A tap of "2 of the mark" scores what two of the mark on the dice score."""
    assert score_tap("points", HOUSE, 2) == score_roll((3, 3, 1), 3, HOUSE)
    assert score_tap("points", HOUSE, 3) == score_roll((3, 3, 3), 3, HOUSE)
    assert score_tap("low", DELUXE) == score_roll((1, 1, 1), 3, DELUXE)
    assert score_tap("mini", HOUSE) == score_roll((1, 1, 1), 3, HOUSE)
    assert score_tap("miss", HOUSE).roll_again is False


@pytest.mark.parametrize(
    ("kind", "rules", "count", "code"),
    [
        ("points", HOUSE, 0, "bad_count"),
        ("points", HOUSE, 4, "bad_count"),
        ("low", HOUSE, 0, "bad_kind"),
        ("mini", DELUXE, 0, "bad_kind"),
        ("wipeout", HOUSE, 0, "bad_kind"),
    ],
)
def test_bad_taps_raise_coded_errors(kind, rules, count, code):
    with pytest.raises(RuleError) as caught:
        score_tap(kind, rules, count)
    assert caught.value.code == code


def test_presets_change_points_knob_by_knob():
    """Section 2: the points are knobs a group may change."""
    rules = HOUSE.with_(bunco_points=25, mini_points=10)
    assert score_roll((4, 4, 4), 4, rules).points == 25
    assert score_roll((2, 2, 2), 4, rules).points == 10


def test_group_marks_are_off_by_default_and_can_be_defined():
    """Section 2: group marks are house rules; none is on by default."""
    assert HOUSE.group_marks == () and DELUXE.group_marks == ()
    wipeout = GroupMark("wipeout", "Wipeout", effect="reset_round_score")
    rules = HOUSE.with_(group_marks=(wipeout, GroupMark("monte", "Monte Carlo", points=2)))
    assert rules.group_mark("wipeout").effect == "reset_round_score"
    assert rules.group_mark("monte").points == 2
    with pytest.raises(RuleError) as caught:
        rules.group_mark("snake_eyes")
    assert caught.value.code == "unknown_mark"


@given(
    st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    st.integers(1, 6),
    st.sampled_from([HOUSE, DELUXE]),
)
def test_an_entry_keeps_how_many_dice_showed_the_mark(dice, mark, rules):
    """Section 6.1: a roll of points keeps how many dice showed the mark; a tap of that many
    scores the same entry as the dice."""
    entry = score_entry(DICE, rules, dice=dice, mark=mark)
    scored = score_roll(dice, mark, rules)
    assert (entry.points, entry.kind) == (scored.points, scored.kind)
    assert entry.mark_dice == (dice.count(mark) if entry.kind == "points" else 0)
    assert entry.mark_code == "" and not entry.reset
    if entry.kind in ("points", "bunco"):
        assert score_entry("points", rules, count=dice.count(mark)) == entry


def test_two_dice_entries_keep_one_die_or_a_pair_of_the_mark():
    """Section 9.2: one die of the mark, or a pair of it; doubles and misses show none."""
    assert score_entry(DICE, TWO_DICE, dice=(4, 2), mark=4).mark_dice == 1
    assert score_entry(DICE, TWO_DICE, dice=(4, 4), mark=4).mark_dice == 2
    assert score_entry("points", TWO_DICE, count=2) == score_entry(
        DICE, TWO_DICE, dice=(4, 4), mark=4
    )
    assert score_entry(DICE, TWO_DICE, dice=(3, 3), mark=4).mark_dice == 0
    assert score_entry(DICE, TWO_DICE, dice=(4, 4), mark=4, doubles_before=2).kind == "bunco"


def test_a_group_mark_entry_keeps_its_code_points_and_effect():
    """Section 2.4: a group mark scores its points for the roller's side; a reset mark sets
    the side's round score to 0."""
    wipeout = GroupMark("wipeout", "Wipeout", effect="reset_round_score")
    rules = HOUSE.with_(group_marks=(wipeout, GroupMark("monte", "Monte Carlo", points=2)))
    assert score_entry(MARK, rules, mark_code="monte") == ScoredEntry(2, MARK, 0, "monte")
    assert score_entry(MARK, rules, mark_code="wipeout") == ScoredEntry(0, MARK, 0, "wipeout", True)
    with pytest.raises(RuleError) as caught:
        score_entry(MARK, rules, mark_code="snake_eyes")
    assert caught.value.code == "unknown_mark"
    long = "m" * 31  # a code longer than an entry keeps, in rules saved before it was refused
    with pytest.raises(RuleError) as caught:
        score_entry(MARK, HOUSE.with_(group_marks=(GroupMark(long, "Long"),)), mark_code=long)
    assert caught.value.code == "mark_code_too_long"

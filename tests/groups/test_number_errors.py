"""Every number box of the Rules & prizes page answers letters, a negative number, a huge
number and an empty box in the site's own words for that box: what it holds and its
range (docs/rules.md section 11.2), never Django's stock words ("Ensure this value is
greater than or equal to 0.") nor a box-less "Fill this in." or "Enter 0 or more."."""

import pytest
from django import forms

from bunco_night.groups.prize_forms import PrizesForm
from bunco_night.groups.rules_forms import RulesForm
from bunco_night.rules.presets import preset

LETTERS = "Enter a whole number, like 5."
POINTS = ("Points cannot be below 0.", "Points cannot be more than 1000.")
TARGET = ("A target is at least 1.", "A target is at most 1000.")
MINUTES = "Minutes go from 0 (no clock) to 120."
SETS = "A night has 1 to 12 sets."
BUCK = "The score that takes a player out is from 1 to 100."
ROUNDS = "Rounds go from 0 (everyone) to 1000."

# Each number box: what it says for a negative number, a huge one, and an empty box.
EXPECTED = {
    "bunco_points": (*POINTS, "Give the points: 0 for none."),
    "mini_points": (*POINTS, "Give the points: 0 for none."),
    "low_points": (*POINTS, "Give the points: 0 for none."),
    "high_points": (*POINTS, "Give the points: 0 for none."),
    "mark_die_points": (*POINTS, "Give the points: 0 for none."),
    "mark_pair_points": (*POINTS, "Give the points: 0 for none."),
    "little_buck_points": (*POINTS, "Give the points: 0 for none."),
    "target_teams": (*TARGET, "Give the target, like 21."),
    "target_individuals": (*TARGET, "Give the target, like 21."),
    "target_one_table": (*TARGET, "Give the target, like 21."),
    "round_minutes": (MINUTES, MINUTES, "Give the minutes: 0 for no clock."),
    "sets_per_night": (SETS, SETS, "Give the sets per night, 1 to 12."),
    "buck_target": (BUCK, BUCK, "Give the score, like 15."),
    "fewest_wins_min_rounds": (ROUNDS, ROUNDS, None),  # empty: stays as it was
}


def number_boxes(form_class) -> list[str]:
    return [n for n, f in form_class.base_fields.items() if isinstance(f, forms.IntegerField)]


def test_every_number_box_of_the_page_is_listed():
    assert set(number_boxes(RulesForm) + number_boxes(PrizesForm)) == set(EXPECTED)


def error(name: str, typed: str) -> str | None:
    if name in RulesForm.base_fields:
        form = RulesForm({name: typed})
    else:
        form = PrizesForm({name: typed}, prizes=[], rules=preset("house"))
    form.is_valid()
    errors = form.errors.get(name)
    return errors[0] if errors else None


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize(
    ("typed", "which"),
    [("abc", None), ("1e", None), ("1.5", None), ("-1", 0), ("99999999999999999999", 1), ("", 2)],
)
def test_a_number_box_says_what_is_wrong_in_its_own_words(name, typed, which):
    expected = LETTERS if which is None else EXPECTED[name][which]
    assert error(name, typed) == expected

"""docs/rules.md section 7.9: a night's money as plain values, whether it adds up, and
what a change would move."""

import dataclasses

from bunco_night.rules.awards import award_prizes
from bunco_night.rules.money import (
    NightFigures,
    Place,
    change_token,
    figures_data,
    figures_from_data,
    money_of,
    only_names_winners,
    unbalanced,
)
from bunco_night.rules.prizes import PrizePolicy
from bunco_night.rules.shares import PrizeCategory
from bunco_night.rules.standings import Standing

CATEGORIES = [
    PrizeCategory("most_wins", percent=42),
    PrizeCategory("most_buncos", percent=33),
    PrizeCategory("last_bunco", percent=17),
    PrizeCategory("fewest_wins", percent=8),
]
POLICY = PrizePolicy(rounding="dollars", leftover="first_prize")


def standing(player, wins, buncos=0):
    return Standing(player, wins, 3 - wins, buncos, 0, {})


def figures(pot=4500, tiebreaks=None, share=0, **kw):
    standings = [standing(1, 3), standing(2, 2, 1), standing(3, 2, 1), standing(4, 0)]
    awards = award_prizes(
        standings, CATEGORIES, pot_cents=pot, tiebreaks=tiebreaks, policy=POLICY, **kw
    )
    collected = pot + share
    places = (Place(10, 500, collected - 500, 500),)
    return NightFigures(
        collected, share, "2027" if share else "", 10 if share else None, places, awards
    )


def test_the_section_7_8_example_adds_up():
    """$45 in whole dollars: $18, $14, $7 and $3, the $3 left over to most wins ($21)."""
    f = figures()
    assert [r.amount_cents for r in f.awards.results] == [2100, 1400, 700, 300]
    assert unbalanced(f) == []


def test_what_does_not_add_up_is_said():
    f = figures()
    wrong = dataclasses.replace(f, collected_cents=f.collected_cents + 1)
    assert unbalanced(wrong)  # the places paid less, and pot and share are not the collection
    shrunk = dataclasses.replace(f, awards=dataclasses.replace(f.awards, host_cents=100))
    assert any("prizes and leftover" in p for p in unbalanced(shrunk))


def test_figures_go_to_json_and_back_unchanged():
    f = figures(tiebreaks={"most_buncos": 3}, share=500)
    assert figures_from_data(figures_data(f)) == f


def test_a_tie_broken_after_the_night_moves_nobody_s_money():
    """Most buncos is tied (players 2 and 3): naming its winner pays the money kept for it."""
    tied = figures()
    assert tied.awards.results[1].tied
    settled = figures(tiebreaks={"most_buncos": 3})
    assert money_of(tied) != money_of(settled)
    assert only_names_winners(tied, settled)
    # Changing a winner already named, or the pot, is a change of money.
    other = figures(tiebreaks={"most_buncos": 2})
    assert not only_names_winners(settled, other)
    assert not only_names_winners(tied, figures(pot=5000, tiebreaks={"most_buncos": 3}))


def test_a_change_s_token_names_that_change_only():
    a, b, c = figures(), figures(pot=5000), figures(pot=5500)
    assert change_token(a, b) == change_token(a, b)
    assert change_token(a, b) != change_token(a, c)

"""The Bonanza chip ledger: docs/rules.md section 9.4."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.bonanza import (
    BONANZA,
    POKER,
    SPACES,
    BonanzaStep,
    bonanza_ledger,
    bonanza_replay,
)
from bunco_night.rules.errors import RuleError
from tests.search import examples

PLAYERS = ("Ann", "Bea", "Cal")


def test_the_ten_spaces():
    """ "the upper half of the cloth (Joker, Queen-Jack, Sequence, Ten-Two, and Poker) and
    ... the lower half (Ace of Spades, King of Hearts, Queen of Diamonds, Jack of Clubs,
    and Bonanza)\""""
    assert len(SPACES) == 10 and SPACES[0] == "joker" and SPACES[-1] == BONANZA
    assert bonanza_ledger(PLAYERS, poker=False).spaces == tuple(s for s in SPACES if s != POKER)


def test_a_chip_on_each_space_from_every_player_each_hand():
    """ "Each player must then place one chip of the same denomination on each of the ten
    spaces"; the deal passes to the left after each hand."""
    ledger = bonanza_ledger(PLAYERS, start_chips=50).deal()
    assert ledger.on_layout == dict.fromkeys(SPACES, 3)
    assert ledger.totals == dict.fromkeys(PLAYERS, -10)
    assert ledger.chips == dict.fromkeys(PLAYERS, 40)
    assert ledger.dealer_player == "Ann" and ledger.hand == 1


def test_a_hand_won_spaces_the_widow_and_bonanza():
    ledger = bonanza_ledger(PLAYERS).deal()
    # "The successful bidder gives the dealer the number of chips bid"
    ledger = ledger.sell_widow("Cal", 4)
    ledger = ledger.take("joker", "Bea").take("ace_of_spades", "Cal")
    ledger = ledger.poker_bet("Ann", 2).poker_bet("Bea", 2).take(POKER, "Ann")
    # "he calls "Bonanza" and picks up the chips in the Bonanza circle. Each of the other
    # players must also give one chip for each card then left in his hand"
    ledger = ledger.call_bonanza("Bea", {"Ann": 5, "Cal": 2})
    assert ledger.totals == {
        "Ann": -10 + 4 + 7 - 2 - 5,
        "Bea": -10 + 3 - 2 + 3 + 7,
        "Cal": -10 - 4 + 3 - 2,
    }
    assert not ledger.in_hand and ledger.taken == {"joker", "ace_of_spades", POKER, BONANZA}
    # "the chips which have not been won by any of the players are left on the sheet"
    assert ledger.on_layout["queen_jack"] == 3 and ledger.on_layout["joker"] == 0
    ledger = ledger.deal()
    assert ledger.on_layout["queen_jack"] == 6 and ledger.on_layout["joker"] == 3
    assert ledger.dealer_player == "Bea" and ledger.taken == frozenset()
    assert sum(ledger.totals.values()) + ledger.chips_on_layout == 0


def test_the_night_ends_with_the_chips_left_settled_and_totals_that_add_up_to_zero():
    """ "the winners of any chips left on the sheet after the final hand are determined in any
    way agreed upon by the players\""""
    ledger = bonanza_ledger(PLAYERS).deal().call_bonanza("Ann", {"Bea": 3, "Cal": 1})
    assert not ledger.settled
    for space, chips in ledger.on_layout.items():
        if chips:
            ledger = ledger.settle(space, "Cal")
    assert ledger.settled and sum(ledger.totals.values()) == 0


@pytest.mark.parametrize(
    ("steps", "code"),
    [
        (lambda t: t.take("joker", "Ann"), "no_hand"),
        (lambda t: t.deal().deal(), "hand_in_play"),
        (lambda t: t.deal().sell_widow("Ann", 3), "bad_buyer"),  # Ann deals the first hand
        (lambda t: t.deal().sell_widow("Bea", 0), "bad_chips"),
        (lambda t: t.deal().sell_widow("Bea", 2).sell_widow("Cal", 2), "widow_sold"),
        (lambda t: t.deal().take("joker", "Ann").take("joker", "Bea"), "space_taken"),
        (lambda t: t.deal().take(BONANZA, "Ann"), "bad_space"),
        (lambda t: t.deal().take("nine_of_hearts", "Ann"), "bad_space"),
        (lambda t: t.deal().take("joker", "Zed"), "not_playing"),
        (lambda t: t.deal().call_bonanza("Ann", {"Bea": 2}), "bad_cards_left"),
        (lambda t: t.deal().call_bonanza("Ann", {"Bea": 2, "Cal": -1}), "bad_cards"),
        (lambda t: t.deal().settle("joker", "Ann"), "hand_in_play"),
        (lambda t: t.settle("joker", "Ann"), "space_empty"),
        (lambda t: t.deal().take(POKER, "Ann").poker_bet("Bea", 1), "space_taken"),
        (lambda t: t.apply(BonanzaStep("shuffle")), "bad_step"),
    ],
)
def test_refused_steps(steps, code):
    with pytest.raises(RuleError) as caught:
        steps(bonanza_ledger(PLAYERS))
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("players", "start", "code"),
    [(["Ann"], 0, "bad_player_count"), ([str(i) for i in range(10)], 0, "bad_player_count")]
    + [(["Ann", "Ann"], 0, "duplicate_player"), (["Ann", "Bea"], -1, "bad_chips")],
)
def test_refused_ledgers(players, start, code):
    with pytest.raises(RuleError) as caught:
        bonanza_ledger(players, start_chips=start)
    assert caught.value.code == code


def test_no_poker_space_when_the_players_leave_it_out():
    ledger = bonanza_ledger(PLAYERS, poker=False).deal()
    assert ledger.totals == dict.fromkeys(PLAYERS, -9)
    with pytest.raises(RuleError) as caught:
        ledger.poker_bet("Ann", 1)
    assert caught.value.code == "no_poker"


# A night at a Bonanza table as hypothesis plays it: hands of random steps.
steps = st.lists(
    st.one_of(
        st.tuples(st.just("widow"), st.integers(0, 8), st.integers(1, 20)),
        st.tuples(st.just("bet"), st.integers(0, 8), st.integers(1, 10)),
        st.tuples(st.just("take"), st.integers(0, 8), st.sampled_from(SPACES[:-1])),
        st.tuples(
            st.just("bonanza"),
            st.integers(0, 8),
            st.lists(st.integers(0, 13), min_size=9, max_size=9),
        ),
    ),
    max_size=60,
)


@settings(max_examples=examples(150), deadline=None)
@given(players=st.integers(2, 9), plan=steps, poker=st.booleans())
def test_chips_are_never_made_or_lost(players, plan, poker):
    """Docs/rules.md section 9.4: the players' totals and the chips on the layout always add
    up to zero; after the chips left are settled, the totals do. Replaying the stored steps
    gives the same ledger."""
    names = [f"P{i}" for i in range(players)]
    ledger = bonanza_ledger(names, poker=poker).deal()
    for action, who, what in plan:
        player = names[who % players]
        try:
            if action == "widow":
                ledger = ledger.sell_widow(player, what)
            elif action == "bet":
                ledger = ledger.poker_bet(player, what)
            elif action == "take":
                ledger = ledger.take(what, player)
            else:
                cards = {p: what[i] for i, p in enumerate(names) if p != player}
                ledger = ledger.call_bonanza(player, cards).deal()
        except RuleError:
            continue  # a step the rules refuse changes nothing
        assert sum(ledger.totals.values()) + ledger.chips_on_layout == 0
        assert all(c >= 0 for c in ledger.layout)
    ledger = ledger.call_bonanza(names[0], dict.fromkeys(names[1:], 1))
    for space, chips in ledger.on_layout.items():
        if chips:
            ledger = ledger.settle(space, names[-1])
    assert ledger.settled and sum(ledger.totals.values()) == 0
    assert bonanza_replay(names, ledger.steps, poker=poker) == ledger

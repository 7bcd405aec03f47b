"""The prizes groups give beyond the first six, ties split or rolled off, who may win, and
prize money rounded to what a host pays in cash: docs/rules.md sections 7.5 to 7.8."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.awards import award_prizes, prize_standings
from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import HOUSE
from bunco_night.rules.prizes import PrizePolicy, draw_door_prize, split_evenly
from bunco_night.rules.rounds import Entry, points_rolled
from bunco_night.rules.shares import PrizeCategory, pot_shares, split_pot
from bunco_night.rules.standings import BuncoRoll, PlayerRound, tally
from tests.search import examples

HOUSE_PRIZES = [
    PrizeCategory("most_wins", percent=42),
    PrizeCategory("most_buncos", percent=33),
    PrizeCategory("last_bunco", percent=17),
    PrizeCategory("fewest_wins", percent=8),
]


def standings(*rows):
    return tally([r for group in rows for r in group])


def played(player, wins, losses, **extra):
    """``wins`` won rounds and ``losses`` lost rounds; ``extra`` goes on the last row."""
    out = [PlayerRound(player, True) for _ in range(wins)]
    out += [PlayerRound(player, False) for _ in range(losses)]
    if extra:
        last = out.pop() if out else PlayerRound(player, False)
        out.append(PlayerRound(player, last.won, **extra))
    return out


# Section 7.8: rounding to what a host pays in cash.


@pytest.mark.parametrize(
    ("rounding", "leftover", "shares", "first", "carried", "host"),
    [
        # "a $45 pot with 42/33/17/8 % must not give $18.90 / $14.85 / $7.65 / $3.60"
        ("dollars", "first_prize", [2100, 1400, 700, 300], 300, 0, 0),
        ("dollars", "next_pot", [1800, 1400, 700, 300], 0, 300, 0),
        ("dollars", "host", [1800, 1400, 700, 300], 0, 0, 300),
        ("quarters", "first_prize", [1925, 1475, 750, 350], 50, 0, 0),
        ("cents", "first_prize", [1890, 1485, 765, 360], 0, 0, 0),
    ],
)
def test_a_45_dollar_pot(rounding, leftover, shares, first, carried, host):
    pot = pot_shares(4500, HOUSE_PRIZES, PrizePolicy(rounding=rounding, leftover=leftover))
    assert list(pot.shares.values()) == shares
    assert (pot.first_prize_cents, pot.carried_cents, pot.host_cents) == (first, carried, host)
    assert pot.leftover_cents == first + carried + host
    assert sum(shares) + pot.carried_cents + pot.host_cents + pot.unassigned_cents == 4500


def test_the_group_s_rules_round_to_whole_dollars_by_default():
    assert split_pot(4500, HOUSE_PRIZES, policy=HOUSE.prize_policy) == {
        "most_wins": 2100,
        "most_buncos": 1400,
        "last_bunco": 700,
        "fewest_wins": 300,
    }


def test_without_a_policy_split_pot_works_as_before():
    """Section 7.4 as it was: rounded down to the cent, the cents left over are the host's."""
    assert split_pot(1001, [PrizeCategory("most_buncos", percent=50)]) == {"most_buncos": 500}
    pot = pot_shares(1001, [PrizeCategory("most_buncos", percent=50)])
    assert (pot.host_cents, pot.unassigned_cents) == (0, 501)


def test_fixed_amounts_are_paid_as_the_group_set_them():
    cats = [PrizeCategory("most_wins", amount_cents=750), PrizeCategory("fewest_wins", percent=10)]
    pot = pot_shares(2550, cats, PrizePolicy(rounding="dollars", leftover="first_prize"))
    # 10% of $25.50 is $2.55: $2 paid, 55 cents to the first prize.
    assert pot.shares == {"most_wins": 805, "fewest_wins": 200}
    assert pot.unassigned_cents == 2550 - 750 - 255


# Section 7.5: further categories.


def test_most_minis_low_high_marks_head_table_and_best_round():
    table = standings(
        played("Ann", 3, 1, mini_buncos=2, low_buncos=2, marks={"wipeout": 1}, table=1, score=9),
        played("Bea", 2, 2, mini_buncos=3, high_buncos=3, marks={"wipeout": 2}, table=2, score=23),
        [PlayerRound("Bea", True, table=1, score=4), PlayerRound("Cal", False, table=1)],
    )
    cats = [
        PrizeCategory("most_minis", amount_cents=0),
        PrizeCategory("most_low", amount_cents=0),
        PrizeCategory("most_high", amount_cents=0),
        PrizeCategory("most_mark", amount_cents=0, mark="wipeout"),
        PrizeCategory("most_mark", amount_cents=0, mark="monte_carlo", label="Most Monte Carlos"),
        PrizeCategory("most_head_rounds", amount_cents=0),
        PrizeCategory("best_round", amount_cents=0),
    ]
    results = {r.key: r for r in prize_standings(table, cats, pot_cents=0)}
    assert (results["most_minis"].winner, results["most_minis"].value) == ("Bea", 3)
    assert results["most_low"].winner == "Ann" and results["most_high"].winner == "Bea"
    assert results["most_mark:wipeout"].winner == "Bea"
    assert results["most_mark:wipeout"].title == "Most wipeout"
    # Nobody wins a "most" prize with none at all (as section 7.2 says of buncos).
    monte = results["most_mark:monte_carlo"]
    assert monte.candidates == () and monte.title == "Most Monte Carlos"
    assert results["most_head_rounds"].candidates == ("Ann", "Bea", "Cal")
    assert results["most_head_rounds"].tied
    assert (results["best_round"].winner, results["best_round"].value) == ("Bea", 23)


def test_first_bunco_of_the_night():
    """Section 7.5: the first bunco in the order of section 6.3 (round, then time)."""
    buncos = [BuncoRoll("Ann", (2, 5)), BuncoRoll("Bea", (1, 9)), BuncoRoll("Cal", (1, 9))]
    cats = [
        PrizeCategory("first_bunco", amount_cents=500),
        PrizeCategory("last_bunco", amount_cents=500),
    ]
    first, last = prize_standings(standings(), cats, pot_cents=1000, buncos=buncos)
    assert first.winner == "Bea" and last.winner == "Ann"
    (nobody,) = prize_standings(standings(), cats[:1], pot_cents=1000)
    assert nobody.candidates == () and nobody.payouts == ()


def test_a_door_prize_is_drawn_with_a_number_anyone_can_check():
    present = ["Ann", "Bea", "Cal", "Dee", "Eve"]
    draw = draw_door_prize(present, 20240614)
    assert draw == draw_door_prize(present, 20240614)  # the same list and number: the same
    assert draw.order[draw.number - 1] == draw.winner and draw.order == tuple(present)
    winners = {draw_door_prize(present, seed).winner for seed in range(60)}
    assert winners == set(present)  # anyone present can win
    door = [PrizeCategory("door_prize", amount_cents=1000)]
    (pending,) = prize_standings(standings(), door, pot_cents=1000, present=present)
    assert pending.winner is None and not pending.tied and pending.candidates == tuple(present)
    (drawn,) = prize_standings(
        standings(), door, pot_cents=1000, present=present, door_seed=20240614
    )
    assert drawn.winner == draw.winner and drawn.seed == 20240614
    assert drawn.payouts == ((draw.winner, 1000),)
    with pytest.raises(RuleError) as caught:
        draw_door_prize([], 1)
    assert caught.value.code == "nobody_present"


# Section 7.6: a tied prize is rolled off or split.


def test_a_tie_waits_for_the_host_or_is_split():
    table = standings(played("Ann", 4, 2), played("Bea", 4, 2), played("Cal", 1, 5))
    roll_off = prize_standings(table, HOUSE_PRIZES[:1], pot_cents=4500, policy=HOUSE.prize_policy)
    # 42% of $45 is $18.90: $18 in whole dollars, and the 90 cents left over go to the first
    # prize, this one.
    assert roll_off[0].tied and roll_off[0].payouts == () and roll_off[0].amount_cents == 1890
    split = HOUSE.with_(prize_ties="split").prize_policy
    awards = award_prizes(table, HOUSE_PRIZES[:1], pot_cents=4500, policy=split)
    (most_wins,) = awards.results
    # $18.90 split two ways is $9 each; what the first prize cannot split goes to next
    # month's pot.
    assert most_wins.split and not most_wins.tied and most_wins.winner is None
    assert most_wins.payouts == (("Ann", 900), ("Bea", 900))
    assert most_wins.remainder_cents == 90 and awards.carried_cents == 90


def test_a_split_s_remainder_goes_to_the_first_prize():
    table = standings(
        played("Ann", 5, 1, buncos=1), played("Bea", 3, 3, buncos=1), played("Cal", 2, 4, buncos=1)
    )
    policy = PrizePolicy(rounding="dollars", leftover="first_prize", ties="split")
    awards = award_prizes(table, HOUSE_PRIZES, pot_cents=4500, policy=policy)
    most_wins, most_buncos, _, _ = awards.results
    # Most buncos, $14 three ways: $4 each and $2 over, added to most wins with the $3 that
    # rounding left over: $18 + $3 + $2.
    assert most_buncos.payouts == (("Ann", 400), ("Bea", 400), ("Cal", 400))
    assert most_buncos.remainder_cents == 200
    assert most_wins.amount_cents == 2300 and most_wins.payouts == (("Ann", 2300),)
    assert awards.first_prize_cents == 500 and awards.leftover_cents == 500
    assert awards.carried_cents == 0


def test_a_recorded_tie_break_wins_over_a_split():
    table = standings(played("Ann", 4, 2), played("Bea", 4, 2))
    policy = PrizePolicy(ties="split")
    (result,) = prize_standings(
        table, HOUSE_PRIZES[:1], pot_cents=1000, policy=policy, tiebreaks={"most_wins": "Bea"}
    )
    assert result.winner == "Bea" and result.broken_by_host and not result.split


@pytest.mark.parametrize(
    ("cents", "ways", "rounding", "each", "left"),
    [(1000, 3, "dollars", 300, 100), (1000, 3, "quarters", 325, 25), (1000, 3, "cents", 333, 1)],
)
def test_split_evenly(cents, ways, rounding, each, left):
    assert split_evenly(cents, ways, rounding) == (each, left)


# Section 7.7: who may win.


def test_substitutes_win_win_for_their_regular_or_cannot_win():
    table = standings(played("Sub", 6, 0, buncos=2), played("Ann", 4, 2, buncos=1))
    subs = {"Sub": "Reg"}
    cats = [PrizeCategory("most_wins", amount_cents=1000), PrizeCategory("most_buncos", percent=0)]

    def winners(choice):
        policy = PrizePolicy(substitutes=choice)
        return [
            (r.winner, r.payouts)
            for r in prize_standings(table, cats, pot_cents=1000, policy=policy, substitutes=subs)
        ]

    assert winners("win") == [("Sub", (("Sub", 1000),)), ("Sub", (("Sub", 0),))]
    assert winners("regular") == [("Sub", (("Reg", 1000),)), ("Sub", (("Reg", 0),))]
    assert winners("none") == [("Ann", (("Ann", 1000),)), ("Ann", (("Ann", 0),))]


def test_the_door_draw_is_made_among_those_who_may_win_it():
    """Section 7.5: everyone present can win the door prize, "except as section 7.7 says";
    the draw the prizes give back is the one that picked the winner, from that list."""
    present = ["Ann", "Bea", "Cal", "Dee", "Sub"]
    door = [PrizeCategory("door_prize", amount_cents=1000)]
    for choice, entrants in [("win", present), ("none", present[:-1])]:
        policy = PrizePolicy(substitutes=choice)
        for seed in range(40):
            awards = award_prizes(
                standings(),
                door,
                pot_cents=1000,
                policy=policy,
                present=present,
                substitutes={"Sub": "Reg"},
                door_seed=seed,
            )
            assert awards.door == draw_door_prize(entrants, seed)
            assert awards.results[0].winner == awards.door.winner
    undrawn = award_prizes(standings(), door, pot_cents=1000, present=present)
    assert undrawn.door is None
    no_door = award_prizes(standings(), HOUSE_PRIZES, pot_cents=1000, present=present, door_seed=1)
    assert no_door.door is None  # no door prize among the night's prizes: nothing drawn


def test_a_minimum_of_rounds_for_fewest_wins():
    """Someone who came for two rounds does not take "fewest wins" from the regulars."""
    table = standings(played("Ann", 1, 11), played("Bea", 3, 9), played("Late", 0, 2))
    cat = [PrizeCategory("fewest_wins", amount_cents=300)]
    (anyone,) = prize_standings(table, cat, pot_cents=300)
    assert anyone.winner == "Late"
    (regulars,) = prize_standings(
        table, cat, pot_cents=300, policy=PrizePolicy(fewest_wins_min_rounds=6)
    )
    assert regulars.winner == "Ann"


@pytest.mark.parametrize(
    ("cats", "code"),
    [
        ([PrizeCategory("most_mark", amount_cents=1)], "bad_prize_mark"),
        ([PrizeCategory("most_wins", amount_cents=1, mark="wipeout")], "bad_prize_mark"),
        (
            [
                PrizeCategory("most_mark", amount_cents=1, mark="w"),
                PrizeCategory("most_mark", amount_cents=1, mark="w"),
            ],
            "duplicate_prize",
        ),
        ([PrizeCategory("best_hat", amount_cents=1)], "unknown_prize"),
    ],
)
def test_refused_categories(cats, code):
    with pytest.raises(RuleError) as caught:
        split_pot(1000, cats)
    assert caught.value.code == code


def test_one_prize_for_each_group_mark():
    cats = [
        PrizeCategory("most_mark", percent=10, mark="wipeout"),
        PrizeCategory("most_mark", percent=10, mark="snake_eyes"),
    ]
    assert split_pot(1000, cats) == {"most_mark:wipeout": 100, "most_mark:snake_eyes": 100}


def test_points_rolled_per_person_with_a_ghost_and_a_reset():
    """Section 7.5: a person's score in a round is what they rolled, a ghost's seat
    included (section 5.5); a reset takes their side back to 0 (section 2.4)."""
    rollers = {1: "Ann", 2: "Bea", 3: "Cal", 4: "Bea"}  # Bea rolls for the ghost in seat 4
    entries = [
        Entry(1, 3, "points"),
        Entry(2, 2, "points"),
        Entry(4, 5, "mini"),
        Entry(3, 4, "points"),
        Entry(1, 0, "mark", reset=True),
        Entry(3, 1, "points"),
    ]
    assert points_rolled(entries, rollers, teams=True) == {"Ann": 0, "Bea": 7, "Cal": 1}


# The money always adds up.

categories = st.lists(
    st.tuples(
        st.sampled_from(["most_wins", "most_buncos", "fewest_wins", "most_losses", "door_prize"]),
        st.one_of(
            st.integers(0, 40).map(lambda p: ("percent", p)),
            st.integers(0, 900).map(lambda a: ("amount", a)),
        ),
    ),
    min_size=1,
    max_size=5,
    unique_by=lambda c: c[0],
)


@settings(max_examples=examples(200), deadline=None)
@given(
    cats=categories,
    pot=st.integers(0, 20_000),
    wins=st.lists(st.integers(0, 6), min_size=1, max_size=8),
    rounding=st.sampled_from(["dollars", "quarters", "cents"]),
    leftover=st.sampled_from(["first_prize", "next_pot", "host"]),
    ties=st.sampled_from(["roll_off", "split"]),
    seed=st.one_of(st.none(), st.integers(0, 10**9)),
)
def test_the_pot_is_accounted_for(cats, pot, wins, rounding, leftover, ties, seed):
    """Whatever the prizes, ties and settings: what every prize pays (or will pay once its
    winner is known), what goes to next month's pot, the host's and what no prize asked
    for add up to the pot; a split pays equal shares in the rounding unit."""
    prizes = [
        PrizeCategory(
            code,
            amount_cents=v if kind == "amount" else None,
            percent=v if kind == "percent" else None,
        )
        for code, (kind, v) in cats
    ]
    table = tally(
        [PlayerRound(f"P{i}", True) for i, w in enumerate(wins) for _ in range(w)]
        + [PlayerRound(f"P{i}", False) for i in range(len(wins))]
    )
    policy = PrizePolicy(rounding=rounding, leftover=leftover, ties=ties)
    try:
        awards = award_prizes(table, prizes, pot_cents=pot, policy=policy, door_seed=seed)
    except RuleError as error:
        assert error.code == "payout_exceeds_pot"
        return
    unit = policy.unit_cents
    paid = sum(r.amount_cents - r.remainder_cents for r in awards.results)
    assert paid + awards.carried_cents + awards.host_cents + awards.unassigned_cents == pot
    for r in awards.results:
        if r.split:
            shares = {cents for _, cents in r.payouts}
            assert len(shares) == 1 and shares.pop() % unit == 0
            assert r.remainder_cents < unit * len(r.payouts)
        if r.payouts and not r.split:
            assert r.payouts == ((r.winner, r.amount_cents),)

"""Standings and prizes: docs/rules.md sections 6 and 7."""

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.awards import prize_standings
from bunco_night.rules.errors import RuleError
from bunco_night.rules.shares import PrizeCategory, split_pot
from bunco_night.rules.standings import (
    BuncoRoll,
    PlayerRound,
    fuzzy_die_holder,
    last_bunco,
    rank_standings,
    set_standings,
    tally,
)
from tests.search import examples


def rows(player, wins, losses, buncos=0, minis=0, marks=None):
    out = [PlayerRound(player, True) for _ in range(wins)]
    out += [PlayerRound(player, False) for _ in range(losses)]
    out.append(PlayerRound(player, False, buncos=buncos, mini_buncos=minis, marks=marks or {}))
    return out


def by_player(standings):
    return {s.player: s for s in standings}


def test_tally_counts_wins_losses_buncos_minis_and_group_marks():
    """Section 6.4: each person gets "a win or a loss, and the number of buncos, mini buncos"
    and of each group mark."""
    standings = by_player(
        tally(
            [
                PlayerRound("Ann", True, buncos=1, marks={"wipeout": 1}),
                PlayerRound("Ann", False, mini_buncos=2, marks={"wipeout": 2}),
                PlayerRound("Bea", True),
            ],
            players=["Ann", "Bea", "Cat"],
        )
    )
    ann = standings["Ann"]
    assert (ann.wins, ann.losses, ann.buncos, ann.mini_buncos) == (1, 1, 1, 2)
    assert ann.marks == {"wipeout": 3}
    assert (standings["Cat"].wins, standings["Cat"].losses) == (0, 0)


def test_ranking_by_wins_then_buncos_then_roll_off():
    """Section 7.1: most W's, then "the player with the most 'B's,'", then a roll-off."""
    base = tally(
        rows("Ann", 4, 2) + rows("Bea", 4, 2, buncos=1) + rows("Cat", 5, 1) + rows("Dee", 4, 2)
    )
    ranked = rank_standings(base)
    assert [(s.player, s.rank, s.tied) for s in ranked] == [
        ("Cat", 1, False),
        ("Bea", 2, False),
        ("Ann", 3, True),
        ("Dee", 3, True),
    ]
    ranked = rank_standings(base, roll_off={"Dee": 1, "Ann": 2})
    assert [(s.player, s.rank, s.tied) for s in ranked][2:] == [
        ("Dee", 3, False),
        ("Ann", 4, False),
    ]


def test_last_bunco_and_fuzzy_die():
    """Section 6.3: the buncos in the order they were rolled; section 7.2: the fuzzy die
    "ends with the roller of the last bunco"."""
    buncos = [BuncoRoll("Ann", 3), BuncoRoll("Bea", 9), BuncoRoll("Cat", 5)]
    assert last_bunco(buncos) == BuncoRoll("Bea", 9)
    assert fuzzy_die_holder(buncos) == "Bea"
    assert last_bunco([]) is None and fuzzy_die_holder([]) is None


def test_letter_payout_15_12_6_3_of_3_dollars_a_head_for_twelve():
    """Section 7.4: a letter's group pays $15 / $12 / $6 / $3 out of $3 a head for twelve."""
    cats = [
        PrizeCategory("most_wins", amount_cents=1500),
        PrizeCategory("most_buncos", amount_cents=1200),
        PrizeCategory("last_bunco", amount_cents=600),
        PrizeCategory("fewest_wins", amount_cents=300),
    ]
    assert split_pot(12 * 300, cats) == {
        "most_wins": 1500,
        "most_buncos": 1200,
        "last_bunco": 600,
        "fewest_wins": 300,
    }


def test_split_by_percent_rounds_down():
    cats = [PrizeCategory("most_buncos", percent=50), PrizeCategory("most_wins", percent=33)]
    assert split_pot(1001, cats) == {"most_buncos": 500, "most_wins": 330}


@pytest.mark.parametrize(
    ("cats", "code"),
    [
        ([PrizeCategory("most_wins", amount_cents=5000)], "payout_exceeds_pot"),
        (
            [PrizeCategory("most_wins", percent=60), PrizeCategory("most_buncos", percent=50)],
            "payout_exceeds_pot",
        ),
        ([PrizeCategory("most_wins")], "bad_share"),
        ([PrizeCategory("most_wins", amount_cents=1, percent=1)], "bad_share"),
        ([PrizeCategory("most_wins", amount_cents=-1)], "bad_share"),
        ([PrizeCategory("best_hat", amount_cents=1)], "unknown_prize"),
        (
            [
                PrizeCategory("most_wins", amount_cents=1),
                PrizeCategory("most_wins", amount_cents=1),
            ],
            "duplicate_prize",
        ),
    ],
)
def test_bad_payouts_are_refused(cats, code):
    with pytest.raises(RuleError) as caught:
        split_pot(3600, cats)
    assert caught.value.code == code


ALL = [
    PrizeCategory(code, percent=p)
    for code, p in [
        ("most_buncos", 40),
        ("most_wins", 20),
        ("most_losses", 10),
        ("last_bunco", 10),
        ("fewest_wins", 10),
        ("fuzzy_die", 10),
    ]
]


def test_prize_standings_every_category():
    """Section 7: most buncos, most wins, most losses, last bunco, fewest wins, fuzzy die."""
    standings = tally(rows("Ann", 5, 1, buncos=2) + rows("Bea", 3, 3, buncos=1) + rows("Cat", 1, 5))
    results = {
        r.code: r
        for r in prize_standings(
            standings, ALL, pot_cents=3600, buncos=[BuncoRoll("Ann", 1), BuncoRoll("Bea", 2)]
        )
    }
    assert results["most_buncos"].winner == "Ann" and results["most_buncos"].value == 2
    assert results["most_buncos"].amount_cents == 1440
    assert results["most_wins"].winner == "Ann"
    assert results["most_losses"].winner == "Cat"
    assert results["fewest_wins"].winner == "Cat"
    assert results["last_bunco"].winner == "Bea" and results["fuzzy_die"].winner == "Bea"
    assert not any(r.tied for r in results.values())


def test_ties_are_shown_until_the_host_breaks_them():
    """Section 7.3: "the prize is shown as a tie, naming all of them, until the host records
    which of them won it"."""
    standings = tally(rows("Ann", 4, 2, buncos=1) + rows("Bea", 4, 2, buncos=1))
    cats = [PrizeCategory("most_buncos", amount_cents=1000)]
    (tied,) = prize_standings(standings, cats, pot_cents=2000)
    assert tied.tied and tied.winner is None and set(tied.candidates) == {"Ann", "Bea"}
    (broken,) = prize_standings(standings, cats, pot_cents=2000, tiebreaks={"most_buncos": "Bea"})
    assert not broken.tied and broken.winner == "Bea" and broken.broken_by_host
    with pytest.raises(RuleError) as caught:
        prize_standings(standings, cats, pot_cents=2000, tiebreaks={"most_buncos": "Zed"})
    assert caught.value.code == "bad_tiebreak"


def test_nobody_wins_most_buncos_on_a_night_without_one():
    standings = tally(rows("Ann", 4, 2) + rows("Bea", 2, 4))
    results = prize_standings(standings, ALL, pot_cents=1000)
    assert {r.code: r.winner for r in results}["most_buncos"] is None
    assert {r.code: r.candidates for r in results}["last_bunco"] == ()


def in_set(number, player, wins, losses, buncos=0):
    return [
        PlayerRound(r.player, r.won, r.buncos, r.mini_buncos, r.marks, set_number=number)
        for r in rows(player, wins, losses, buncos)
    ]


def placings(standings):
    return [(s.player, s.rank, s.tied) for s in standings]


def test_each_set_has_its_own_winner():
    """docs/rules.md section 7.1: "the winner of the set is the player with the most wins",
    then most buncos, then a roll-off the host records; the night has its standings too."""
    night_rows = (
        in_set(1, "Ann", 4, 1)
        + in_set(1, "Bea", 2, 3, buncos=1)
        + in_set(1, "Cat", 2, 3)
        + in_set(2, "Ann", 1, 4)
        + in_set(2, "Bea", 4, 1)
        + in_set(2, "Cat", 4, 1)
    )
    sets = set_standings(night_rows)
    assert list(sets) == [1, 2]
    assert placings(sets[1]) == [("Ann", 1, False), ("Bea", 2, False), ("Cat", 3, False)]
    # Set 2: Bea and Cat level on wins and buncos stay tied until the host records a roll-off.
    assert placings(sets[2]) == [("Bea", 1, True), ("Cat", 1, True), ("Ann", 3, False)]
    settled = set_standings(night_rows, roll_offs={2: {"Cat": 1, "Bea": 2}})
    assert placings(settled[2]) == [("Cat", 1, False), ("Bea", 2, False), ("Ann", 3, False)]
    assert placings(settled[1]) == placings(sets[1])  # a roll-off belongs to its set only
    night = rank_standings(tally(night_rows))
    assert placings(night) == [("Bea", 1, False), ("Cat", 2, False), ("Ann", 3, False)]


def test_set_standings_list_players_without_rows():
    """A player with no round in a set (arrived later) shows 0 wins when named in players."""
    sets = set_standings(in_set(1, "Ann", 3, 3) + in_set(2, "Bea", 6, 0), players=["Ann", "Bea"])
    assert {s.player: s.wins for s in sets[1]} == {"Ann": 3, "Bea": 0}
    assert {s.player: s.wins for s in sets[2]} == {"Ann": 0, "Bea": 6}


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 4), st.sampled_from("ABCDEF"), st.booleans(), st.integers(0, 2)),
        max_size=60,
    )
)
def test_set_standings_add_up_to_the_night(results):
    """docs/rules.md section 7.1: every set is ranked by wins, then buncos; ties share a rank;
    the sets together give the night's totals."""
    night_rows = [PlayerRound(p, w, buncos=b, set_number=n) for n, p, w, b in results]
    sets = set_standings(night_rows)
    assert list(sets) == sorted({n for n, *_ in results})
    totals = {s.player: (s.wins, s.losses, s.buncos) for s in tally(night_rows)}
    summed = {}
    for standings in sets.values():
        keys = [(-s.wins, -s.buncos) for s in standings]
        assert keys == sorted(keys)
        for s in standings:
            assert s.rank == 1 + keys.index((-s.wins, -s.buncos))
            assert s.tied == (keys.count((-s.wins, -s.buncos)) > 1)
            w, lost, b = summed.get(s.player, (0, 0, 0))
            summed[s.player] = (w + s.wins, lost + s.losses, b + s.buncos)
    assert summed == totals


def test_last_bunco_follows_round_then_time():
    """docs/rules.md sections 6 and 7: the order buncos were rolled is by round number, then
    time within the round; a bunco the host adds later to an earlier round as a correction
    does not become the night's last bunco, nor move the fuzzy die."""
    at = datetime(2026, 8, 13, 20, 0)
    buncos = [
        BuncoRoll("Ann", (3, at.replace(minute=10))),
        BuncoRoll("Bea", (5, at.replace(minute=40))),
        BuncoRoll("Cat", (5, at.replace(minute=45))),
        # Added by the host at 21:30 to round 2: the latest time, but an earlier round.
        BuncoRoll("Dee", (2, at.replace(hour=21, minute=30))),
    ]
    assert last_bunco(buncos).player == "Cat"
    assert fuzzy_die_holder(buncos) == "Cat"
    assert fuzzy_die_holder(reversed(buncos)) == "Cat"  # the order given does not matter

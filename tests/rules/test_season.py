"""A season's standings and year-end prizes: docs/rules.md sections 7 and 8.7."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.season import (
    BEST_ATTENDANCE,
    MOST_MINI_BUNCOS,
    SEASON_PRIZE_LABELS,
    NightResult,
    season_category,
    season_prizes,
    season_share,
    season_standings,
)
from bunco_night.rules.shares import MOST_BUNCOS, MOST_LOSSES, MOST_WINS
from bunco_night.rules.standings import PlayerRound, rank_standings, tally


def night(results, prizes=()):
    """A night from {player: (wins, losses, buncos, minis)}; the buncos are rolled in the
    player's first round."""
    rows = []
    for player, (wins, losses, buncos, minis) in results.items():
        rounds = [True] * wins + [False] * max(losses, 1 if not wins else 0)
        rows.append(PlayerRound(player, rounds[0], buncos=buncos, mini_buncos=minis))
        rows += [PlayerRound(player, won) for won in rounds[1:]]
    return NightResult(rows, prizes)


def by_player(standings):
    return {s.player: s for s in standings}


def test_a_season_adds_up_every_night_and_counts_the_nights_each_played():
    season = season_standings(
        [
            night({"Ann": (3, 2, 1, 0), "Bea": (2, 3, 0, 2)}, prizes=[("Ann", 1500)]),
            night({"Ann": (1, 4, 0, 1), "Cat": (5, 0, 2, 0)}, prizes=[("Cat", 1500), ("Cat", 600)]),
        ]
    )
    s = by_player(season)
    ann = s["Ann"].standing
    assert (ann.wins, ann.losses, ann.buncos, ann.mini_buncos) == (4, 6, 1, 1)
    assert (s["Ann"].nights, s["Bea"].nights, s["Cat"].nights) == (2, 1, 1)
    assert (s["Cat"].prizes, s["Cat"].money_cents) == (2, 2100)
    assert (s["Bea"].prizes, s["Bea"].money_cents) == (0, 0)


def test_a_season_ranks_like_a_night_and_level_players_share_a_place():
    """Section 7.1: by wins, then buncos; players still level share a place, numbered
    like a race."""
    season = season_standings(
        [
            night({"Ann": (3, 0, 1, 0), "Bea": (3, 0, 0, 0), "Cat": (2, 1, 0, 0)}),
            night({"Ann": (1, 2, 0, 0), "Bea": (1, 2, 1, 0), "Dee": (5, 0, 0, 0)}),
        ]
    )
    assert [(s.player, s.rank, s.tied) for s in season] == [
        ("Dee", 1, False),
        ("Ann", 2, True),
        ("Bea", 2, True),
        ("Cat", 4, False),
    ]


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["Ann", "Bea", "Cat", "Dee"]),
            st.tuples(*[st.integers(0, 4)] * 4),
            min_size=1,
        ),
        max_size=6,
    )
)
def test_season_totals_are_the_night_engine_on_every_round(nights):
    """However the nights fall, a season's ranking is ``rank_standings(tally(...))``
    over every round of the season."""
    results = [night(n) for n in nights]
    season = season_standings(results)
    expected = rank_standings(tally([r for n in results for r in n.rows]))
    assert [(s.player, s.rank, s.tied, s.standing.wins) for s in season] == [
        (s.player, s.rank, s.tied, s.wins) for s in expected
    ]
    assert sum(s.nights for s in season) == sum(len(n) for n in nights)


@pytest.mark.parametrize(
    ("collected", "percent", "share"),
    [(6000, 10, 600), (6000, 0, 0), (6000, 100, 6000), (999, 15, 149), (0, 50, 0)],
)
def test_the_season_share_is_a_whole_percent_rounded_down(collected, percent, share):
    assert season_share(collected, percent) == share


@pytest.mark.parametrize(("collected", "percent"), [(100, -1), (100, 101), (-5, 10)])
def test_the_season_share_refuses_what_cannot_be(collected, percent):
    with pytest.raises(RuleError):
        season_share(collected, percent)


def categories(*codes, percent=20):
    return [season_category(code, percent=percent) for code in codes]


def test_year_end_prizes_with_the_night_rules_and_the_season_own():
    season = season_standings(
        [
            night({"Ann": (4, 1, 2, 0), "Bea": (3, 2, 0, 3), "Cat": (0, 5, 0, 0)}),
            night({"Ann": (2, 3, 1, 0), "Bea": (4, 1, 0, 1)}),
        ]
    )
    prizes = {
        p.code: p
        for p in season_prizes(
            season,
            categories(MOST_WINS, MOST_BUNCOS, MOST_LOSSES, BEST_ATTENDANCE, MOST_MINI_BUNCOS),
            pot_cents=10_000,
        )
    }
    assert prizes[MOST_WINS].winner == "Bea" and prizes[MOST_WINS].value == 7
    assert prizes[MOST_BUNCOS].winner == "Ann" and prizes[MOST_BUNCOS].value == 3
    assert prizes[MOST_MINI_BUNCOS].winner == "Bea" and prizes[MOST_MINI_BUNCOS].value == 4
    assert prizes[MOST_LOSSES].winner == "Cat"
    assert prizes[MOST_LOSSES].title == SEASON_PRIZE_LABELS[MOST_LOSSES]
    # Ann and Bea came both nights: a tie, shown as a tie until the host records a winner.
    attendance = prizes[BEST_ATTENDANCE]
    assert attendance.tied and set(attendance.candidates) == {"Ann", "Bea"}
    assert attendance.winner is None and attendance.amount_cents == 2000


def test_a_tie_is_broken_only_by_the_host_and_only_among_the_tied():
    """Section 7.3, for the season's own categories as for a night's."""
    season = season_standings(
        [night({"Ann": (1, 0, 0, 1), "Bea": (1, 0, 0, 1), "Cat": (0, 1, 0, 0)})]
    )
    cats = categories(BEST_ATTENDANCE, MOST_MINI_BUNCOS, MOST_WINS)
    broken = season_prizes(
        season,
        cats,
        pot_cents=1000,
        tiebreaks={BEST_ATTENDANCE: "Bea", MOST_MINI_BUNCOS: "Ann", MOST_WINS: "Bea"},
    )
    assert [(p.winner, p.tied, p.broken_by_host) for p in broken] == [
        ("Bea", False, True),
        ("Ann", False, True),
        ("Bea", False, True),
    ]
    with pytest.raises(RuleError) as caught:
        season_prizes(season, cats, pot_cents=1000, tiebreaks={MOST_MINI_BUNCOS: "Cat"})
    assert caught.value.code == "bad_tiebreak"


def test_nobody_wins_a_bunco_prize_in_a_season_without_one():
    """Section 7.2, over a season: no bunco (or mini bunco) rolled, no winner."""
    season = season_standings([night({"Ann": (2, 0, 0, 0), "Bea": (0, 2, 0, 0)})])
    prizes = season_prizes(season, categories(MOST_BUNCOS, MOST_MINI_BUNCOS), pot_cents=500)
    assert [(p.winner, p.candidates) for p in prizes] == [(None, ()), (None, ())]


def test_year_end_prizes_can_be_for_some_players_only():
    """A group may keep its year-end prizes for the regulars: a substitute still shows in
    the standings."""
    season = season_standings([night({"Sub": (6, 0, 3, 0), "Ann": (2, 4, 1, 0)})])
    (wins, buncos) = season_prizes(
        season, categories(MOST_WINS, MOST_BUNCOS), pot_cents=500, eligible={"Ann"}
    )
    assert wins.winner == "Ann" and buncos.winner == "Ann"
    assert {s.player for s in season} == {"Sub", "Ann"}


def test_the_season_pot_is_split_like_a_night_s():
    """Section 7.4: fixed amounts or whole percents of the pot, rounded down; never
    more than the pot; only the season's categories."""
    season = season_standings([night({"Ann": (1, 0, 1, 0)})])
    mixed = [
        season_category(MOST_WINS, amount_cents=2500),
        season_category(BEST_ATTENDANCE, percent=33),
    ]
    assert [p.amount_cents for p in season_prizes(season, mixed, pot_cents=10_001)] == [
        2500,
        3300,
    ]
    with pytest.raises(RuleError) as caught:
        season_prizes(season, mixed, pot_cents=3000)
    assert caught.value.code == "payout_exceeds_pot"
    with pytest.raises(RuleError):
        season_category("fuzzy_die", percent=10)  # a night's prize, not a season's

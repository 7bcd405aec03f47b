"""Movement after a round: docs/rules.md section 5 (5.1 for 5-12 players, 5.2 ladder)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plan_layout, table_sizes
from bunco_night.rules.movement import (
    next_seating,
    partner_of,
    seat_of,
    seat_players,
)
from bunco_night.rules.presets import CARD_1904, DELUXE, HOUSE, LADDER
from tests.search import examples


def seated(sizes):
    """Tables named by seat: "T1S1" sits at table 1, seat 1."""
    return tuple(tuple(f"T{t}S{s}" for s in range(1, n + 1)) for t, n in enumerate(sizes, 1))


def first_wins(seating):
    """Seat 1 (and its partner, seat 3, at a team table) wins every table."""
    return [(1, 3) if len(t) == 4 and len(seating) > 1 else (1,) for t in seating]


def where(seating, player):
    return seat_of(seating, player)[0]


def pairs(seating, rules):
    out = set()
    for t in seating:
        if len(t) == 4 and len(seating) > 1 and not rules.is_card_game:
            out |= {frozenset((t[0], t[2])), frozenset((t[1], t[3]))}
    return out


# The Deluxe box's "Bunco for 5 to 11 players" and "Party Bunco (for 12 players)", as quoted
# in docs/rules.md section 5.1: for each count, who goes where when seat 1 (and partner)
# wins every table. Each row quotes the box.
DELUXE_BOX_MOVES = [
    (
        5,
        "Both players at Table Two move to table One while the two losing players at Table One "
        "move to Table Two. (Only the winner at Table One doesn't move.)",
        {"T1S1": 1, "T1S2": 2, "T1S3": 2, "T2S1": 1, "T2S2": 1},
    ),
    (
        6,
        "the losing team at Table One goes to Table Two ... Both players from Table Two move to "
        "Table One.",
        {"T1S1": 1, "T1S3": 1, "T1S2": 2, "T1S4": 2, "T2S1": 1, "T2S2": 1},
    ),
    (
        7,
        "both losing players from Table One move to Table Two; both losing players from Table "
        "Two move to Table One.",
        {"T1S1": 1, "T1S3": 1, "T1S2": 2, "T1S4": 2, "T2S1": 2, "T2S2": 1, "T2S3": 1},
    ),
    (
        8,
        "those from Table One move to the vacant chairs at Table Two; those from Table Two move "
        "to ... Table One",
        {"T1S1": 1, "T1S3": 1, "T1S2": 2, "T1S4": 2, "T2S1": 2, "T2S3": 2, "T2S2": 1, "T2S4": 1},
    ),
    (
        9,
        "both players at Table Three move to Table One; the losing players at Table One move to "
        "Table Two and those from Table Two move to Table Three.",
        {
            "T1S1": 1,
            "T1S3": 1,
            "T1S2": 2,
            "T1S4": 2,
            "T2S1": 2,
            "T2S2": 3,
            "T2S3": 3,
            "T3S1": 1,
            "T3S2": 1,
        },
    ),
    (
        10,
        "(Follow moving rules for nine players.)",
        {
            "T1S1": 1,
            "T1S3": 1,
            "T1S2": 2,
            "T1S4": 2,
            "T2S1": 2,
            "T2S3": 2,
            "T2S2": 3,
            "T2S4": 3,
            "T3S1": 1,
            "T3S2": 1,
        },
    ),
    (
        11,
        "the losing players at each table move. The winners remain.",
        {
            "T1S1": 1,
            "T1S3": 1,
            "T1S2": 2,
            "T1S4": 2,
            "T2S1": 2,
            "T2S3": 2,
            "T2S2": 3,
            "T2S4": 3,
            "T3S1": 3,
            "T3S2": 1,
            "T3S3": 1,
        },
    ),
    (
        12,
        "those from Table One move to the vacant chairs at Table Two; those from Table Two move "
        "to Table Three; those from Table Three move to Table One.",
        {
            "T1S1": 1,
            "T1S3": 1,
            "T1S2": 2,
            "T1S4": 2,
            "T2S1": 2,
            "T2S3": 2,
            "T2S2": 3,
            "T2S4": 3,
            "T3S1": 3,
            "T3S3": 3,
            "T3S2": 1,
            "T3S4": 1,
        },
    ),
]


@pytest.mark.parametrize(("players", "quote", "expected"), DELUXE_BOX_MOVES)
def test_deluxe_movement_as_the_box_spells_it_out(players, quote, expected):
    seating = seated(table_sizes(players))
    after = next_seating(DELUXE, seating, first_wins(seating))
    assert {p: where(after, p) for p in expected} == expected, quote
    assert [len(t) for t in after] == table_sizes(players)


def test_winners_split_and_arrivals_split():
    """Section 5.3, new partners: the two who stayed split up, and so do the two who arrived."""
    seating = seated([4, 4, 4])
    after = next_seating(HOUSE, seating, first_wins(seating))
    assert after[0] == ("T1S1", "T1S3", "T3S2", "T3S4")
    assert partner_of(after, "T1S1", HOUSE) == "T3S2"
    assert partner_of(after, "T1S3", HOUSE) == "T3S4"


def test_head_table_partners_stay_together_variant():
    """docs/rules.md section 5.4: with ladder movement the head-table winners stay partners, and
    the pair arriving from table 2 (who won there together) sits together, as the letter
    describing the variant accepts; at every other table partners still split (section 5.3)."""
    rules = LADDER.with_(head_partners_stay=True)
    seating = seated([4, 4, 4])
    after = next_seating(rules, seating, [(1, 3), (2, 4), (1, 3)])
    assert set(after[0]) == {"T1S1", "T1S3", "T2S2", "T2S4"}
    assert partner_of(after, "T1S1", rules) == "T1S3"  # the winners stay together
    assert partner_of(after, "T2S2", rules) == "T2S4"  # the arriving pair sits together
    assert set(after[1]) == {"T2S1", "T2S3", "T3S1", "T3S3"}
    assert partner_of(after, "T2S1", rules) != "T2S3"  # elsewhere partners still split
    assert partner_of(after, "T3S1", rules) != "T3S3"


def test_head_table_partners_lose_and_split():
    """docs/rules.md section 5.4: "until they lose": head-table losers go to the bottom table,
    where they are split up like everyone else."""
    rules = LADDER.with_(head_partners_stay=True)
    seating = seated([4, 4, 4])
    after = next_seating(rules, seating, [(2, 4), (1, 3), (1, 3)])
    assert {"T1S1", "T1S3"} <= set(after[2])
    assert partner_of(after, "T1S1", rules) != "T1S3"
    assert partner_of(after, "T1S2", rules) == "T1S4"  # the new head winners stay together


def test_ladder_movement():
    """Section 5.2: "At the head table the winners stay and the losers go to the bottom
    table. At every other table the losers stay and the winners move up one table"."""
    seating = seated([4, 4, 4, 4])
    winners = [(1, 3), (2, 4), (1, 3), (2, 4)]
    after = next_seating(LADDER, seating, winners)
    expect = {
        "T1S1": 1,
        "T1S3": 1,
        "T1S2": 4,
        "T1S4": 4,  # head losers to the bottom table
        "T2S2": 1,
        "T2S4": 1,
        "T2S1": 2,
        "T2S3": 2,  # winners up, losers stay
        "T3S1": 2,
        "T3S3": 2,
        "T3S2": 3,
        "T3S4": 3,
        "T4S2": 3,
        "T4S4": 3,
        "T4S1": 4,
        "T4S3": 4,
    }
    assert {p: where(after, p) for p in expect} == expect


def test_ladder_with_two_tables():
    seating = seated([4, 4])
    after = next_seating(LADDER, seating, [(1, 3), (1, 3)])
    assert {where(after, p) for p in ("T1S2", "T1S4")} == {2}
    assert {where(after, p) for p in ("T2S1", "T2S3")} == {1}


def test_ghosts_are_never_partners():
    """Section 5.5: "Two ghosts are never partners"; section 4.2 seats them on opposite teams."""
    ghosts = {"G1", "G2"}
    seating = (("A", "G1", "B", "C"), ("D", "E", "F", "G2"))
    # Table 1: A+B win and stay; Table 2 losers E+G2 arrive.  Table 2 gets G1 (with C).
    after = next_seating(LADDER, seating, [(1, 3), (2, 4)], ghosts)
    for t in after:
        assert not {t[0], t[2]} <= ghosts and not {t[1], t[3]} <= ghosts


def test_a_ghost_moves_like_a_player():
    """Section 5.5: "A ghost moves like a player"."""
    seating = (("A", "G1", "B", "C"), ("D", "E", "F", "G"))
    after = next_seating(DELUXE, seating, [(1, 3), (1, 3)], {"G1"})
    assert where(after, "G1") == 2


def test_one_table_never_moves():
    """Section 5: "With only one table, nobody moves"."""
    seating = (("A", "B", "C"),)
    assert next_seating(DELUXE, seating, [(2,)]) == seating


def test_card_party_moves_the_winner_to_the_next_table():
    """Section 5.6: the winner "gets a punch and moves to the next table"."""
    seating = seated([3, 3, 3])
    after = next_seating(CARD_1904, seating, [(2,), (1,), (3,)])
    assert where(after, "T1S2") == 2 and where(after, "T2S1") == 3 and where(after, "T3S3") == 1
    assert after[0][1] == "T3S3"  # the arrival takes the vacated chair


@pytest.mark.parametrize(
    ("winners", "code"),
    [
        ([(1, 2), (1, 3)], "bad_winners"),
        ([(1, 3)], "missing_winners"),
        ([(1, 3), (5,)], "bad_winners"),
    ],
)
def test_bad_winners_are_refused(winners, code):
    seating = seated([4, 3])
    with pytest.raises(RuleError) as caught:
        next_seating(DELUXE, seating, winners)
    assert caught.value.code == code


def random_night(draw, rules):
    players = draw(st.integers(2, 500))
    layout = plan_layout(players, rules)
    ghosts = [f"G{i}" for i in range(layout.ghosts)]
    seating = seat_players(
        [(t.seats, t.ghosts) for t in layout.tables], [f"P{i}" for i in range(players)], ghosts
    )
    winners = []
    for t in layout.tables:
        if t.teams:
            winners.append(draw(st.sampled_from([(1, 3), (2, 4)])))
        else:
            winners.append((draw(st.integers(1, t.seats)),))
    return layout, seating, winners, set(ghosts)


@st.composite
def nights(draw):
    rules = draw(
        st.sampled_from(
            [
                DELUXE,
                HOUSE,
                LADDER,
                CARD_1904,
                DELUXE.with_(fill="ghosts"),
                LADDER.with_(head_partners_stay=True),
            ]
        )
    )
    return (rules, *random_night(draw, rules))


@settings(max_examples=examples(150), deadline=None)
@given(nights())
def test_movement_properties(night):
    """Section 5 for any night of 2..500: everyone seated once, table sizes kept, every table
    sends the right players to the right table, no partner twice in a row, no ghost pair."""
    rules, layout, seating, winners, ghosts = night
    after = next_seating(rules, seating, winners, ghosts)
    everyone = [p for t in seating for p in t]
    assert sorted(p for t in after for p in t) == sorted(everyone)
    assert [len(t) for t in after] == layout.sizes

    count = len(seating)
    if count > 1:
        for i, (occupants, won) in enumerate(zip(seating, winners, strict=True)):
            winners_here = {occupants[s - 1] for s in won}
            losers_here = set(occupants) - winners_here
            if rules.is_card_game:
                moved, to = winners_here, (i + 1) % count
            elif rules.movement == "ladder":
                moved, to = (losers_here, count - 1) if i == 0 else (winners_here, i - 1)
            elif len(occupants) == 2:
                moved, to = set(occupants), (i + 1) % count
            else:
                moved, to = losers_here, (i + 1) % count
            assert moved <= set(after[to])
            assert set(occupants) - moved <= set(after[i])

    old_pairs = pairs(seating, rules)
    for number, t in enumerate(after, start=1):
        if len(t) == 4 and count > 1 and not rules.is_card_game:
            for pair in ({t[0], t[2]}, {t[1], t[3]}):
                assert not pair <= ghosts
                if not (rules.head_partners_stay and number == 1):
                    assert frozenset(pair) not in old_pairs


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(2, 500), st.sampled_from([HOUSE, LADDER]))
def test_a_whole_set_keeps_everyone_seated(players, rules):
    """Six rounds of movement in a row still seat everyone exactly once."""
    layout = plan_layout(players, rules)
    ghosts = [f"G{i}" for i in range(layout.ghosts)]
    seating = seat_players(
        [(t.seats, t.ghosts) for t in layout.tables], [f"P{i}" for i in range(players)], ghosts
    )
    for _ in range(6):
        seating = next_seating(rules, seating, first_wins(seating), set(ghosts))
    assert sorted(p for t in seating for p in t) == sorted(
        [f"P{i}" for i in range(players)] + ghosts
    )


def test_seat_players_puts_ghosts_on_opposite_teams():
    seating = seat_players([(4, 2), (4, 1)], ["A", "B", "C", "D", "E"], ["G1", "G2", "G3"])
    assert seating == (("A", "B", "G1", "G2"), ("C", "D", "E", "G3"))
    with pytest.raises(RuleError) as caught:
        seat_players([(4, 0)], ["A"], [])
    assert caught.value.code == "seats_mismatch"

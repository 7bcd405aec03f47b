"""Table layouts: docs/rules.md section 4."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import (
    balanced_sizes,
    ghost_sizes,
    plan_layout,
    table_sizes,
)
from bunco_night.rules.presets import CARD_1904, DELUXE, HOUSE, LADDER

# Every row of docs/rules.md section 4.1's table (the Deluxe box).
SECTION_4 = [
    (2, [2]),
    (3, [3]),
    (4, [4]),
    (5, [3, 2]),
    (6, [4, 2]),
    (7, [4, 3]),
    (8, [4, 4]),
    (9, [4, 3, 2]),
    (10, [4, 4, 2]),
    (11, [4, 4, 3]),
    (12, [4, 4, 4]),
]


@pytest.mark.parametrize(("players", "sizes"), SECTION_4)
def test_deluxe_layouts_section_4_table(players, sizes):
    assert table_sizes(players) == sizes
    assert plan_layout(players, DELUXE).sizes == sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (13, [4, 4, 3, 2]),  # r = 1: (k-1) of 4, then 3, then 2
        (14, [4, 4, 4, 2]),  # r = 2: k of 4, then 2
        (15, [4, 4, 4, 3]),  # r = 3: k of 4, then 3
        (16, [4, 4, 4, 4]),  # r = 0: k of 4
        (501, [4] * 124 + [3, 2]),
    ],
)
def test_beyond_twelve_section_4_formula(players, sizes):
    assert table_sizes(players) == sizes


@given(st.integers(2, 500))
def test_layout_seats_everyone_once(players):
    """Section 4: the N = 4k + r layouts seat exactly N at tables of 2, 3 or 4."""
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert all(s in (2, 3, 4) for s in sizes) or players <= 4
    assert sizes == sorted(sizes, reverse=True)  # head table is never the small one


@given(st.integers(5, 500))
def test_ghost_layout_fills_every_table_to_four(players):
    """Section 4.2: ghosts fill the empty seats "so that every table has four"."""
    shapes = ghost_sizes(players)
    assert all(seats == 4 for seats, _ in shapes)
    assert sum(4 - g for _, g in shapes) == players
    assert all(g <= 2 for _, g in shapes)  # two ghosts at most: they sit on opposite teams


def test_small_nights_never_get_ghosts():
    """Section 4: 2-4 players sit at one table, each an individual."""
    for n in (2, 3, 4):
        layout = plan_layout(n, LADDER)
        assert layout.sizes == [n] and layout.ghosts == 0
        assert not layout.tables[0].teams


def test_teams_and_targets_per_table():
    """Section 1 and 3: 4-seat tables play teams to 21; 2-3 seat individuals to 11."""
    layout = plan_layout(9, DELUXE)
    assert [(t.teams, t.target) for t in layout.tables] == [(True, 21), (False, 11), (False, 11)]
    assert plan_layout(3, DELUXE).tables[0].target == 21  # one table of individuals: 21
    quick = plan_layout(9, HOUSE.with_(quick_game=True))
    assert {t.target for t in quick.tables} == {11}  # "An optional quick game uses 11 for all"
    assert layout.tables[0].is_head and not layout.tables[1].is_head


def test_card_party_seats_tables_as_evenly_as_possible():
    """Section 4.3: "each table should have the same number of players, if possible"."""
    assert balanced_sizes(9) == [3, 3, 3]
    assert balanced_sizes(10) == [4, 3, 3]
    assert plan_layout(12, CARD_1904).sizes == [4, 4, 4]
    assert not any(t.teams for t in plan_layout(12, CARD_1904).tables)


@pytest.mark.parametrize(
    ("players", "code"),
    [
        (1, "too_few_players"),
        (0, "too_few_players"),
        (1001, "too_many_players"),
        ("9", "bad_player_count"),
    ],
)
def test_impossible_player_counts(players, code):
    with pytest.raises(RuleError) as caught:
        table_sizes(players)
    assert caught.value.code == code

"""The tally grid's text layout (bunco_night/printing/grid.py): no database, no PDF."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunco_night.printing.grid import (
    DIGIT_EM,
    FIGURE_SPACE,
    FRAME_PT,
    HALF_SPACE,
    LETTER_EM,
    QUARTER_EM,
    GridRow,
    centred,
    gap,
    grid_set,
    lines_svg,
    tally_grid,
)

WIDTH = {FIGURE_SPACE: 1.0, HALF_SPACE: 0.5, QUARTER_EM: 0.25 / DIGIT_EM}  # in digits
WIDTH |= {letter: em / DIGIT_EM for letter, em in LETTER_EM.items()}


def digits_wide(text: str) -> float:
    return sum(WIDTH.get(c, 1.0) for c in text)


@given(number=st.integers(min_value=0, max_value=99999), extra=st.integers(0, 12))
def test_a_number_is_centred_in_a_field_exactly_as_wide_as_its_column(number, extra):
    text = str(number)
    field = centred(text, len(text) + extra)
    left, _, right = field.partition(text)
    assert digits_wide(field) == len(text) + extra
    assert digits_wide(left) == digits_wide(right) == extra / 2


@pytest.mark.parametrize(
    ("width", "expected"),
    [(0, ""), (3, FIGURE_SPACE * 3), (6.5, FIGURE_SPACE * 6 + HALF_SPACE)],
)
def test_a_gap_is_blank_space_a_whole_or_half_number_of_digits_wide(width, expected):
    assert gap(width) == expected


@pytest.mark.parametrize("density", ["roomy", "compact", "dense"])
@pytest.mark.parametrize("marks", [0, 2])
def test_round_and_table_columns_are_whole_digits_so_their_numbers_line_up(density, marks):
    grid = tally_grid(density, card_game=False, marks=marks)
    assert isinstance(grid.round, int) and isinstance(grid.table, int)
    assert grid.wide == 2 + marks
    assert grid.columns == 5 + grid.wide
    # The rules: the thick one after the set, each narrow column's right edge, then the
    # edges between wide columns, which share what is left of the width.
    edges = [grid.set + grid.round, grid.set + grid.round + grid.mark, grid.wl_left, grid.narrow]
    assert [r.at for r in grid.rules[:5]] == [grid.set, *edges]
    assert [r.width for r in grid.rules] == [2] + [1] * (4 + grid.wide - 1)
    step = (grid.inner / grid.digit - grid.narrow) / grid.wide
    assert [r.at for r in grid.rules[5:]] == pytest.approx(
        [grid.narrow + i * step for i in range(1, grid.wide)]
    )
    assert grid.wide_columns == [f"{100 * i / grid.wide:g}%" for i in range(grid.wide)]


def test_a_card_game_without_marks_spreads_four_columns_over_the_width():
    grid = tally_grid("roomy", card_game=True, marks=0)
    assert not grid.has_mark and grid.wide == 0 and grid.wl is None
    assert grid.label_span == 3
    assert grid.col_widths[-1] is None  # W / L takes what is left
    assert grid.set > tally_grid("roomy", card_game=False, marks=0).set


ROWS = [
    GridRow(round=1, mark=1, table=12, won=True, extras=("1", "")),
    GridRow(round=2, mark=2, table=3, won=False, extras=("", "2")),
    GridRow(round=3, mark=3, table=None, won=None, extras=("", "")),
]


def centre_of(line: str, text: str, *, first: bool = False) -> float:
    """Where ``text`` (the last such on the line, or the first) is centred, in digits
    from the line's start."""
    before = line[: line.index(text) if first else line.rindex(text)]
    return digits_wide(before) + digits_wide(text) / 2


@pytest.mark.parametrize("pictured", [True, False])
def test_a_set_prints_a_line_of_text_per_round(pictured):
    grid = tally_grid("compact", card_game=False, marks=0)
    printed = grid_set(grid, 2, ROWS, pictured=pictured)
    regular = list(printed.regular)
    # The rounds and their marks are in the night's picture, or the round starts the line
    # and the marks are a bold line of their own over it.
    rounds = [] if pictured else ["1", "2", "3"]
    expected = [["12", "W", "1"], ["3", "L", "2"], []]
    assert [line.split() for line in regular] == [
        [*r, *e] for r, e in zip([[n] for n in rounds] or [[]] * 3, expected, strict=True)
    ]
    assert printed.bold.split("\n") == ([""] if pictured else ["1", "2", "3"])
    assert printed.rounds == ((1, 1), (2, 2), (3, 3))
    if not pictured:
        assert centre_of(regular[0], "1", first=True) == grid.round / 2
    # The table sits in the middle of its column, exactly.
    assert centre_of(regular[0], "12") == grid.round + grid.mark + grid.table / 2
    # W and L in the middle of theirs, and the buncos and mini buncos in the wide
    # columns, within a fifth of a digit.
    wl_middle = grid.wl_left - grid.set + grid.wl / 2
    assert abs(centre_of(regular[0], "W") - wl_middle) <= 0.2
    assert abs(centre_of(regular[1], "L") - wl_middle) <= 0.2
    for line, column in [(regular[0], 0), (regular[1], 1)]:
        number = line.split()[-1]
        middle = grid.narrow - grid.set + (column + 0.5) * grid.wide_digits
        assert abs(centre_of(line, number) - middle) <= 0.2
    assert printed.wins == (0,)


def test_w_and_l_are_centred_in_the_rest_of_the_width_at_a_card_party_without_marks():
    grid = tally_grid("roomy", card_game=True, marks=0)
    printed = grid_set(grid, 1, ROWS[:2], pictured=True)
    middle = grid.wl_left - grid.set + grid.wl_box / 2
    assert abs(centre_of(printed.regular[0], "W") - middle) <= 0.2
    assert abs(centre_of(printed.regular[1], "L") - middle) <= 0.2
    assert printed.bold == ""


@pytest.mark.parametrize("density", ["roomy", "compact", "dense"])
@pytest.mark.parametrize(("card_game", "marks"), [(False, 0), (False, 2), (True, 0)])
def test_the_drawing_of_the_rules_has_a_line_under_each_row_and_down_each_column(
    density, card_game, marks
):
    grid = tally_grid(density, card_game=card_game, marks=marks, width=523.2756)
    svg = lines_svg(grid, [6, 6, 4])
    d = {width: path for path, width in re.findall(r'<path d="([^"]+)" stroke-width="(\d)"', svg)}
    # Down each column (and the frame's left side, half its width in from the edge).
    down = sorted(float(x) for x in re.findall(r"M([\d.]+) 0V", d["1"] + d["2"]))
    expected = [FRAME_PT / 2, *(FRAME_PT + r.at * grid.digit for r in grid.rules)]
    assert down == pytest.approx(expected, abs=0.001)
    # Under every row but a set's last (the thick line takes its place), from the set
    # number's column on; two thick lines between the sets, one over the totals.
    under_rows = re.findall(r"M([\d.]+) [\d.]+H", d["1"])
    assert len(under_rows) == 5 + 5 + 3
    set_edge = FRAME_PT + grid.set * grid.digit
    assert all(float(x) == pytest.approx(set_edge, abs=0.001) for x in under_rows)
    assert len(re.findall(r"H", d["3"])) == 3

"""The seating TV's pages: as few as hold twenty tables each, shared out evenly, every page
of a night in the grid its largest page needs."""

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunco_night.nights.pages import (
    TV_LINE_CHARS,
    TV_TABLES_PER_PAGE,
    TvPage,
    even_pages,
    tv_pages,
)
from bunco_night.nights.seat_tags import SeatTag


@pytest.mark.parametrize(
    "tables, sizes, grid",
    [
        (0, [], None),
        (1, [1], "1x1"),
        (2, [2], "2x1"),
        (3, [3], "2x2"),
        (4, [4], "2x2"),
        (5, [5], "3x2"),
        (12, [12], "4x3"),
        (15, [15], "5x3"),
        (20, [20], "5x4"),
        (21, [11, 10], "4x3"),
        (50, [17, 17, 16], "5x4"),
        (41, [14, 14, 13], "5x3"),
        (250, [20] * 3 + [19] * 10, "5x4"),  # 1000 players, the most a night seats
    ],
)
def test_pages_share_the_tables_out_evenly(tables, sizes, grid):
    pages = tv_pages(list(range(tables)))
    assert [len(p.tables) for p in pages] == sizes
    assert [p.number for p in pages] == list(range(1, len(sizes) + 1))
    assert [t for p in pages for t in p.tables] == list(range(tables))  # each once, in order
    assert {f"{p.columns}x{p.rows}" for p in pages} == ({grid} if grid else set())
    for p in pages:
        assert len(p.tables) <= min(p.columns * p.rows, TV_TABLES_PER_PAGE)


@pytest.mark.parametrize(
    "items, most, sizes",
    [
        (0, 12, []),
        (1, 12, [1]),
        (12, 12, [12]),
        (13, 12, [7, 6]),  # the room screen's 13 tables: not 12 and 1
        (25, 12, [9, 8, 8]),
        (36, 12, [12, 12, 12]),
        (21, 20, [11, 10]),
    ],
)
def test_even_pages_are_as_few_as_hold_the_items_and_differ_by_one_at_most(items, most, sizes):
    pages = even_pages(list(range(items)), most)
    assert [len(p) for p in pages] == sizes
    assert [i for p in pages for i in p] == list(range(items))


@given(items=st.integers(min_value=0, max_value=300), most=st.integers(min_value=1, max_value=30))
def test_even_pages_hold_every_item_once_in_as_few_even_pages_as_can(items, most):
    pages = even_pages(list(range(items)), most)
    assert [i for p in pages for i in p] == list(range(items))
    assert len(pages) == -(-items // most)
    sizes = [len(p) for p in pages]
    assert all(0 < size <= most for size in sizes)
    assert sizes == sorted(sizes, reverse=True) and (not sizes or sizes[0] - sizes[-1] <= 1)


def _table(*names: str, tags: dict | None = None) -> SimpleNamespace:
    """A table of ``names``; ``tags``: a name's tag on the chart (``SeatTag``)."""
    seats = [SimpleNamespace(occupant_name=n) for n in names]
    rows = [(s, None, (tags or {}).get(s.occupant_name)) for s in seats]
    return SimpleNamespace(seats=seats, chart_rows=rows)


@pytest.mark.parametrize(
    "names, long",
    [
        (["Amy Li", "Regular 12", "Jo", "Bo"], False),
        (["Amy Li", "x" * TV_LINE_CHARS, "Jo", "Bo"], False),
        (["Amy Li", "x" * (TV_LINE_CHARS + 1), "Jo", "Bo"], True),
        (["Amy Li", "Ghost (for Evangeline Moss)", "Jo", "Bo"], True),
    ],
)
def test_a_page_says_when_a_name_is_longer_than_a_line(names, long):
    """The stylesheet makes room for two lines a name on such a page where no script fits
    the names (static/css/site.css, tv-long-names)."""
    page = TvPage(1, [_table("Al", "Bea", "Cy", "Di"), _table(*names)], 2, 1)
    assert page.long_names is long
    assert ("tv-long-names" in page.chart_class.split()) is long


@pytest.mark.parametrize(
    "tag, long",
    [
        (SeatTag(), False),  # "Gina Ruiz guest": 15 characters
        (SeatTag("Deb Jones", "Deb"), True),  # "Gina Ruiz sub for Deb": 21
    ],
)
def test_a_tag_counts_in_its_name_s_line(tag, long):
    """A seat's tag follows its name on the TV, short ("sub for Deb"), in the same line."""
    page = TvPage(1, [_table("Amy Li", "Gina Ruiz", "Jo", "Bo", tags={"Gina Ruiz": tag})], 1, 1)
    assert page.long_names is long

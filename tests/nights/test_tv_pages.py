"""The seating TV's pages: as few as hold twenty tables each, shared out evenly, every page
of a night in the grid its largest page needs."""

import pytest

from bunco_night.nights.pages import TV_TABLES_PER_PAGE, tv_pages


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

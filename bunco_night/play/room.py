"""The room screen, a TV across the room: the round, bell, tables and standings so far."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bunco_night.nights.models import Night, Seat
from bunco_night.nights.pages import even_pages
from bunco_night.nights.seat_tags import SeatTag, tagged
from bunco_night.nights.selectors import SeatedTable, seated_tables

from .live import LiveBoard, live_board
from .state import TableRound

# Most tables a page holds (3 rows of 4); more turn by themselves (static/js/pages.js).
ROOM_TABLES_PER_PAGE = 12
ROOM_PAGE_SIZES = (ROOM_TABLES_PER_PAGE, 9, 6, 4, 2, 1)
# (up to tables, columns, rows, name size in --u: 1/100 of the widest 16:9 box).
ROOM_GRIDS = (
    (1, 1, 1, 4.4),
    (2, 2, 1, 3.6),
    (4, 2, 2, 3.0),
    (6, 3, 2, 2.6),
    (9, 3, 3, 2.2),
    (ROOM_TABLES_PER_PAGE, 4, 3, 1.9),
)
# The smallest name static/js/fit.js may shrink to (in --u: 25 px on a 1080p TV).
ROOM_SMALLEST_NAME = 1.3
# At that size, letters a card's line holds by columns, and lines by rows (measured).
ROOM_LINE_CHARS = {1: 60, 2: 30, 3: 19, 4: 14}
ROOM_CARD_LINES = {1: 24, 2: 11, 3: 7}
ROOM_SCORE_CHARS = 3
# Prizes fill a page's empty cells only in grids of at most this many rows.
ROOM_PRIZE_ROWS = 2
# The most standings rows sent; static/js/fit.js shows those that fit.
ROOM_STANDINGS_MOST = 40


def wrapped_lines(text: str, chars: int) -> int:
    """The lines ``text`` takes wrapped at words and hyphens in lines of ``chars``."""
    lines, used = 0, chars  # a full line: the first word starts a new one
    for word in re.findall(r"[^\s-]+-?|-", text):
        if used + 1 + len(word) <= chars:
            used += 1 + len(word)
        else:
            lines += -(-len(word) // chars)
            used = len(word) % chars or chars
    return max(lines, 1)


@dataclass(frozen=True)
class RoomGrid:
    """How a page of the room screen lays out its tables: columns, rows, the names' size."""

    columns: int
    rows: int
    size: float

    @property
    def css_class(self) -> str:
        return f"room-grid-{self.columns}x{self.rows}"

    @property
    def fit(self) -> str:
        """The smallest share of ``size`` a table's names may be made (``data-fit``)."""
        return f"{min(1.0, math.ceil(ROOM_SMALLEST_NAME / self.size * 100) / 100):.2f}"


def room_grid(most: int) -> RoomGrid:
    """The grid for pages of at most ``most`` tables."""
    columns, rows, size = next((c, r, s) for up_to, c, r, s in ROOM_GRIDS if most <= up_to)
    return RoomGrid(columns, rows, size)


def seat_text(seat: Seat, tag: SeatTag | None) -> str:
    """A seat's line on the room screen: the name, and its tag ("sub for Deb", "guest")."""
    return f"{seat.occupant_name} {tag.short_text}" if tag else seat.occupant_name


def card_lines(card: SeatedTable | TableRound, grid: RoomGrid) -> int:
    """The lines of names ``card`` takes in a card of ``grid`` at the smallest size."""
    chars = ROOM_LINE_CHARS[grid.columns]
    if isinstance(card, SeatedTable):
        return sum(wrapped_lines(seat_text(seat, tag), chars) for seat, _, tag in card.chart_rows)
    return sum(wrapped_lines(name, chars - ROOM_SCORE_CHARS) for _, name, _ in card.sides)


def room_pages(cards: Sequence[SeatedTable | TableRound]) -> tuple[list[list], RoomGrid]:
    """``cards`` in even pages whose names read across the room, and the largest's grid."""
    for most in ROOM_PAGE_SIZES:
        pages = even_pages(list(cards), most)
        grid = room_grid(max((len(p) for p in pages), default=1))
        if all(card_lines(c, grid) <= ROOM_CARD_LINES[grid.rows] for c in cards):
            break
    return pages, grid


@dataclass
class RoomScreen:
    """The TV: round, bell, tables in even pages that turn, and the standings so far."""

    board: LiveBoard
    seating: list[list[SeatedTable]]
    scores: list[list[TableRound]]
    grid: RoomGrid

    @property
    def night(self) -> Night:
        return self.board.night

    @property
    def prizes_big(self) -> bool:
        """The night is over: its prizes fill the screen, not the side column."""
        return self.night.is_over and bool(self.board.standings.prizes)

    @property
    def free_cells(self) -> int:
        """The empty cells at the foot of a single page's grid (none when pages turn)."""
        pages = self.seating or self.scores
        if len(pages) != 1:
            return 0
        return self.grid.columns * self.grid.rows - len(pages[0])

    @property
    def grid_prizes(self) -> bool:
        """The prizes fill the grid's empty cells (grids of two rows at most)."""
        return (
            bool(self.board.standings.prizes)
            and not self.prizes_big
            and self.free_cells > 0
            and self.grid.rows <= ROOM_PRIZE_ROWS
        )

    @property
    def roomy(self) -> bool:
        """One page of at most four tables: the side column is wider."""
        pages = self.seating or self.scores
        return len(pages) == 1 and self.grid.columns <= 2 and self.grid.rows <= 2

    @property
    def strip_prizes(self) -> bool:
        """The prizes go in a strip under a roomy page of 4 tables (not while the bell
        rings: ``bell_hides_prizes``)."""
        return self._strip_place and not self.board.bell

    @property
    def bell_hides_prizes(self) -> bool:
        """The bell's banner takes the prizes' strip of a page of 4 tables until close."""
        return self._strip_place and self.board.bell

    @property
    def _strip_place(self) -> bool:
        return (
            bool(self.board.standings.prizes)
            and not self.prizes_big
            and not self.grid_prizes
            and self.roomy
            and self.grid.rows == ROOM_PRIZE_ROWS
        )

    @property
    def side_prizes(self) -> bool:
        """The prizes so far share the side column with the standings."""
        return (
            bool(self.board.standings.prizes)
            and not self.prizes_big
            and not self.grid_prizes
            and not self._strip_place
        )

    @property
    def side_wide(self) -> bool:
        """The prizes share a wider side column beside a grid of 3 by 2 (5 or 6 tables)."""
        return self.side_prizes and self.grid.columns == 3 and self.grid.rows == 2

    @property
    def standings_total(self) -> int:
        return len(self.board.standings.standings)

    @property
    def standings_shown(self) -> list:
        """The standings' rows sent to the side column (static/js/fit.js shows what fits)."""
        return self.board.standings.rows[:ROOM_STANDINGS_MOST]

    @property
    def standings_more(self) -> int:
        """How many players the rows sent leave out."""
        return self.standings_total - len(self.standings_shown)


def room_screen(night: Night) -> RoomScreen:
    board = live_board(night)
    playing = board.round is not None and board.round.is_playing
    if board.next_round:
        seating, grid = room_pages(tagged(night, seated_tables(board.next_round)))
        return RoomScreen(board, seating, [], grid)
    scores, grid = room_pages(board.tables if playing else [])
    return RoomScreen(board, [], scores, grid)

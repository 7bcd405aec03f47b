"""The room screen, for a TV across the room: the round, the bell, every table's score in
play or where to sit next, and the standings so far, filling the screen at any size of
night (docs/rules.md says nothing of screens: this is the app's own)."""

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

# The most tables a page of the room screen holds: three rows of four beside the
# standings; more come in even pages that turn by themselves (static/js/pages.js). Names
# too long for four cards a row at a size read across the room make pages of fewer.
ROOM_TABLES_PER_PAGE = 12
ROOM_PAGE_SIZES = (ROOM_TABLES_PER_PAGE, 9, 6, 4, 2, 1)
# The grid of a page by the most tables a page of the night shows: (up to, columns, rows,
# the names' size in --u, a hundredth of the widest 16:9 box the screen holds).
ROOM_GRIDS = (
    (1, 1, 1, 4.4),
    (2, 2, 1, 3.6),
    (4, 2, 2, 3.0),
    (6, 3, 2, 2.6),
    (9, 3, 3, 2.2),
    (ROOM_TABLES_PER_PAGE, 4, 3, 1.9),
)
# No name is made smaller than this (in --u: 25 px on a 1920x1080 TV, 17 px at 1280x720):
# read from across a living room. static/js/fit.js makes a table's names smaller, to fit
# its card, down to this.
ROOM_SMALLEST_NAME = 1.3
# At that size, how many letters of a name a line of a card holds, by the grid's columns,
# and how many lines of names a card holds, by its rows (static/css/play.css, measured
# with DejaVu Sans Bold, a wide font); a score takes ROOM_SCORE_CHARS of its line.
ROOM_LINE_CHARS = {1: 60, 2: 30, 3: 19, 4: 14}
ROOM_CARD_LINES = {1: 24, 2: 11, 3: 7}
ROOM_SCORE_CHARS = 3
# The prizes so far take the cells a page of tables leaves empty in a grid of at most
# this many rows (3 tables in 2 by 2, 5 in 3 by 2); below that a cell is too low for them.
ROOM_PRIZE_ROWS = 2
# The most standings rows sent: static/js/fit.js shows as many as fit the side column and
# says how many more there are; no screen holds this many at a size read across a room.
ROOM_STANDINGS_MOST = 40


def wrapped_lines(text: str, chars: int) -> int:
    """The lines ``text`` takes, wrapped between words and after hyphens, in lines of
    ``chars`` letters (a word longer than a line takes as many as it needs)."""
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
    """The lines of names ``card`` takes in a card of ``grid`` at the smallest size: a
    line or more a seat, or a side and its score."""
    chars = ROOM_LINE_CHARS[grid.columns]
    if isinstance(card, SeatedTable):
        return sum(wrapped_lines(seat_text(seat, tag), chars) for seat, _, tag in card.chart_rows)
    return sum(wrapped_lines(name, chars - ROOM_SCORE_CHARS) for _, name, _ in card.sides)


def room_pages(cards: Sequence[SeatedTable | TableRound]) -> tuple[list[list], RoomGrid]:
    """``cards`` in even pages of as many as a page holds with every card's names at a size
    read across the room, and the grid of the largest page."""
    for most in ROOM_PAGE_SIZES:
        pages = even_pages(list(cards), most)
        grid = room_grid(max((len(p) for p in pages), default=1))
        if all(card_lines(c, grid) <= ROOM_CARD_LINES[grid.rows] for c in cards):
            break
    return pages, grid


@dataclass
class RoomScreen:
    """The TV: the round, the bell, every table's score in play or where to sit next, and
    the standings so far. Tables come in even pages of at most twelve that turn by
    themselves, each page in the grid its largest page needs."""

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
        """The cells of the grid its one page of tables leaves empty (none when the tables
        come in pages that turn): at most a row's worth, at the grid's foot."""
        pages = self.seating or self.scores
        if len(pages) != 1:
            return 0
        return self.grid.columns * self.grid.rows - len(pages[0])

    @property
    def grid_prizes(self) -> bool:
        """The prizes so far fill the grid's empty cells, leaving the side column's height
        to the standings: in a grid of two rows at most, whose cell holds them (a cell of
        three rows is too low for two lines a prize)."""
        return (
            bool(self.board.standings.prizes)
            and not self.prizes_big
            and self.free_cells > 0
            and self.grid.rows <= ROOM_PRIZE_ROWS
        )

    @property
    def roomy(self) -> bool:
        """One page of at most four tables (a grid of 2 by 2 at most): the tables need
        less of the screen's width, and the side column is wider, to hold the standings'
        names whole."""
        pages = self.seating or self.scores
        return len(pages) == 1 and self.grid.columns <= 2 and self.grid.rows <= 2

    @property
    def strip_prizes(self) -> bool:
        """The prizes so far go in a strip under a roomy page of tables in two full rows
        (4 tables), leaving the side column's height to the standings. Fewer tables leave
        the standings room beside the prizes. While the bell rings its banner takes that
        height, and the strip waits for the round to close (``bell_hides_prizes``)."""
        return self._strip_place and not self.board.bell

    @property
    def bell_hides_prizes(self) -> bool:
        """The bell rings over a page of 4 tables: its banner takes the height of the
        prizes' strip, which leaves the room the tables' names need. The prizes, the same
        since the last round closed, come back when this one closes."""
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
        """The prizes share the side column beside a grid of 3 by 2 (5 or 6 tables): the
        column is wider, so the standings left them hold their names whole. A grid of more
        tables needs the width for its tables' names."""
        return self.side_prizes and self.grid.columns == 3 and self.grid.rows == 2

    @property
    def standings_total(self) -> int:
        return len(self.board.standings.standings)

    @property
    def standings_shown(self) -> list:
        """The standings' rows sent to the side column, which shows as many as fit its
        height (static/js/fit.js) and says how many more there are."""
        return self.board.standings.rows[:ROOM_STANDINGS_MOST]

    @property
    def standings_more(self) -> int:
        """How many players the rows sent leave out (a screen without scripts shows all
        the rows sent)."""
        return self.standings_total - len(self.standings_shown)


def room_screen(night: Night) -> RoomScreen:
    board = live_board(night)
    playing = board.round is not None and board.round.is_playing
    if board.next_round:
        seating, grid = room_pages(tagged(night, seated_tables(board.next_round)))
        return RoomScreen(board, seating, [], grid)
    scores, grid = room_pages(board.tables if playing else [])
    return RoomScreen(board, [], scores, grid)

"""The tally sheet's grid of rounds as a few lines of text per set, with its rules as one
SVG (``lines_svg``); ``templates/printing/tally_sheets.html`` draws it.
Why: docs/architecture.md, Design notes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FIGURE_SPACE = "\u2007"
HALF_SPACE = "\u2008"  # punctuation space
QUARTER_EM = "\u2005"  # four-per-em space

# Advance widths in DejaVu Sans (em); figure spaces keep digits lined up in any font.
DIGIT_EM = 1303 / 2048
LETTER_EM = {"W": 2025 / 2048, "L": 1141 / 2048}

# How tightly rows are set (``documents.shared.row_density``): font size and row pitch in points.
DENSITIES = {"roomy": (16, 33), "compact": (13, 20), "dense": (11, 16)}

# Set, round, mark, table, W / L columns in points on Letter (with group marks: True).
_NARROW_PT = {False: (52.2, 57.6, 57.6, 63.0, 84.6), True: (42.8, 48.2, 48.2, 53.6, 69.8)}
_GRID_PT = 540.0

# The frame below the sets (points): the line over the totals, their row, the line under.
TOTALS_LINE_PT = 3.0
TOTALS_ROW_PT = 28.0
FRAME_PT = 1.0


def _half(value: float) -> float:
    return round(value * 2) / 2


@dataclass(frozen=True)
class Rule:
    """A vertical line: its centre in digits from the sets' left edge, thickness in points."""

    at: float
    width: float


@dataclass(frozen=True)
class TallyGrid:
    """Where the columns of a night's tally sheets are, in digits (``ch``)."""

    pitch: float
    set: float
    round: int
    mark: float
    table: int
    wl: float | None  # None: W / L takes the rest of the width (a card game, no marks)
    wide: int  # buncos, mini buncos and the group's marks
    font: float  # the grid's font size, points
    width: float = _GRID_PT  # the grid's width on the page, points, frame included

    @property
    def inner(self) -> float:
        """The sets' width inside the frame, points."""
        return self.width - 2 * FRAME_PT

    @property
    def wide_digits(self) -> float:
        """One wide column's width, in digits."""
        return (self.inner / self.digit - self.narrow) / self.wide if self.wide else 0.0

    @property
    def set_pt(self) -> float:
        """The set number's column in points (the number's bigger digits are not ``ch``)."""
        return round(self.set * self.digit, 3)

    @property
    def digit(self) -> float:
        """A digit's width (``1ch``) in points."""
        return DIGIT_EM * self.font

    @property
    def wl_left_pt(self) -> float:
        """Where W / L starts, in points (for bold text, whose ``ch`` is wider)."""
        return round(self.wl_left * self.digit, 3)

    @property
    def wl_pt(self) -> float | None:
        return None if self.wl is None else round(self.wl * self.digit, 3)

    @property
    def wl_box_pt(self) -> float:
        """W / L's width in points: its own, or the rest of the sets' width."""
        return round(self.wl_box * self.digit, 3)

    @property
    def wl_box(self) -> float:
        """W / L's width in digits: its own, or the rest of the sets' width."""
        return self.wl if self.wl is not None else self.inner / self.digit - self.wl_left

    @property
    def narrow_pt(self) -> float:
        return round(self.narrow * self.digit, 3)

    @property
    def has_mark(self) -> bool:
        return self.mark > 0

    @property
    def narrow(self) -> float:
        """Width of the columns up to W / L."""
        return self.set + self.round + self.mark + self.table + (self.wl or 0)

    @property
    def col_widths(self) -> list[float | None]:
        """Each column's width in ``ch`` for the header's ``<col>``, None for a wide one."""
        widths = [self.set, self.round] + ([self.mark] if self.has_mark else [])
        return [*widths, self.table, self.wl] + [None] * self.wide

    @property
    def columns(self) -> int:
        return len(self.col_widths)

    @property
    def label_span(self) -> int:
        """Columns under "Totals": set, round, mark and table."""
        return 4 if self.has_mark else 3

    @property
    def wl_left(self) -> float:
        return self.set + self.round + self.mark + self.table

    @property
    def mark_centre(self) -> float:
        return self.set + self.round + self.mark / 2

    @property
    def wide_width(self) -> str:
        """One wide column's width, a percentage of the wide columns' width."""
        return f"{100 / self.wide:g}%" if self.wide else "0"

    @property
    def wide_columns(self) -> list[str]:
        """The left edge of each wide column, a percentage of the wide columns' width."""
        return [f"{100 * i / self.wide:g}%" for i in range(self.wide)]

    @property
    def rules(self) -> list[Rule]:
        """The vertical lines: a thick one after the set, then every column edge."""
        edges = [self.set + self.round]
        if self.has_mark:
            edges.append(edges[-1] + self.mark)
        edges.append(edges[-1] + self.table)
        if self.wl is not None and self.wide:
            edges.append(self.narrow)
        edges += [self.narrow + i * self.wide_digits for i in range(1, self.wide)]
        return [Rule(self.set, 2)] + [Rule(x, 1) for x in edges]

    def set_height(self, rows: int) -> float:
        """A set's box height: its rows less the rule under the last one."""
        return rows * self.pitch - 1


def tally_grid(density: str, *, card_game: bool, marks: int, width: float = _GRID_PT) -> TallyGrid:
    """The columns for a night's sheets in whole digits; ``width``: on the page, points."""
    font_pt, pitch = DENSITIES[density]
    wide = (0 if card_game else 2) + marks
    set_pt, round_pt, mark_pt, table_pt, wl_pt = _NARROW_PT[marks > 0]
    if card_game:
        mark_pt = 0.0
        if not wide:  # four columns share the whole width, as the table spread them
            scale = _GRID_PT / (set_pt + round_pt + table_pt + wl_pt)
            set_pt, round_pt, table_pt = set_pt * scale, round_pt * scale, table_pt * scale
    digit = DIGIT_EM * font_pt
    return TallyGrid(
        pitch=pitch,
        set=_half(set_pt / digit),
        round=round(round_pt / digit),
        mark=_half(mark_pt / digit),
        table=round(table_pt / digit),
        wl=None if card_game and not wide else _half(wl_pt / digit),
        wide=wide,
        font=font_pt,
        width=width,
    )


def centred(digits: str, width: int) -> str:
    """``digits`` centred in a field ``width`` digits wide (figure and half spaces)."""
    pad = max(width - len(digits), 0)
    side = FIGURE_SPACE * (pad // 2) + HALF_SPACE * (pad % 2)
    return f"{side}{digits}{side}"


def gap(width: float) -> str:
    """Blank space ``width`` digits wide (a whole or half number)."""
    return FIGURE_SPACE * int(width) + HALF_SPACE * (width % 1 > 0)


# Spaces for a part of a digit, and how wide they are in digits (DejaVu Sans).
_PART_SPACES = {
    "": 0.0,
    QUARTER_EM: 0.25 / DIGIT_EM,
    HALF_SPACE: 0.5,
    HALF_SPACE + QUARTER_EM: 0.5 + 0.25 / DIGIT_EM,
    FIGURE_SPACE: 1.0,
}


def space(width: float) -> tuple[str, float]:
    """(blank space near ``width`` digits wide, its width)."""
    whole = int(max(width, 0))
    part = min(_PART_SPACES, key=lambda s: abs(whole + _PART_SPACES[s] - width))
    return FIGURE_SPACE * whole + part, whole + _PART_SPACES[part]


@dataclass(frozen=True)
class GridRow:
    """One round on a sheet, as the grid prints it."""

    round: int
    mark: int | None
    table: int | None
    won: bool | None
    extras: tuple[str, ...]  # buncos, mini buncos, group marks ("" for none)


@dataclass(frozen=True)
class GridSet:
    """One set's rows on a sheet: a line of text per row, and the marks."""

    number: int
    rows: int
    regular: tuple[str, ...]  # a line per row
    bold: str  # the marks, a line per row, where they print as text ("" where not)
    wins: tuple[int, ...]
    rounds: tuple[tuple[int, int | None], ...]  # each row's round and mark

    @property
    def regular_text(self) -> str:
        """The regular lines, one under the other."""
        return "\n".join(self.regular)

    @property
    def wins_url(self) -> str:
        """The URL of this set's wins picture, e.g. "made:wins-6-0-3.png" (rows 1, 4 won)."""
        return f"made:wins-{'-'.join(map(str, (self.rows, *self.wins)))}.png"


def grid_set(grid: TallyGrid, number: int, rows: list[GridRow], *, pictured: bool) -> GridSet:
    """The text and boxes of one set; ``pictured``: rounds and marks are in the picture."""
    regular, bold, wins = [], [], []
    wide_left = grid.narrow - grid.set  # from the start of the line
    for i, row in enumerate(rows):
        line = gap(grid.round) if pictured else centred(str(row.round), grid.round)
        line += gap(grid.mark)
        at = grid.round + grid.mark
        if row.table is not None:
            line += centred(str(row.table), grid.table)
            at += grid.table
        if row.won is not None:
            letter = "W" if row.won else "L"
            wide = LETTER_EM[letter] / DIGIT_EM
            blank, width = space(grid.wl_left - grid.set + (grid.wl_box - wide) / 2 - at)
            line += blank + letter
            at += width + wide
        for column, text in enumerate(row.extras):
            if text:
                start = wide_left + (column + 0.5) * grid.wide_digits - len(text) / 2
                blank, wide = space(start - at)
                line += blank + text
                at += wide + len(text)
        regular.append(line.rstrip(FIGURE_SPACE + HALF_SPACE))
        if grid.has_mark and not pictured:
            bold.append(FIGURE_SPACE if row.mark is None else str(row.mark))
        if row.won:
            wins.append(i)
    return GridSet(
        number=number,
        rows=len(rows),
        regular=tuple(regular),
        bold="\n".join(bold),
        wins=tuple(wins),
        rounds=tuple((row.round, row.mark) for row in rows),
    )


def lines_svg(grid: TallyGrid, set_rows: Sequence[int]) -> str:
    """Every rule of the grid below the header, as SVG as wide as the grid, each centred
    where a collapsed table border would be."""
    pitch, width = grid.pitch, grid.width
    sets_height = sum(grid.set_height(n) for n in set_rows) + 3 * max(len(set_rows) - 1, 0)
    height = sets_height + TOTALS_LINE_PT + TOTALS_ROW_PT + FRAME_PT
    thin, medium, thick = [], [], []  # 1, 2 and 3 points
    set_edge = FRAME_PT + grid.set * grid.digit

    def across(y: float, into: list, start: float = 0) -> None:
        into.append(f"M{start:g} {y:g}H{width:g}")

    top = 0.0
    for i, rows in enumerate(set_rows):
        if i:
            across(top - 1.5, thick)
        for row in range(1, rows):  # under each row but the last, right of the set number
            across(top + row * pitch - 0.5, thin, set_edge)
        top += grid.set_height(rows) + 3
    across(sets_height + TOTALS_LINE_PT / 2, thick)
    for rule in grid.rules:
        x = round(FRAME_PT + rule.at * grid.digit, 3)
        bottom = height if rule.at >= grid.wl_left else sets_height
        (medium if rule.width == 2 else thin).append(f"M{x:g} 0V{bottom:g}")
    half = FRAME_PT / 2
    thin.append(f"M{half:g} 0V{height - half:g}H{width - half:g}V0")
    paths = "".join(
        f'<path d="{"".join(d)}" stroke-width="{w}"/>'
        for d, w in ((thin, 1), (medium, 2), (thick, 3))
        if d
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}pt" height="{height:g}pt" '
        f'viewBox="0 0 {width:g} {height:g}" preserveAspectRatio="none">'
        f'<g stroke="#000" fill="none">{paths}</g></svg>'
    )

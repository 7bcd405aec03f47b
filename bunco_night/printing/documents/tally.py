"""Tally sheets: one per player, filled for closed rounds, with a QR code; blanks after."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

from django.http import QueryDict
from django.utils.safestring import SafeString

from bunco_night.core.errors import ServiceError
from bunco_night.core.qr import qr_image
from bunco_night.nights.models import Night
from bunco_night.nights.played import who_played

from .. import pictures
from ..grid import (
    FRAME_PT,
    TOTALS_LINE_PT,
    TOTALS_ROW_PT,
    GridRow,
    GridSet,
    TallyGrid,
    grid_set,
    lines_svg,
    tally_grid,
)
from .parts import Options, Parts, Sizes, Source, cut
from .shared import (
    BARE_MARGINS_PT,
    PAPER_WIDTH_PT,
    Columns,
    PlayLinks,
    Result,
    Slot,
    Totals,
    columns,
    night_slots,
    paper,
    row_density,
    seat_results,
    totals,
)


@dataclass(frozen=True)
class TallySheet:
    """One player's card for the night (a blank one has no name and no QR code)."""

    name: str
    link: str
    sets: list[GridSet]
    totals: Totals | None
    card_game: bool = False
    note: str = ""  # "Arrived for round 2", "Left after round 1" (``Played.came_and_went``)

    @property
    def wide_totals(self) -> tuple[int, ...]:
        """The totals under the wide columns: buncos, mini buncos, then group marks."""
        t = self.totals
        if t is None:
            return ()
        return t.marks if self.card_game else (t.buncos, t.mini_buncos, *t.marks)

    @property
    def qr(self) -> SafeString | str:
        """The player's link as a QR code (made by the PDF engine, with the piece)."""
        return qr_image(self.link) if self.link else ""


@dataclass(frozen=True)
class TallySheets:
    sheets: list[TallySheet]
    columns: Columns
    density: str
    grid: TallyGrid
    blank_marks: tuple[None, ...]

    # The grid's rules and pictures, handed to the PDF engine with each piece.
    lines_url = "made:tally-lines.svg"
    header_url = "made:tally-header.png"
    sets_url = "made:tally-sets.png"

    @property
    def header_labels(self) -> list[str]:
        """The grid's column headings, left to right."""
        cols = self.columns
        labels = ["Set", "Game" if cols.is_card_game else "Round"]
        if not cols.is_card_game:
            labels.append("Mark")
        labels += ["Table", "W / L"]
        if not cols.is_card_game:
            labels += ["Buncos", cols.mini_label]
        return labels + list(cols.mark_labels)

    @property
    def header_png(self) -> bytes | None:
        """The header row as a PNG; None where it prints as a table (``pictures``)."""
        padding = 2.0 if self.columns.mark_labels else 4.0  # print.css: thead th
        return pictures.header_png(self.grid, self.header_labels, padding=padding)

    @property
    def header_height(self) -> float:
        return pictures.HEIGHT_PT

    @property
    def sets_png(self) -> bytes | None:
        """``pictures.sets_png`` for these sheets, or None (printed as text)."""
        sets = [(s.number, s.rounds) for s in self.sheets[0].sets] if self.sheets else []
        return pictures.sets_png(self.grid, sets, self.lines_height)

    @property
    def sets_width(self) -> float:
        """The picture's width: from the grid's left edge to W / L."""
        return round(pictures.INSET_PT + self.grid.wl_left_pt, 3)

    @property
    def set_rows(self) -> list[int]:
        """Each set's rounds (every sheet has the same)."""
        return [s.rows for s in self.sheets[0].sets] if self.sheets else []

    @property
    def files(self) -> dict[str, tuple[bytes, str]]:
        svg = lines_svg(self.grid, self.set_rows)
        files = {self.lines_url: (svg.encode(), "image/svg+xml")}
        for url, png in ((self.header_url, self.header_png), (self.sets_url, self.sets_png)):
            if png is not None:
                files[url] = (png, "image/png")
        pitch = round(self.grid.pitch)
        for sheet in self.sheets:
            for s in sheet.sets:
                # One picture for every set with the same rounds won.
                if s.wins and s.wins_url not in files:
                    files[s.wins_url] = (pictures.wins_png(pitch, s.rows, s.wins), "image/png")
        return files

    @property
    def lines_height(self) -> float:
        """The drawing's height: the sets, the totals, the frame under them."""
        return self.grid_height + TOTALS_LINE_PT + TOTALS_ROW_PT + FRAME_PT

    @cached_property
    def set_heights(self) -> list[tuple[int, float]]:
        """(rounds, height in points) of the sets (every sheet has the same rounds)."""
        sizes = sorted({s.rows for sheet in self.sheets[:1] for s in sheet.sets})
        return [(n, self.grid.set_height(n)) for n in sizes]

    @property
    def grid_height(self) -> float:
        """The sets one under the other, with a thick line (3 pt) between two."""
        sets = self.sheets[0].sets if self.sheets else []
        return sum(self.grid.set_height(s.rows) for s in sets) + 3 * max(len(sets) - 1, 0)


def _grid_sets(
    grid: TallyGrid, slots: list[Slot], mine: dict[int, Result], card_game: bool, pictured: bool
) -> list[GridSet]:
    """A sheet's sets as the grid prints them (``mine``: round number -> result)."""
    by_set: dict[int, list[GridRow]] = {}
    for s in slots:
        r = mine.get(s.number)
        counts = () if card_game else (r and r.buncos, r and r.mini_buncos)
        marks = r.marks if r else ()
        by_set.setdefault(s.set_number, []).append(
            GridRow(
                round=s.in_set,
                mark=s.mark,
                table=r.table if r else None,
                won=r.won if r else None,
                extras=tuple(str(n) if n else "" for n in (*counts, *marks)),
            )
        )
    return [grid_set(grid, number, rows, pictured=pictured) for number, rows in by_set.items()]


def tally_sheets(*, night: Night, links: PlayLinks, blank: int = 0) -> TallySheets:
    """A sheet per player who played tonight, by name, then ``blank`` blank ones."""
    cols = columns(night.rules_obj)
    slots = night_slots(night)
    density = row_density(len(slots))
    width = PAPER_WIDTH_PT[paper(night.group)] - BARE_MARGINS_PT
    grid = tally_grid(density, card_game=cols.is_card_game, marks=len(cols.mark_codes), width=width)
    results = seat_results(night, cols.mark_codes)
    any_closed = any(s.closed for s in slots)
    pictured = pictures.sets_drawable()  # the rounds and marks: in the picture, or text
    sheets = []
    for p in who_played(night):
        mine = results.get(p.player.pk, {})
        sheets.append(
            TallySheet(
                name=p.player.name,
                link=links.player(p.attendance.token) if p.attendance else "",
                sets=_grid_sets(grid, slots, mine, cols.is_card_game, pictured),
                totals=totals(mine.values(), len(cols.mark_codes)) if any_closed else None,
                card_game=cols.is_card_game,
                note=p.came_and_went,
            )
        )
    empty = _grid_sets(grid, slots, {}, cols.is_card_game, pictured)
    sheets += [TallySheet("", "", empty, None) for _ in range(blank)]
    return TallySheets(sheets, cols, density, grid, tuple(None for _ in cols.mark_codes))


def check_blank_count(value: str | None, *, limit: int) -> int:
    """A ``?blank=N`` count: 0 when absent, refused when not a whole number up to ``limit``."""
    if value in (None, ""):
        return 0
    try:
        count = int(value)
    except ValueError:
        raise ServiceError("Blank sheets: give a whole number.", "bad_blank") from None
    if not 0 <= count <= limit:
        raise ServiceError(f"Blank sheets: 0 to {limit}.", "bad_blank")
    return count


# Blank sheets a host may add, at most.
MAX_BLANK_SHEETS = 200


def pieces(source: Source) -> Parts:
    """The sheets in runs, a page each, with the grid's pictures."""
    doc = tally_sheets(night=source.night, links=source.links, blank=source.options.blank)
    runs = cut(doc.sheets)
    contexts = [{"doc": dataclasses.replace(doc, sheets=run)} for run in runs]
    return Parts(contexts, [len(run) for run in runs], files=doc.files)


def pages(sizes: Sizes, options: Options) -> int:
    return sizes.players + options.blank


def read_options(query: QueryDict) -> Options:
    """``?blank=N`` blank sheets after the players'; a bad count is a ``ServiceError``."""
    return Options(blank=check_blank_count(query.get("blank"), limit=MAX_BLANK_SHEETS))

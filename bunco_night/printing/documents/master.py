"""The master score sheet: every player's result in every round, and their totals."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cached_property

from bunco_night.nights.models import Night
from bunco_night.nights.played import who_played

from .parts import Options, Parts, Sizes, Source, cut
from .shared import (
    Columns,
    Result,
    Slot,
    Totals,
    columns,
    night_slots,
    seat_results,
    totals,
)

# The master sheet shows at most this many rounds side by side (two sets of six).
MASTER_ROUNDS_PER_BLOCK = 12

# Rows in a piece: two landscape pages when no name takes two lines.
MASTER_PIECE_ROWS = 40
ROWS_PER_PAGE = 20  # about, for the estimate


@dataclass(frozen=True)
class MasterRow:
    name: str
    cells: list[Result | None]
    totals: Totals
    note: str = ""  # "Arrived for round 2", "Left after round 1" (``Played.came_and_went``)


@dataclass(frozen=True)
class MasterBlock:
    """Up to twelve rounds side by side, every player down the page."""

    sets: list[int]
    slots: list[Slot]
    rows: list[MasterRow]
    continued: bool = False  # more rows of the block before (printed in pieces)

    @property
    def set_headers(self) -> list[tuple[int, int]]:
        """(set number, rounds of it in this block), for the header row above the rounds."""
        spans: list[tuple[int, int]] = []
        for s in self.slots:
            if spans and spans[-1][0] == s.set_number:
                spans[-1] = (s.set_number, spans[-1][1] + 1)
            else:
                spans.append((s.set_number, 1))
        return spans

    @cached_property
    def set_starts(self) -> set[int]:
        """Positions of the rounds that start a set (a thick line on their left)."""
        return {i for i, s in enumerate(self.slots) if s.starts_set}


@dataclass(frozen=True)
class MasterSheet:
    blocks: list[MasterBlock]
    columns: Columns
    started: bool
    density: str
    block_count: int  # of the whole sheet, when ``blocks`` are a piece of it

    @property
    def totals_span(self) -> int:
        """Columns under "Night totals": wins, losses, buncos, minis and each group mark."""
        counters = 2 if self.columns.is_card_game else 4
        return counters + len(self.columns.mark_codes)

    @property
    def totals_range(self) -> range:
        return range(self.totals_span)


def _blocks(slots: list[Slot]) -> list[list[Slot]]:
    """Whole sets packed side by side, at most ``MASTER_ROUNDS_PER_BLOCK`` rounds a block."""
    blocks: list[list[Slot]] = []
    by_set: dict[int, list[Slot]] = {}
    for s in slots:
        by_set.setdefault(s.set_number, []).append(s)
    for set_slots in by_set.values():
        for i in range(0, len(set_slots), MASTER_ROUNDS_PER_BLOCK):
            chunk = set_slots[i : i + MASTER_ROUNDS_PER_BLOCK]
            if blocks and len(blocks[-1]) + len(chunk) <= MASTER_ROUNDS_PER_BLOCK:
                blocks[-1].extend(chunk)
            else:
                blocks.append(list(chunk))
    return blocks


def master_sheet(*, night: Night) -> MasterSheet:
    """Every player's win or loss and buncos in every round, as the night stands."""
    cols = columns(night.rules_obj)
    slots = night_slots(night)
    results = seat_results(night, cols.mark_codes)
    played = who_played(night)
    players = [p.player for p in played]
    notes = {p.player.pk: p.came_and_went for p in played}
    player_totals = {
        p.pk: totals(results.get(p.pk, {}).values(), len(cols.mark_codes)) for p in players
    }
    blocks = []
    for block in _blocks(slots):
        rows = []
        for p in players:
            mine = results.get(p.pk, {})
            cells = [mine.get(s.number) if s.closed else None for s in block]
            rows.append(MasterRow(p.name, cells, player_totals[p.pk], notes[p.pk]))
        blocks.append(MasterBlock(sorted({s.set_number for s in block}), block, rows))
    # Up to twelve players fit one landscape page with tall rows.
    density = "roomy" if len(players) <= 12 else "compact"
    return MasterSheet(blocks, cols, any(s.closed for s in slots), density, len(blocks))


def pieces(source: Source) -> Parts:
    """The sheet whole, or past ``MASTER_PIECE_ROWS`` players each block in runs of rows."""
    doc = master_sheet(night=source.night)
    parts = [doc]
    if sum(len(b.rows) for b in doc.blocks) > MASTER_PIECE_ROWS:
        parts = [
            dataclasses.replace(
                doc, blocks=[dataclasses.replace(block, rows=rows, continued=i > 0)]
            )
            for block in doc.blocks
            for i, rows in enumerate(cut(block.rows, MASTER_PIECE_ROWS, MASTER_PIECE_ROWS))
        ]
    return Parts([{"doc": part} for part in parts])


def pages(sizes: Sizes, options: Options) -> int:
    blocks = math.ceil(sizes.sets * sizes.rounds_per_set / MASTER_ROUNDS_PER_BLOCK)
    return blocks * math.ceil(sizes.players / ROWS_PER_PAGE)

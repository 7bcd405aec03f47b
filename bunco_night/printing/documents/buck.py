"""Buck Dice score pads: a game per page, a column per player (docs/rules.md section 9.3)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from bunco_night.nights.models import Night
from bunco_night.nights.played import who_played
from bunco_night.nights.selectors import night_rules_explained, players_tonight

from .parts import Options, Parts, Sizes, Source, cut


@dataclass(frozen=True)
class BuckPad:
    """A Buck Dice pad (docs/rules.md section 9.3): one game, a column per player (at most
    ``BUCK_PAD_COLUMNS``); ``wide`` pads print landscape."""

    game: int
    sheet: int
    sheets: int
    names: list[str]
    rules: tuple[str, ...]
    turns: int

    @property
    def wide(self) -> bool:
        return len(self.names) > BUCK_PAD_PORTRAIT

    @property
    def rows(self) -> range:
        """The turns, numbered from 1: a player writes their running total."""
        return range(1, self.turns + 1)

    @property
    def density(self) -> str:
        return "many" if len(self.names) > BUCK_PAD_PORTRAIT else "few"


BUCK_PAD_COLUMNS = 10  # players on one sheet
BUCK_PAD_PORTRAIT = 6  # more players than this print landscape
BUCK_PAD_BLANK = 6  # columns of a blank pad


def buck_pads(*, night: Night, blank: bool = False) -> list[BuckPad]:
    """A Buck Dice pad per game of the night; ``blank``: empty columns for names."""
    names = [] if blank else [p.name for p in players_tonight(night)]
    names += [] if blank else [p.player.name for p in who_played(night) if p.left]
    names = names or [""] * BUCK_PAD_BLANK
    scoring = next(s for s in night_rules_explained(night))
    chunks = [names[i : i + BUCK_PAD_COLUMNS] for i in range(0, len(names), BUCK_PAD_COLUMNS)]
    return [
        BuckPad(
            game,
            sheet,
            len(chunks),
            chunk,
            scoring.lines,
            turns=9 if len(chunk) > BUCK_PAD_PORTRAIT else 12,
        )
        for game in range(1, night.sets + 1)
        for sheet, chunk in enumerate(chunks, start=1)
    ]


def pieces(source: Source) -> Parts:
    """The pads in runs, a page each."""
    runs = cut(buck_pads(night=source.night, blank=source.options.blank_pads))
    return Parts([{"pads": run} for run in runs], [len(run) for run in runs])


def pages(sizes: Sizes, options: Options) -> int:
    sheets = 1 if options.blank_pads else max(math.ceil(sizes.players / BUCK_PAD_COLUMNS), 1)
    return sizes.sets * sheets


def is_buck_dice(night: Night) -> bool:
    return night.rules_obj.is_buck_dice

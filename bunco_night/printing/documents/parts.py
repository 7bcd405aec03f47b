"""What a document module is given and gives back.

A document is built from a ``Source`` (a night, or a group or a season; the host's
``Options``; the play links) into ``Parts``: a context for each piece it prints in,
and each piece's pages when they are known. ``Sizes`` are the counts its length is
estimated from before it is built; ``cut`` cuts a long list into pieces.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from bunco_night.groups.models import Group, Season
from bunco_night.nights.models import Night
from bunco_night.nights.selectors import players_tonight

from .. import parallel
from .shared import PlayLinks

# Pages in a piece of a long document, at most: a piece has a fixed cost (fonts, the
# stylesheet) and its memory grows with its pages.
PIECE_PAGES = 25

# Pages in a piece, at least, when a long document is cut so that every print worker
# has a piece (``cut``).
MIN_PIECE_PAGES = 4


@dataclass(frozen=True)
class Options:
    """What the host asked for beyond the document itself."""

    blank: int = 0  # tally sheets: blank ones at the end
    tent: bool = False  # table cards: folded into tents
    blank_pads: bool = False  # score pads: Us/Them, no table number

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def as_query(self) -> dict:
        """The options as the document's address asks for them."""
        query = {}
        if self.blank:
            query["blank"] = self.blank
        if self.tent:
            query["fold"] = "tent"
        if self.blank_pads:
            query["blank"] = 1
        return query

    @property
    def suffix(self) -> str:
        """The PDF file name's ending for these options."""
        return ("-tent" if self.tent else "") + ("-blank" if self.blank_pads else "")


@dataclass(frozen=True)
class Source:
    """What a document is printed for: a night, or a group (its rules card) or a season;
    ``links`` make the QR codes' addresses."""

    group: Group
    night: Night | None = None
    season: Season | None = None
    options: Options = Options()
    links: PlayLinks | None = None


@dataclass(frozen=True)
class Parts:
    """A document's context for each piece, each piece's pages when known beforehand,
    and the images made for it (the same in every piece, by URL: content and type)."""

    contexts: list[dict]
    pages: list[int] | None = None
    files: Mapping[str, tuple[bytes, str]] = field(default_factory=dict)


class Sizes:
    """A night's counts that its documents' lengths depend on, each read once, when a
    document first asks for it; ``tables`` and ``players`` may be given instead."""

    def __init__(self, night: Night, *, tables: int | None = None, players: int | None = None):
        self.night = night
        for name, value in (("tables", tables), ("players", players)):
            if value is not None:
                self.__dict__[name] = value  # the cached_property's value

    @cached_property
    def tables(self) -> int:
        """Active tables."""
        return self.night.tables.filter(active=True).count()

    @cached_property
    def players(self) -> int:
        """Players tonight."""
        return len(players_tonight(self.night))

    @property
    def sets(self) -> int:
        return self.night.sets

    @property
    def rounds_per_set(self) -> int:
        return self.night.rules_obj.rounds_per_set


def cut(items: list, size: int | None = None, least: int = MIN_PIECE_PAGES) -> list[list]:
    """``items`` in runs of at most ``size`` (``PIECE_PAGES``). A longer list is cut into
    runs as even as can be, as many as there are print workers or a multiple of it, each
    of ``least`` items at least; with ``least`` at ``size`` or more, runs of ``size``
    exactly. A list of ``size`` or fewer is one run."""
    size = PIECE_PAGES if size is None else size
    count = math.ceil(len(items) / size)
    if count <= 1 or least >= size:  # runs of exactly ``size``, the last one shorter
        return [items[i : i + size] for i in range(0, len(items), size)] or [items]
    workers = parallel.workers()
    balanced = math.ceil(count / workers) * workers
    count = max(count, min(balanced, len(items) // least))
    # ``count`` runs, the first ``longer`` of them one item longer than the rest.
    size, longer = divmod(len(items), count)
    runs, start = [], 0
    for i in range(count):
        end = start + size + (i < longer)
        runs.append(items[start:end])
        start = end
    return runs

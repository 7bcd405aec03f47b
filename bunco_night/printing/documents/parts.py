"""What a document module is given (``Source``, ``Options``, ``Sizes``) and gives back
(``Parts``); ``cut`` cuts a long list into pieces."""

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

# Pages in a piece at most: a piece has a fixed cost, and memory grows with its pages.
PIECE_PAGES = 25

# Pages in a piece at least, when cut so that every worker has one.
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
    """A night, group or season to print for; ``links`` make the QR codes' addresses."""

    group: Group
    night: Night | None = None
    season: Season | None = None
    options: Options = Options()
    links: PlayLinks | None = None


@dataclass(frozen=True)
class Parts:
    """A context per piece, each piece's pages if known, and its images by URL."""

    contexts: list[dict]
    pages: list[int] | None = None
    files: Mapping[str, tuple[bytes, str]] = field(default_factory=dict)


class Sizes:
    """A night's counts, each read once when first asked (or given)."""

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
    """``items`` in even runs of at most ``size`` (``PIECE_PAGES``), as many as the
    workers or a multiple, each of ``least`` at least (else runs of exactly ``size``)."""
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

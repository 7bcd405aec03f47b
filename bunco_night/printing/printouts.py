"""Each printed document of a night as something to print: its template, its pieces.

A printout is built from the night, the options the host chose and the site's address
(for the QR codes' links), never from a request, so a view can print it at once and a
background job can print it later in another thread (``jobs``). ``estimated_pages``
says how long it will be from a few counts, before anything is built.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from bunco_night.nights.models import Night
from bunco_night.nights.selectors import players_tonight

from . import documents, parallel
from .pdf import Pieces

# Pages in a piece of a long document, at most. A piece has a fixed cost (fonts, the
# stylesheet: about what a page costs) and its memory grows with its pages, so pieces are
# a few dozen pages: a night of 500 prints 500 tally sheets in 20 pieces.
PIECE_PAGES = 25

# Pages in a piece, at least, when a long document is cut so that every print worker
# has a piece (``_chunks``).
MIN_PIECE_PAGES = 4

# Rows of the master sheet in a piece: two landscape pages, on Letter or A4, when no name
# takes two lines (one that does can push a row or two onto a third page).
MASTER_PIECE_ROWS = 40


@dataclass(frozen=True)
class Kind:
    slug: str  # the file name's last part
    title: str
    template: str


KINDS = {
    "table_cards": Kind("table-cards", "Table cards", "printing/table_cards.html"),
    "tally_sheets": Kind("tally-sheets", "Tally sheets", "printing/tally_sheets.html"),
    "score_pads": Kind("score-pads", "Score pads", "printing/score_pads.html"),
    "master_sheet": Kind("master-score-sheet", "Master score sheet", "printing/master_sheet.html"),
    "prizes": Kind("prizes", "Prizes and standings", "printing/prizes.html"),
    "roster": Kind("roster-and-dues", "Roster and dues", "printing/roster.html"),
    "rules_card": Kind("rules-card", "How we play", "printing/rules_card.html"),
}

# A Buck Dice night's score pads: a game per page, a column per player (docs/rules.md
# section 9.3).
BUCK_PADS = Kind("buck-dice-pads", "Buck Dice score pads", "printing/buck_pads.html")


def kind_of(kind: str, night: Night) -> Kind:
    """What ``kind`` prints for ``night``: its own score pads on a Buck Dice night."""
    if kind == "score_pads" and night.rules_obj.is_buck_dice:
        return BUCK_PADS
    return KINDS[kind]


@dataclass(frozen=True)
class Options:
    """What the host asked for beyond the document itself."""

    blank: int = 0  # tally sheets: blank ones at the end
    tent: bool = False  # table cards: folded into tents
    blank_pads: bool = False  # score pads: Us/Them, no table number

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Printout:
    kind: str
    night: Night
    options: Options
    pieces: Pieces

    @property
    def title(self) -> str:
        return kind_of(self.kind, self.night).title

    @property
    def filename(self) -> str:
        return printout_filename(self.kind, self.night, self.options)


def printout_filename(kind: str, night: Night, options: Options) -> str:
    """The PDF's file name: the group, the date and the document."""
    slug = kind_of(kind, night).slug
    if kind == "table_cards" and options.tent:
        slug += "-tent"
    if kind == "score_pads" and options.blank_pads:
        slug += "-blank"
    return f"{night.group.slug}-{night.date:%Y-%m-%d}-{slug}.pdf"


def links_at(base_url: str) -> documents.PlayLinks:
    """Play links on the site at ``base_url`` (the public address, ``core.links``)."""
    # As ``core.links.phone_url`` joins them: a public address with a path (a site behind
    # a proxy at https://example.org/bunco) keeps its path.
    base = base_url.rstrip("/")
    return documents.PlayLinks(lambda path: base + path)


def _chunks(items: list, size: int, least: int = MIN_PIECE_PAGES) -> list[list]:
    """``items`` in runs of at most ``size``. A list longer than ``size`` is cut into
    runs as even as can be, as many as there are print workers or a multiple of it, when
    each still has ``least`` items: the workers then finish together, where 30 sheets
    cut 25 and 5 would leave one worker idle for most of the document. With ``least`` at
    ``size`` or more, the runs are of ``size`` exactly (the master sheet's, each a whole
    number of pages).

    A list of ``size`` or fewer is one run, printed in the request's own process: a
    monthly group's dozen sheets print faster so than as two pieces in two workers,
    each of which pays a piece's fixed cost and a new process's first one.
    """
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


def printout(kind: str, night: Night, *, base_url: str, options: Options) -> Printout:
    """The document ``kind`` of ``night``, in pieces."""
    links = links_at(base_url)
    base = {"night": night, "group": night.group, "paper": documents.paper(night.group)}
    base["title"] = kind_of(kind, night).title

    def context(**extra) -> Callable[[], dict]:
        return lambda: {**base, **extra}

    template = kind_of(kind, night).template
    if kind == "table_cards":
        cards = documents.table_cards(night=night, links=links)
        chunks = _chunks(cards, PIECE_PAGES)
        pieces = Pieces(
            template,
            [context(cards=c, tent=options.tent) for c in chunks],
            [len(c) for c in chunks],
        )
    elif kind == "tally_sheets":
        doc = documents.tally_sheets(night=night, links=links, blank=options.blank)
        chunks = _chunks(doc.sheets, PIECE_PAGES)
        docs = [dataclasses.replace(doc, sheets=c) for c in chunks]
        pieces = Pieces(
            template, [context(doc=d) for d in docs], [len(c) for c in chunks], files=doc.files
        )
    elif kind == "score_pads":
        if night.rules_obj.is_buck_dice:
            pads = documents.buck_pads(night=night, blank=options.blank_pads)
        else:
            pads = documents.score_pads(night=night, blank=options.blank_pads)
        chunks = _chunks(pads, PIECE_PAGES)
        pieces = Pieces(
            template, [context(pads=c) for c in chunks], [len(c) for c in chunks], numbered=True
        )
    elif kind == "master_sheet":
        doc = documents.master_sheet(night=night)
        parts = [doc]
        if sum(len(b.rows) for b in doc.blocks) > MASTER_PIECE_ROWS:
            # Each block (a page break before it) in runs of rows; the first part of a
            # block has its title, the others go on under the repeated column headers.
            parts = [
                dataclasses.replace(
                    doc, blocks=[dataclasses.replace(block, rows=rows, continued=i > 0)]
                )
                for block in doc.blocks
                for i, rows in enumerate(_chunks(block.rows, MASTER_PIECE_ROWS, MASTER_PIECE_ROWS))
            ]
        pieces = Pieces(
            template, [context(doc=d) for d in parts], numbered=True, page_class="wide-page"
        )
    elif kind == "prizes":
        pieces = Pieces(template, [context(doc=documents.prize_sheet(night=night))], numbered=True)
    elif kind == "roster":
        pieces = Pieces(template, [context(doc=documents.roster_sheet(night=night))], numbered=True)
    elif kind == "rules_card":
        doc = documents.rules_card(group=night.group, night=night)
        pieces = Pieces(template, [context(doc=doc)], [1])
    else:
        raise ValueError(f"No printed document {kind!r}")
    return Printout(kind, night, options, pieces)


def estimated_pages(kind: str, night: Night, options: Options) -> int:
    """About how many pages the document has, from a few counts (nothing is built)."""
    tables = night.tables.filter(active=True).count()
    if kind == "table_cards":
        return max(tables, 1)
    if kind == "rules_card":
        return 1
    players = len(players_tonight(night))
    if kind == "score_pads" and night.rules_obj.is_buck_dice:
        columns = documents.BUCK_PAD_COLUMNS
        return night.sets * (1 if options.blank_pads else max(math.ceil(players / columns), 1))
    if kind == "score_pads":
        return night.sets * (1 if options.blank_pads else max(tables, 1))
    if kind == "tally_sheets":
        return players + options.blank
    if kind == "master_sheet":
        blocks = math.ceil(night.sets * night.rules_obj.rounds_per_set / 12)
        return blocks * math.ceil(players / 20)
    return math.ceil(players / 40)


def prints_in_pieces(night: Night, tables: int) -> bool:
    """Whether the night's longest documents, its tally sheets or its score pads (with
    ``tables`` tables), may print in pieces, in worker processes (``parallel``). One
    query: a sheet for each row of the night's attendance at most."""
    sheets = night.attendances.count()
    return sheets > PIECE_PAGES or night.sets * tables > PIECE_PAGES

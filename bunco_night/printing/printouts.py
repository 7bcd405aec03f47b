"""A registered document as something to print, built from its ``Source``, never from a
request, so a job can print it later in another thread."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.nights.models import Night

from . import registry
from .documents import parts
from .documents.parts import Options, Sizes, Source
from .documents.shared import PlayLinks, paper
from .pdf import Pieces
from .registry import Document


@dataclass(frozen=True)
class Printout:
    document: Document
    source: Source
    pieces: Pieces

    @property
    def title(self) -> str:
        return self.document.title_for(self.source)

    @property
    def filename(self) -> str:
        return self.document.filename(self.source)


def links_at(base_url: str) -> PlayLinks:
    """Play links on the site at ``base_url`` (the public address, ``core.links``)."""
    # As ``core.links.phone_url``: a public address keeps its path (behind a proxy).
    base = base_url.rstrip("/")
    return PlayLinks(lambda path: base + path)


def night_source(night: Night, *, base_url: str = "", options: Options | None = None) -> Source:
    """``night`` as a document's source, its QR codes' links on the site at ``base_url``."""
    options = Options() if options is None else options
    return Source(night.group, night=night, options=options, links=links_at(base_url))


def printout(kind: str, night: Night, *, base_url: str, options: Options) -> Printout:
    """The document ``kind`` of ``night`` (or the one printed in its place), in pieces."""
    source = night_source(night, base_url=base_url, options=options)
    return printout_of(registry.document(kind, night), source)


def printout_of(document: Document, source: Source) -> Printout:
    """``document`` printed for ``source``, in pieces."""
    title = document.title_for(source)
    base = {"night": source.night, "group": source.group, "paper": paper(source.group)}
    base["title"] = title
    if source.season is not None:
        base["season"] = source.season
    built = document.pieces(source)
    pieces = Pieces(
        document.template,
        [lambda extra=extra: {**base, **extra} for extra in built.contexts],
        built.pages,
        numbered=document.numbered,
        page_class=document.page_class,
        files=built.files,
    )
    return Printout(document, source, pieces)


def printout_filename(kind: str, night: Night, options: Options) -> str:
    """The PDF's file name: the group, the date and the document."""
    return registry.document(kind, night).filename(night_source(night, options=options))


def prints_in_pieces(night: Night, tables: int) -> bool:
    """Whether any of the night's documents may print in pieces (one query)."""
    sizes = Sizes(night, tables=tables, players=night.attendances.count())
    return any(
        d.pages(sizes, Options()) > parts.PIECE_PAGES
        for d in registry.night_documents(night)
        if d.background
    )

"""Every printed document, by name: the one list that views, jobs and the print page read. Adding
a document is a module in ``documents/`` and an entry here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import QueryDict
from django.utils.text import slugify

from bunco_night.nights.models import Night

from .documents import buck, cards, how_we_play, master, pads, prizes, roster, season, tally
from .documents.parts import Options, Parts, Sizes, Source


def no_options(query: QueryDict) -> Options:
    return Options()


def never(night: Night) -> bool:
    return False


@dataclass(frozen=True)
class Document:
    """A printed document: ``name`` (URL ``printing:<name>``), title, ``slug``, template,
    ``pieces`` (its context) and ``pages`` (an estimate from ``Sizes``). A ``background``
    one past ``PRINT_BACKGROUND_PAGES`` prints as a job; ``instead_of`` another ``when``."""

    name: str
    title: str
    slug: str
    template: str
    pieces: Callable[[Source], Parts]
    pages: Callable[[Sizes, Options], int] | None = None
    background: bool = False
    numbered: bool = False
    page_class: str = ""
    path: str = ""
    read_options: Callable[[QueryDict], Options] = no_options
    instead_of: str = ""
    when: Callable[[Night], bool] = never

    def __post_init__(self):
        if self.background and self.pages is None:
            raise ValueError(f"{self.name}: a document printed in the background needs pages")

    def title_for(self, source: Source) -> str:
        return f"{self.title} {source.season.name}" if source.season else self.title

    def filename(self, source: Source) -> str:
        """The PDF's file name: the group, the date or the season, and the document."""
        group = source.group.slug
        if source.season is not None:
            return f"{group}-{self.slug}-{slugify(source.season.name) or source.season.pk}.pdf"
        slug = self.slug + source.options.suffix
        if source.night is not None:
            return f"{group}-{source.night.date:%Y-%m-%d}-{slug}.pdf"
        return f"{group}-{slug}.pdf"


DOCUMENTS: dict[str, Document] = {}


def register(document: Document) -> Document:
    if document.name in DOCUMENTS:
        raise ValueError(f"Two printed documents named {document.name!r}")
    DOCUMENTS[document.name] = document
    return document


def document(name: str, night: Night | None = None) -> Document:
    """The document ``name``, or the one that prints in its place on ``night``."""
    if night is not None:
        for other in DOCUMENTS.values():
            if other.instead_of == name and other.when(night):
                return other
    return DOCUMENTS[name]


def night_documents(night: Night | None = None) -> list[Document]:
    """The documents with an address under a night's print page (as printed on ``night``)."""
    return [document(d.name, night) for d in DOCUMENTS.values() if d.path]


register(
    Document(
        name="table_cards",
        title="Table cards",
        slug="table-cards",
        template="printing/table_cards.html",
        path="table-cards",
        pieces=cards.pieces,
        pages=cards.pages,
        read_options=cards.read_options,
        background=True,
    )
)
register(
    Document(
        name="tally_sheets",
        title="Tally sheets",
        slug="tally-sheets",
        template="printing/tally_sheets.html",
        path="tally-sheets",
        pieces=tally.pieces,
        pages=tally.pages,
        read_options=tally.read_options,
        background=True,
    )
)
register(
    Document(
        name="score_pads",
        title="Score pads",
        slug="score-pads",
        template="printing/score_pads.html",
        path="score-pads",
        pieces=pads.pieces,
        pages=pads.pages,
        read_options=pads.read_options,
        background=True,
        numbered=True,
    )
)
register(
    Document(
        name="buck_pads",
        title="Buck Dice score pads",
        slug="buck-dice-pads",
        template="printing/buck_pads.html",
        pieces=buck.pieces,
        pages=buck.pages,
        background=True,
        numbered=True,
        instead_of="score_pads",
        when=buck.is_buck_dice,
    )
)
register(
    Document(
        name="master_sheet",
        title="Master score sheet",
        slug="master-score-sheet",
        template="printing/master_sheet.html",
        path="master-sheet",
        pieces=master.pieces,
        pages=master.pages,
        background=True,
        numbered=True,
        page_class="wide-page",
    )
)
register(
    Document(
        name="prizes",
        title="Prizes and standings",
        slug="prizes",
        template="printing/prizes.html",
        path="prizes",
        pieces=prizes.pieces,
        pages=prizes.pages,
        background=True,
        numbered=True,
    )
)
register(
    Document(
        name="roster",
        title="Roster and dues",
        slug="roster-and-dues",
        template="printing/roster.html",
        path="roster",
        pieces=roster.pieces,
        pages=roster.pages,
        background=True,
        numbered=True,
    )
)
register(
    Document(
        name="rules_card",
        title="How we play",
        slug="rules-card",
        template="printing/rules_card.html",
        path="rules-card",
        pieces=how_we_play.pieces,
        pages=how_we_play.pages,
        background=True,
    )
)
register(
    Document(
        name="season",
        title="Season",
        slug="season",
        template="printing/season.html",
        pieces=season.pieces,
    )
)

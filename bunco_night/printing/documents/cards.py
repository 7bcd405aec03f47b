"""Table cards: a card per table with its number and its phone's QR code."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict
from django.utils.safestring import SafeString

from bunco_night.core.qr import qr_image
from bunco_night.nights.models import Night

from .parts import Options, Parts, Sizes, Source, cut
from .shared import PlayLinks


@dataclass(frozen=True)
class TableCard:
    number: int
    head: bool
    link: str

    @property
    def qr(self) -> SafeString:
        """The link as a QR code (made by the PDF engine, with the piece it is in)."""
        return qr_image(self.link)

    @property
    def digits(self) -> int:
        """How many digits the number has (the card sizes it to fit)."""
        return len(str(self.number))


def table_cards(*, night: Night, links: PlayLinks) -> list[TableCard]:
    """One card per active table, head table first, with its phone link as a QR code."""
    cards = []
    for t in night.tables.filter(active=True).order_by("number"):
        link = links.table(t.token)
        cards.append(TableCard(t.number, t.is_head, link))
    return cards


def pieces(source: Source) -> Parts:
    """The cards in runs, a page each (``tent``: folded into tents)."""
    runs = cut(table_cards(night=source.night, links=source.links))
    return Parts(
        [{"cards": run, "tent": source.options.tent} for run in runs], [len(r) for r in runs]
    )


def pages(sizes: Sizes, options: Options) -> int:
    return max(sizes.tables, 1)


def read_options(query: QueryDict) -> Options:
    """``?fold=tent`` prints each card twice on a half page, to fold into a tent."""
    return Options(tent=query.get("fold") == "tent")

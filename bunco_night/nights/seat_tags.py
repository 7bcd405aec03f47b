"""What the seating chart says after a name: whose seat a substitute takes, or "guest"."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bunco_night.rules.names import first_names

if TYPE_CHECKING:
    from .models import Night
    from .selectors import SeatedTable


@dataclass(frozen=True)
class SeatTag:
    """A seat's tag: the ``regular`` a substitute plays for ("" for a guest)."""

    regular: str = ""
    short_regular: str = ""

    @property
    def is_substitute(self) -> bool:
        return bool(self.regular)

    @property
    def text(self) -> str:
        """ "sub for Deb Jones", or "guest"."""
        return f"sub for {self.regular}" if self.regular else "guest"

    @property
    def short_text(self) -> str:
        """ "sub for Deb", or "guest": where space is short (the TV)."""
        return f"sub for {self.short_regular}" if self.regular else "guest"

    @property
    def spoken(self) -> str:
        """What a screen reader says: "substitute for Deb Jones", or "guest"."""
        return f"substitute for {self.regular}" if self.regular else "guest"


def tagged(night: Night, chart: list[SeatedTable]) -> list[SeatedTable]:
    """``chart`` (``night``'s tables in a round) with each substitute's and guest's tag."""
    attendances = list(night.attendances.select_related("player"))
    regulars = [a.player.name for a in attendances if a.player.is_regular]
    sent = {a.substitute_id: a.player.name for a in attendances if a.sends_substitute}
    short = dict(zip(regulars, first_names(regulars, regulars), strict=True))
    result = []
    for t in chart:
        tags = {}
        for seat in t.seats:
            if seat.player_id in sent:
                regular = sent[seat.player_id]
                tags[seat.pk] = SeatTag(regular, short.get(regular, regular))
            elif seat.player_id is not None and not seat.player.is_regular:
                tags[seat.pk] = SeatTag()
        result.append(dataclasses.replace(t, tags=tags))
    return result

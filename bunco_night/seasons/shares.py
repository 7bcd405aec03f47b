"""The season's share of each night's dues as it truly stands: the share now, which
nights to come give, and the shares finished nights kept when they ended (docs/rules.md
sections 7.4 and 7.9). A changed share never moves a finished night's money, so the pages
and the season's sheet say both."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Season
from bunco_night.nights.models import MoneyRecord, Night


@dataclass(frozen=True)
class SeasonShare:
    """The season's share now (``percent``) and the other shares that nights already
    played kept (``kept``, smallest first; empty when every night gave ``percent``)."""

    percent: int
    kept: tuple[int, ...]

    @property
    def kept_words(self) -> str:
        """The kept shares: "10%", "0% or 10%"."""
        return " or ".join(f"{p}%" for p in self.kept)

    @property
    def sentence(self) -> str:
        """The share said for a page."""
        if not self.kept:
            return f"{self.percent}% of every night's dues goes to this pot."
        return (
            f"{self.percent}% of each night's dues from now on; "
            f"nights already played kept their share ({self.kept_words})."
        )


def season_share(season: Season) -> SeasonShare:
    """The share of ``season`` now, and the others its finished nights kept."""
    records = MoneyRecord.objects.filter(
        night__in=season.nights().filter(status=Night.Status.FINISHED)
    )
    kept = set()
    for record in records:
        percent = record.as_figures.season_percent
        kept.add(0 if percent is None else percent)
    kept.discard(season.pot_percent)
    return SeasonShare(season.pot_percent, tuple(sorted(kept)))

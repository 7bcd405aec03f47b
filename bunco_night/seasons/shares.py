"""The season's share now and those finished nights kept (docs/rules.md 7.4 and 7.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bunco_night.groups.models import Season
from bunco_night.nights.models import MoneyRecord, Night


@dataclass(frozen=True)
class SeasonShareNowAndKept:
    """The share now (``percent``) and other shares finished nights kept (``kept``)."""

    percent: int
    kept: tuple[int, ...]

    @property
    def kept_words(self) -> str:
        """The kept shares: "10%", "0% or 10%"."""
        return " or ".join(f"{p}%" for p in self.kept)

    @property
    def card(self) -> str:
        """The share said on the season's card in the list of seasons."""
        said = f"{self.percent}% of the dues to the year-end pot"
        if not self.kept:
            return said
        return f"{said} from now on; nights already played kept their share ({self.kept_words})"

    @property
    def sentence(self) -> str:
        """The share said for a page."""
        if not self.kept:
            return f"{self.percent}% of every night's dues goes to this pot."
        return (
            f"{self.percent}% of each night's dues from now on; "
            f"nights already played kept their share ({self.kept_words})."
        )


def season_share(season: Season) -> SeasonShareNowAndKept:
    """The share of ``season`` now, and the others its finished nights kept."""
    return season_shares([season])[season.pk]


def season_shares(seasons: Sequence[Season]) -> dict[int, SeasonShareNowAndKept]:
    """``season_share`` of each of ``seasons``, by id, in one query."""
    if not seasons:
        return {}
    records = (
        MoneyRecord.objects.filter(
            night__group__in={s.group_id for s in seasons},
            night__status=Night.Status.FINISHED,
            night__date__range=(min(s.starts for s in seasons), max(s.ends for s in seasons)),
        )
        .select_related("night")
        .only("figures", "night__group", "night__date")
    )
    kept: dict[int, set[int]] = {s.pk: set() for s in seasons}
    for record in records:
        percent = record.as_figures.season_percent
        for s in seasons:
            night = record.night
            if night.group_id == s.group_id and s.starts <= night.date <= s.ends:
                kept[s.pk].add(0 if percent is None else percent)
    for s in seasons:
        kept[s.pk].discard(s.pot_percent)
    return {s.pk: SeasonShareNowAndKept(s.pot_percent, tuple(sorted(kept[s.pk]))) for s in seasons}

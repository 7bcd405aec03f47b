"""A season's year-end sheet: its prizes (ties shown as ties) and its ranked standings."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString

from bunco_night.groups.models import Season
from bunco_night.rules.season import BEST_ATTENDANCE
from bunco_night.rules.season import MOST_MINI_BUNCOS as SEASON_MOST_MINIS
from bunco_night.seasons.charts import BUNCOS, WINS, Bar, bar_chart
from bunco_night.seasons.shares import SeasonShareNowAndKept, season_share
from bunco_night.seasons.standings import season_table

from .parts import Parts, Source
from .prizes import PRIZE_UNITS, PrizeLine, prize_line


@dataclass(frozen=True)
class SeasonLine:
    rank: int
    tied: bool
    name: str
    substitute: bool
    nights: int
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: tuple[int, ...]
    prizes: int
    money_cents: int


@dataclass(frozen=True)
class SeasonSheet:
    name: str
    starts: object
    ends: object
    nights: int
    pot_cents: int
    share: SeasonShareNowAndKept
    regulars_only: bool
    payout_error: str
    prizes: list[PrizeLine]
    standings: list[SeasonLine]
    mark_labels: tuple[str, ...]
    wins_chart: SafeString


def season_sheet(*, season: Season) -> SeasonSheet:
    """The year-end prizes (ties shown as ties) and the season's ranked standings."""
    table = season_table(season)
    percents = {p.key: p.percent for p in season.prizes.all()}
    prizes = []
    for prize, candidates, winner in table.prize_rows:
        names = [winner.name] if winner is not None else [p.name for p in candidates]
        prizes.append(prize_line(prize, names, _season_detail(prize.code, prize.value), percents))
    standings = [
        SeasonLine(
            s.rank,
            s.tied,
            player.name,
            not player.is_regular,
            s.nights,
            s.standing.wins,
            s.standing.losses,
            s.standing.buncos,
            s.standing.mini_buncos,
            marks,
            s.prizes,
            s.money_cents,
        )
        for s, player, marks in table.rows
    ]
    chart = bar_chart(
        "season-wins",
        f"Wins in the {season.name} season",
        [Bar(line.name, (line.wins, line.buncos)) for line in standings],
        [("Wins", WINS), ("Buncos", BUNCOS)],
    )
    return SeasonSheet(
        name=season.name,
        starts=season.starts,
        ends=season.ends,
        nights=len(table.nights),
        pot_cents=table.pot_cents,
        share=season_share(season),
        regulars_only=season.regulars_only,
        payout_error=table.payout_error,
        prizes=prizes,
        standings=standings,
        mark_labels=table.mark_labels,
        wins_chart=chart,
    )


_SEASON_UNITS = {
    **PRIZE_UNITS,
    BEST_ATTENDANCE: ("night", "nights"),
    SEASON_MOST_MINIS: ("mini bunco", "mini buncos"),
}


def _season_detail(code: str, value: int | None) -> str:
    if code not in _SEASON_UNITS or value is None:
        return ""
    one, many = _SEASON_UNITS[code]
    return f"{value} {one if value == 1 else many}"


def pieces(source: Source) -> Parts:
    return Parts([{"doc": season_sheet(season=source.season)}])

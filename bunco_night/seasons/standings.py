"""A season's standings and year-end prizes, read from its nights and ranked as a night
(docs/rules.md sections 7 and 8.7)."""

from __future__ import annotations

from dataclasses import dataclass

from bunco_night.groups.models import Player, Season
from bunco_night.nights.models import Night, Round, Seat
from bunco_night.nights.selectors import dues_summary, held_nights
from bunco_night.play.standings import night_standings
from bunco_night.rules.awards import PrizeResult
from bunco_night.rules.errors import RuleError
from bunco_night.rules.season import (
    SEASON_PRIZE_LABELS,
    NightResult,
    SeasonStanding,
    season_prizes,
    season_standings,
)
from bunco_night.rules.shares import PrizeCategory, split_pot
from bunco_night.rules.standings import PlayerRound


def played_nights(season: Season) -> list[Night]:
    """The season's nights with at least one closed round, first night first."""
    return list(
        season.nights().filter(rounds__status=Round.Status.CLOSED).distinct().order_by("date", "pk")
    )


def season_money_nights(season: Season) -> list[Night]:
    """The season's held nights, whose dues count in its money."""
    return list(
        season.nights().filter(pk__in=held_nights(season.group).values("pk")).order_by("date", "pk")
    )


def season_pot(season: Season) -> int:
    """The year-end pot: the season's share of every held night's dues."""
    return sum(dues_summary(n).season_share_cents for n in season_money_nights(season))


def night_rows(nights: list[Night]) -> dict[int, list[PlayerRound]]:
    """Night id -> every player's closed rounds that night (ghosts have none), in one query."""
    rows: dict[int, list[PlayerRound]] = {n.pk: [] for n in nights}
    seats = Seat.objects.filter(
        round__night__in=nights,
        round__status=Round.Status.CLOSED,
        player__isnull=False,
        won__isnull=False,
    ).values_list(
        "round__night_id", "player_id", "won", "buncos", "mini_buncos", "marks", "round__set_number"
    )
    for night_id, player, won, buncos, minis, marks, set_number in seats:
        rows[night_id].append(PlayerRound(player, won, buncos, minis, marks or {}, set_number))
    return rows


@dataclass
class SeasonTable:
    """A season's standings, its year-end prizes and their pot."""

    season: Season
    nights: list[Night]
    standings: list[SeasonStanding]
    players: dict[int, Player]
    prizes: list[PrizeResult]
    pot_cents: int
    payout_error: str
    mark_labels: tuple[str, ...]
    mark_codes: tuple[str, ...]

    @property
    def rows(self) -> list[tuple[SeasonStanding, Player, tuple[int, ...]]]:
        """(standing, player, group marks) ranked, ties in name order."""
        rows = [
            (s, self.players[s.player], tuple(s.standing.marks.get(c, 0) for c in self.mark_codes))
            for s in self.standings
        ]
        return sorted(rows, key=lambda row: (row[0].rank, row[1].name.casefold()))

    @property
    def prize_rows(self) -> list[tuple[PrizeResult, list[Player], Player | None]]:
        """Each year-end prize with its candidates and winner as players."""
        return [
            (
                p,
                [self.players[c] for c in p.candidates],
                self.players.get(p.winner) if p.winner is not None else None,
            )
            for p in self.prizes
        ]


def season_table(season: Season) -> SeasonTable:
    """Standings over the season's closed rounds; year-end prizes from the season's pot."""
    nights = played_nights(season)
    rows = night_rows(nights)
    results = []
    for night in nights:
        # Each share as the night's prize standings pay it: a split prize's too.
        won = [
            (who.pk, cents)
            for row in night_standings(night).prize_rows
            for who, _paid, cents in row.lines
        ]
        results.append(NightResult(rows[night.pk], won))
    standings = season_standings(results)
    players = {p.pk: p for p in Player.objects.filter(pk__in=[s.player for s in standings])}
    eligible = None
    if season.regulars_only:
        eligible = {pk for pk, p in players.items() if p.is_regular}
    pot = season_pot(season)
    categories = [p.as_category() for p in season.prizes.all()]
    payout_error = ""
    try:
        split_pot(pot, categories, labels=SEASON_PRIZE_LABELS)
    except RuleError as error:
        # Not enough in the pot yet for the fixed amounts: show who leads, no money yet.
        payout_error = error.message
        categories = [PrizeCategory(c.code, amount_cents=0, label=c.label) for c in categories]
    prizes = season_prizes(standings, categories, pot_cents=pot, eligible=eligible)
    # A tie-break counts while its player is still tied.
    recorded = {t.code: t.player_id for t in season.tiebreaks.all()}
    tiebreaks = {
        p.code: recorded[p.code] for p in prizes if p.tied and recorded.get(p.code) in p.candidates
    }
    if tiebreaks:
        prizes = season_prizes(
            standings, categories, pot_cents=pot, tiebreaks=tiebreaks, eligible=eligible
        )
    rules = season.group.rules_obj
    return SeasonTable(
        season,
        nights,
        standings,
        players,
        prizes,
        pot,
        payout_error,
        tuple(m.label for m in rules.group_marks),
        tuple(m.code for m in rules.group_marks),
    )

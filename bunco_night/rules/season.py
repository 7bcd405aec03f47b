"""A season: standings over many nights, the year-end prizes and their pot (docs/rules.md section
8.7), ranked and tied as a night is (sections 7.1 and 7.3)."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .awards import PrizeResult, prize_standings
from .errors import RuleError
from .shares import MOST_BUNCOS, MOST_LOSSES, MOST_WINS, PrizeCategory, split_pot
from .standings import PlayerRound, Standing, rank_standings, tally

# The season's own categories, beside the night's most wins, buncos and losses.
BEST_ATTENDANCE = "best_attendance"
MOST_MINI_BUNCOS = "season_most_mini_buncos"
SEASON_PRIZE_LABELS = {
    MOST_WINS: "Most wins of the season",
    MOST_BUNCOS: "Most buncos of the season",
    MOST_MINI_BUNCOS: "Most mini buncos of the season",
    MOST_LOSSES: "Most losses of the season",
    BEST_ATTENDANCE: "Best attendance",
}
# Categories that mean the same over a season as on a night: the night's rule decides them.
NIGHT_CATEGORIES = (MOST_WINS, MOST_BUNCOS, MOST_LOSSES)


@dataclass(frozen=True)
class NightResult:
    """One night as the season counts it: closed rounds' rows, and (winner, cents) a prize."""

    rows: Sequence[PlayerRound]
    prizes: Sequence[tuple[Hashable, int]] = ()


@dataclass(frozen=True)
class SeasonStanding:
    """A player's season: their ranked totals, nights played, night prizes and money won."""

    standing: Standing
    nights: int
    prizes: int
    money_cents: int

    @property
    def player(self) -> Hashable:
        return self.standing.player

    @property
    def rank(self) -> int:
        return self.standing.rank

    @property
    def tied(self) -> bool:
        return self.standing.tied


def season_standings(
    nights: Iterable[NightResult], players: Iterable[Hashable] = ()
) -> list[SeasonStanding]:
    """Rank everyone who played a round in the season like a night's standings
    (docs/rules.md section 7.1); ``players`` adds people with no round yet."""
    rows: list[PlayerRound] = []
    played: dict[Hashable, int] = dict.fromkeys(players, 0)
    prizes: dict[Hashable, list[int]] = {}
    for night in nights:
        rows.extend(night.rows)
        for player in {r.player for r in night.rows}:
            played[player] = played.get(player, 0) + 1
        for winner, amount in night.prizes:
            prizes.setdefault(winner, []).append(amount)
    ranked = rank_standings(tally(rows, played))
    return [
        SeasonStanding(
            s, played.get(s.player, 0), len(prizes.get(s.player, ())), sum(prizes.get(s.player, ()))
        )
        for s in ranked
    ]


def season_share(collected_cents: int, percent: int) -> int:
    """The season's share of a night's dues, rounded down to the cent (section 7.4)."""
    if not 0 <= percent <= 100:
        raise RuleError("The season's share is a percent from 0 to 100.", "bad_season_share")
    if collected_cents < 0:
        raise RuleError("The pot cannot be negative.", "negative_pot")
    return collected_cents * percent // 100


def season_category(code: str, *, amount_cents: int | None = None, percent: int | None = None):
    """A year-end prize category, titled for the season."""
    if code not in SEASON_PRIZE_LABELS:
        raise RuleError(f"Unknown season prize {code!r}.", "unknown_prize")
    return PrizeCategory(
        code, amount_cents=amount_cents, percent=percent, label=SEASON_PRIZE_LABELS[code]
    )


def _decide(
    category: PrizeCategory,
    share: int,
    value: int | None,
    candidates: tuple,
    chosen: Hashable | None,
) -> PrizeResult:
    """The tie rule of ``prize_standings`` (docs/rules.md section 7.3)."""
    if chosen is not None and len(candidates) > 1:
        if chosen not in candidates:
            raise RuleError(
                f"{category.title}: the tie-break winner must be one of the tied.", "bad_tiebreak"
            )
        return PrizeResult(
            category.code, category.title, share, value, candidates, chosen, False, True
        )
    winner = candidates[0] if len(candidates) == 1 else None
    return PrizeResult(
        category.code, category.title, share, value, candidates, winner, len(candidates) > 1
    )


def _most(standings: Sequence[SeasonStanding], value) -> tuple[int | None, tuple]:
    """The highest value and everyone who has it; nobody when the best is zero."""
    if not standings:
        return None, ()
    best = max(value(s) for s in standings)
    if not best:
        return best, ()
    return best, tuple(s.player for s in standings if value(s) == best)


def season_prizes(
    standings: Sequence[SeasonStanding],
    categories: Sequence[PrizeCategory],
    *,
    pot_cents: int,
    tiebreaks: Mapping[str, Hashable] | None = None,
    eligible: Collection[Hashable] | None = None,
) -> list[PrizeResult]:
    """Each year-end prize's winner or tied candidates and its share of the season's pot;
    ``eligible`` limits who may win (the standings list everyone)."""
    tiebreaks = tiebreaks or {}
    shares = split_pot(pot_cents, categories, labels=SEASON_PRIZE_LABELS)
    pool = [s for s in standings if eligible is None or s.player in eligible]
    night_kind = [c for c in categories if c.code in NIGHT_CATEGORIES]
    decided = {
        r.code: r
        for r in prize_standings(
            [s.standing for s in pool], night_kind, pot_cents=pot_cents, tiebreaks=tiebreaks
        )
    }
    results = []
    for c in categories:
        if c.code in decided:
            results.append(decided[c.code])
            continue
        if c.code == BEST_ATTENDANCE:
            value, candidates = _most(pool, lambda s: s.nights)
        else:  # MOST_MINI_BUNCOS
            value, candidates = _most(pool, lambda s: s.standing.mini_buncos)
        results.append(_decide(c, shares[c.code], value, candidates, tiebreaks.get(c.code)))
    return results

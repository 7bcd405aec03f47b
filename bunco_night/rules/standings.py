"""Standings and prizes (docs/rules.md sections 6 and 7).

Inputs are plain rows, one per player per round; a bunco is credited to the
player who rolled it, so a bunco rolled for a ghost counts for its partner
(section 5). Ghosts have no rows of their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import RuleError

MOST_BUNCOS = "most_buncos"
MOST_WINS = "most_wins"
MOST_LOSSES = "most_losses"
LAST_BUNCO = "last_bunco"
FEWEST_WINS = "fewest_wins"
FUZZY_DIE = "fuzzy_die"
PRIZE_LABELS = {
    MOST_BUNCOS: "Most buncos",
    MOST_WINS: "Most wins",
    MOST_LOSSES: "Most losses",
    LAST_BUNCO: "Last bunco of the night",
    FEWEST_WINS: "Fewest wins",
    FUZZY_DIE: "Fuzzy die",
}


@dataclass(frozen=True)
class PlayerRound:
    """One player's result for one round: a win or a loss, and what they rolled.

    ``set_number`` is the set the round belongs to (docs/rules.md section 7.1).
    """

    player: Hashable
    won: bool
    buncos: int = 0
    mini_buncos: int = 0
    marks: Mapping[str, int] = field(default_factory=dict)
    set_number: int = 1


@dataclass(frozen=True)
class BuncoRoll:
    """A true bunco: who rolled it and when (any value that sorts in time order).

    Pass ``when`` as (round number, time): buncos are in the order they were rolled,
    by round first, so one the host adds later to an earlier round as a correction
    does not become the night's last (docs/rules.md sections 6 and 7).
    """

    player: Hashable
    when: object


@dataclass(frozen=True)
class Standing:
    """A player's totals for the night and their place."""

    player: Hashable
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: Mapping[str, int]
    rank: int = 0
    tied: bool = False


def tally(rows: Iterable[PlayerRound], players: Iterable[Hashable] = ()) -> list[Standing]:
    """Sum rows into one unranked ``Standing`` per player (``players`` adds those with none)."""
    totals: dict[Hashable, dict] = {}

    def blank() -> dict:
        return {"wins": 0, "losses": 0, "buncos": 0, "mini_buncos": 0, "marks": {}}

    for player in players:
        totals.setdefault(player, blank())
    for row in rows:
        t = totals.setdefault(row.player, blank())
        t["wins" if row.won else "losses"] += 1
        t["buncos"] += row.buncos
        t["mini_buncos"] += row.mini_buncos
        for code, n in row.marks.items():
            t["marks"][code] = t["marks"].get(code, 0) + n
    return [Standing(player=p, **t) for p, t in totals.items()]


def rank_standings(
    standings: Iterable[Standing], roll_off: Mapping[Hashable, int] | None = None
) -> list[Standing]:
    """Rank by wins, then buncos, then a recorded roll-off (docs/rules.md section 7.1).

    ``roll_off`` maps a player to their place in a roll-off the host recorded
    (lower is better). Players still level share a rank and are marked tied.
    """
    roll_off = roll_off or {}

    def key(s: Standing) -> tuple:
        return (-s.wins, -s.buncos, roll_off.get(s.player, float("inf")))

    ordered = sorted(standings, key=lambda s: (*key(s), str(s.player)))
    first: dict[tuple, int] = {}
    count: dict[tuple, int] = {}
    for i, s in enumerate(ordered):
        k = key(s)
        first.setdefault(k, i + 1)
        count[k] = count.get(k, 0) + 1
    return [dataclasses.replace(s, rank=first[key(s)], tied=count[key(s)] > 1) for s in ordered]


def set_standings(
    rows: Iterable[PlayerRound],
    players: Iterable[Hashable] = (),
    roll_offs: Mapping[int, Mapping[Hashable, int]] | None = None,
) -> dict[int, list[Standing]]:
    """Each set's own standings, set 1 first (docs/rules.md section 7.1).

    "The winner of the set is the player with the most wins", then most buncos, then
    the roll-off the host recorded for that set (``roll_offs`` maps a set number to
    ``rank_standings``' roll-off places); players still level stay tied. Every set
    with a row is listed; ``players`` adds those with no row in a set to each set.
    The night's standings are ``rank_standings(tally(rows, players))`` as before.
    """
    roll_offs = roll_offs or {}
    everyone = list(players)
    by_set: dict[int, list[PlayerRound]] = {}
    for row in rows:
        by_set.setdefault(row.set_number, []).append(row)
    return {
        number: rank_standings(tally(by_set[number], everyone), roll_offs.get(number))
        for number in sorted(by_set)
    }


def last_bunco(buncos: Iterable[BuncoRoll]) -> BuncoRoll | None:
    """The latest bunco of the night, or None."""
    latest = None
    for b in buncos:
        if latest is None or b.when >= latest.when:
            latest = b
    return latest


def fuzzy_die_holder(buncos: Iterable[BuncoRoll]) -> Hashable | None:
    """The fuzzy die goes to whoever rolled the latest bunco (docs/rules.md section 7.2)."""
    latest = last_bunco(buncos)
    return latest.player if latest else None


@dataclass(frozen=True)
class PrizeCategory:
    """A prize and its share of the pot: a fixed amount in cents or a whole percent."""

    code: str
    amount_cents: int | None = None
    percent: int | None = None
    label: str = ""

    @property
    def title(self) -> str:
        """The label shown to people."""
        return self.label or PRIZE_LABELS.get(self.code, self.code)


@dataclass(frozen=True)
class PrizeResult:
    """Who takes a prize: one winner, or the tied candidates until a tie-break is recorded."""

    code: str
    title: str
    amount_cents: int
    value: int | None
    candidates: tuple[Hashable, ...]
    winner: Hashable | None
    tied: bool
    broken_by_host: bool = False


def split_pot(
    pot_cents: int, categories: Sequence[PrizeCategory], *, labels: Mapping[str, str] = PRIZE_LABELS
) -> dict[str, int]:
    """Cents each category gets: its fixed amount, or its percent of the pot (rounded down).

    ``labels`` names the categories allowed: a night's by default.
    """
    if pot_cents < 0:
        raise RuleError("The pot cannot be negative.", "negative_pot")
    shares = {}
    for c in categories:
        if c.code not in labels:
            raise RuleError(f"Unknown prize {c.code!r}.", "unknown_prize")
        if (c.amount_cents is None) == (c.percent is None):
            raise RuleError(f"{c.title}: give an amount or a percent.", "bad_share")
        if c.amount_cents is not None:
            if c.amount_cents < 0:
                raise RuleError(f"{c.title}: the amount cannot be negative.", "bad_share")
            shares[c.code] = c.amount_cents
        else:
            if not 0 <= c.percent <= 100:
                raise RuleError(f"{c.title}: a percent is 0 to 100.", "bad_share")
            shares[c.code] = pot_cents * c.percent // 100
    if len(shares) != len(categories):
        raise RuleError("A prize is listed twice.", "duplicate_prize")
    if sum(shares.values()) > pot_cents:
        raise RuleError("The prizes add up to more than the pot.", "payout_exceeds_pot")
    return shares


def _best(standings: Sequence[Standing], value, *, highest: bool) -> tuple[int | None, tuple]:
    if not standings:
        return None, ()
    values = [value(s) for s in standings]
    top = max(values) if highest else min(values)
    return top, tuple(s.player for s, v in zip(standings, values, strict=True) if v == top)


def prize_standings(
    standings: Sequence[Standing],
    categories: Sequence[PrizeCategory],
    *,
    pot_cents: int,
    buncos: Iterable[BuncoRoll] = (),
    tiebreaks: Mapping[str, Hashable] | None = None,
) -> list[PrizeResult]:
    """Each prize's winner or tied candidates, and its money (docs/rules.md section 7).

    Nobody wins "most buncos" or "last bunco" on a night without a bunco. A tie
    stays a tie until ``tiebreaks`` names one of the candidates for that prize.
    """
    tiebreaks = tiebreaks or {}
    shares = split_pot(pot_cents, categories)
    latest = last_bunco(buncos)
    results = []
    for c in categories:
        if c.code == MOST_BUNCOS:
            value, cands = _best(standings, lambda s: s.buncos, highest=True)
            if not value:
                cands = ()
        elif c.code == MOST_WINS:
            value, cands = _best(standings, lambda s: s.wins, highest=True)
        elif c.code == MOST_LOSSES:
            value, cands = _best(standings, lambda s: s.losses, highest=True)
        elif c.code == FEWEST_WINS:
            value, cands = _best(standings, lambda s: s.wins, highest=False)
        else:  # LAST_BUNCO and FUZZY_DIE both go to the latest bunco's roller
            value, cands = None, ((latest.player,) if latest else ())
        chosen = tiebreaks.get(c.code)
        if chosen is not None and len(cands) > 1:
            if chosen not in cands:
                raise RuleError(
                    f"{c.title}: the tie-break winner must be one of the tied.", "bad_tiebreak"
                )
            winner, tied, broken = chosen, False, True
        else:
            winner = cands[0] if len(cands) == 1 else None
            tied, broken = len(cands) > 1, False
        results.append(
            PrizeResult(c.code, c.title, shares[c.code], value, cands, winner, tied, broken)
        )
    return results

"""Who takes each prize of a night and what it pays, to the cent (docs/rules.md section 7)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleError
from .prizes import (
    BEST_ROUND,
    DOOR_PRIZE,
    FIRST_BUNCO,
    LEFTOVER_FIRST_PRIZE,
    LEFTOVER_HOST,
    MOST_HEAD_ROUNDS,
    MOST_HIGH,
    MOST_LOW,
    MOST_MARK,
    MOST_MINIS,
    SUBSTITUTE_CANNOT_WIN,
    SUBSTITUTE_FOR_REGULAR,
    TIE_SPLIT,
    DoorDraw,
    PrizePolicy,
    draw_door_prize,
    split_evenly,
)
from .shares import (
    FEWEST_WINS,
    MOST_BUNCOS,
    MOST_LOSSES,
    MOST_WINS,
    PrizeCategory,
    pot_shares,
)
from .standings import BuncoRoll, Standing, first_bunco, last_bunco


@dataclass(frozen=True)
class PrizeResult:
    """Who takes a prize: one winner, or the tied candidates until a tie-break is recorded.
    ``payouts``: who is paid how much (sections 7.6, 7.7); ``remainder_cents``: a split's
    leftover (7.8); ``seed``: the door prize's draw."""

    code: str
    title: str
    amount_cents: int
    value: int | None
    candidates: tuple[Hashable, ...]
    winner: Hashable | None
    tied: bool
    broken_by_host: bool = False
    split: bool = False
    payouts: tuple[tuple[Hashable, int], ...] = ()
    remainder_cents: int = 0
    seed: int | None = None
    mark: str = ""

    @property
    def key(self) -> str:
        """The category's key (``PrizeCategory.key``)."""
        return f"{self.code}:{self.mark}" if self.mark else self.code


def _best(standings: Sequence[Standing], value, *, highest: bool) -> tuple[int | None, tuple]:
    if not standings:
        return None, ()
    values = [value(s) for s in standings]
    top = max(values) if highest else min(values)
    return top, tuple(s.player for s, v in zip(standings, values, strict=True) if v == top)


# Prizes for the most of something: what is counted, and whether 0 wins nothing (7.2, 7.5).
_MOST = {
    MOST_BUNCOS: (lambda s: s.buncos, True),
    MOST_WINS: (lambda s: s.wins, False),
    MOST_LOSSES: (lambda s: s.losses, False),
    MOST_MINIS: (lambda s: s.mini_buncos, True),
    MOST_LOW: (lambda s: s.low_buncos, True),
    MOST_HIGH: (lambda s: s.high_buncos, True),
    MOST_HEAD_ROUNDS: (lambda s: s.head_rounds, True),
}


@dataclass(frozen=True)
class PrizeAwards:
    """Every prize of a night, and where all the money went (docs/rules.md section 7).
    ``leftover_cents`` splits into first prize, carried and host; the pot is the prizes, the
    carried, the host's and ``unassigned_cents``. ``door``: None until drawn (7.5)."""

    results: list[PrizeResult]
    pot_cents: int
    rounding: str
    leftover_cents: int
    first_prize_cents: int
    carried_cents: int
    host_cents: int
    unassigned_cents: int
    door: DoorDraw | None = None


def award_prizes(
    standings: Sequence[Standing],
    categories: Sequence[PrizeCategory],
    *,
    pot_cents: int,
    buncos: Iterable[BuncoRoll] = (),
    tiebreaks: Mapping[str, Hashable] | None = None,
    policy: PrizePolicy | None = None,
    present: Iterable[Hashable] | None = None,
    substitutes: Mapping[Hashable, Hashable | None] | None = None,
    door_seed: int | None = None,
) -> PrizeAwards:
    """Each prize's winner, tied candidates or split, and its money (docs/rules.md section 7).
    ``tiebreaks``: prize key -> recorded winner; ``policy``: ``Rules.prize_policy`` (default:
    section 7.4); ``present``: in name order (7.5); ``substitutes``: substitute -> regular (7.7);
    ``door_seed``: None until drawn."""
    tiebreaks = tiebreaks or {}
    policy = policy or PrizePolicy()
    subs = dict(substitutes or {})
    shares = pot_shares(pot_cents, categories, policy)

    def eligible(player: Hashable) -> bool:
        return policy.substitutes != SUBSTITUTE_CANNOT_WIN or player not in subs

    def recipient(player: Hashable) -> Hashable:
        if policy.substitutes == SUBSTITUTE_FOR_REGULAR and subs.get(player) is not None:
            return subs[player]
        return player

    pool = [s for s in standings if eligible(s.player)]
    rolled = [b for b in buncos if eligible(b.player)]
    here = [s.player for s in standings] if present is None else list(present)
    here = [p for p in dict.fromkeys(here) if eligible(p)]
    door = draw_door_prize(here, door_seed) if door_seed is not None and here else None

    def contest(c: PrizeCategory) -> tuple[int | None, tuple, int | None]:
        """The prize's value, its candidates and the door prize's seed."""
        if c.code in _MOST:
            count, zero_wins_nothing = _MOST[c.code]
            value, cands = _best(pool, count, highest=True)
            return value, (() if zero_wins_nothing and not value else cands), None
        if c.code == MOST_MARK:
            value, cands = _best(pool, lambda s: s.marks.get(c.mark, 0), highest=True)
            return value, (cands if value else ()), None
        if c.code == FEWEST_WINS:
            enough = [s for s in pool if s.rounds >= policy.fewest_wins_min_rounds]
            value, cands = _best(enough, lambda s: s.wins, highest=False)
            return value, cands, None
        if c.code == BEST_ROUND:
            scored = [s for s in pool if s.best_round is not None]
            value, cands = _best(scored, lambda s: s.best_round, highest=True)
            return value, (cands if value else ()), None
        if c.code == FIRST_BUNCO:
            earliest = first_bunco(rolled)
            return None, ((earliest.player,) if earliest else ()), None
        if c.code == DOOR_PRIZE:
            if door is None:
                return None, tuple(here), None
            return None, (door.winner,), door.seed
        # LAST_BUNCO and FUZZY_DIE both go to the latest bunco's roller.
        latest = last_bunco(rolled)
        return None, ((latest.player,) if latest else ()), None

    first = categories[0] if categories and policy.leftover == LEFTOVER_FIRST_PRIZE else None
    # The first prize is settled last: the remainders of split prizes are added to it.
    order = [c for c in categories if c is not first] + ([first] if first else [])
    to_first = carried = host = 0
    results: dict[str, PrizeResult] = {}
    for c in order:
        amount = shares.shares[c.key] + (to_first if c is first else 0)
        value, cands, seed = contest(c)
        chosen = tiebreaks.get(c.key)
        winner, tied, broken, split, payouts, remainder = None, False, False, False, (), 0
        if c.code == DOOR_PRIZE and seed is None:
            pass  # not drawn yet: everyone present is in line, nobody is tied
        elif len(cands) > 1 and chosen is not None:
            if chosen not in cands:
                raise RuleError(
                    f"{c.title}: the tie-break winner must be one of the tied.", "bad_tiebreak"
                )
            winner, broken = chosen, True
        elif len(cands) > 1 and policy.ties == TIE_SPLIT:
            each, remainder = split_evenly(amount, len(cands), policy.rounding)
            split, payouts = True, tuple((recipient(p), each) for p in cands)
        elif len(cands) > 1:
            tied = True
        elif cands:
            winner = cands[0]
        if winner is not None:
            payouts = ((recipient(winner), amount),)
        if remainder and first is not None and c is not first:
            to_first += remainder
        elif remainder and policy.leftover == LEFTOVER_HOST:
            host += remainder
        else:
            carried += remainder
        results[c.key] = PrizeResult(
            c.code,
            c.title,
            amount,
            value,
            cands,
            winner,
            tied,
            broken,
            split,
            payouts,
            remainder,
            seed,
            c.mark,
        )
    split_left = sum(r.remainder_cents for r in results.values())
    return PrizeAwards(
        results=[results[c.key] for c in categories],
        pot_cents=pot_cents,
        rounding=policy.rounding,
        leftover_cents=shares.leftover_cents + split_left,
        first_prize_cents=shares.first_prize_cents + to_first,
        carried_cents=shares.carried_cents + carried,
        host_cents=shares.host_cents + host,
        unassigned_cents=shares.unassigned_cents,
        door=door if any(c.code == DOOR_PRIZE for c in categories) else None,
    )


def prize_standings(
    standings: Sequence[Standing],
    categories: Sequence[PrizeCategory],
    *,
    pot_cents: int,
    buncos: Iterable[BuncoRoll] = (),
    tiebreaks: Mapping[str, Hashable] | None = None,
    **settings,
) -> list[PrizeResult]:
    """``award_prizes``' results alone (``settings``: its further keywords)."""
    return award_prizes(
        standings, categories, pot_cents=pot_cents, buncos=buncos, tiebreaks=tiebreaks, **settings
    ).results

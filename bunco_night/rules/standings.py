"""Standings and prizes (docs/rules.md sections 6 and 7).

Inputs are plain rows, one per player per round; a bunco is credited to the
player who rolled it, so a bunco rolled for a ghost counts for its partner
(section 5). Ghosts have no rows of their own. The further prize categories and a
group's prize settings (sections 7.5 to 7.8) are in ``prizes``; ``award_prizes`` here
applies them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import RuleError
from .prizes import (
    BEST_ROUND,
    DOOR_PRIZE,
    FIRST_BUNCO,
    LEFTOVER_FIRST_PRIZE,
    LEFTOVER_HOST,
    LEFTOVER_NEXT_POT,
    MORE_PRIZE_LABELS,
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
    round_down,
    split_evenly,
)

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
    ``low_buncos`` and ``high_buncos`` are the part of ``mini_buncos`` that were low or
    high buncos, under rules that split them; ``table`` is the number of the table the
    player sat at (1 is the head table) and ``score`` the points they rolled in the
    round (``points_rolled`` in ``rounds``), for the prizes of section 7.5.
    """

    player: Hashable
    won: bool
    buncos: int = 0
    mini_buncos: int = 0
    marks: Mapping[str, int] = field(default_factory=dict)
    set_number: int = 1
    low_buncos: int = 0
    high_buncos: int = 0
    table: int | None = None
    score: int | None = None


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
    """A player's totals for the night and their place.

    ``head_rounds`` counts the rounds played at the head table and ``best_round`` is the
    highest score the player rolled in one round (None when no round had a score).
    """

    player: Hashable
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: Mapping[str, int]
    rank: int = 0
    tied: bool = False
    low_buncos: int = 0
    high_buncos: int = 0
    head_rounds: int = 0
    best_round: int | None = None

    @property
    def rounds(self) -> int:
        """Rounds the player has a result for."""
        return self.wins + self.losses


def tally(rows: Iterable[PlayerRound], players: Iterable[Hashable] = ()) -> list[Standing]:
    """Sum rows into one unranked ``Standing`` per player (``players`` adds those with none)."""
    totals: dict[Hashable, dict] = {}

    def blank() -> dict:
        return {
            "wins": 0,
            "losses": 0,
            "buncos": 0,
            "mini_buncos": 0,
            "marks": {},
            "low_buncos": 0,
            "high_buncos": 0,
            "head_rounds": 0,
            "best_round": None,
        }

    for player in players:
        totals.setdefault(player, blank())
    for row in rows:
        t = totals.setdefault(row.player, blank())
        t["wins" if row.won else "losses"] += 1
        t["buncos"] += row.buncos
        t["mini_buncos"] += row.mini_buncos
        t["low_buncos"] += row.low_buncos
        t["high_buncos"] += row.high_buncos
        t["head_rounds"] += row.table == 1
        if row.score is not None and (t["best_round"] is None or row.score > t["best_round"]):
            t["best_round"] = row.score
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


def first_bunco(buncos: Iterable[BuncoRoll]) -> BuncoRoll | None:
    """The earliest bunco of the night, in the order of docs/rules.md section 6.3, or None."""
    earliest = None
    for b in buncos:
        if earliest is None or b.when < earliest.when:
            earliest = b
    return earliest


# Every prize category the engine knows: the six of section 7.2 and those of section 7.5.
ALL_PRIZE_LABELS = {**PRIZE_LABELS, **MORE_PRIZE_LABELS}


@dataclass(frozen=True)
class PrizeCategory:
    """A prize and its share of the pot: a fixed amount in cents or a whole percent.

    ``mark`` is the group mark's code for the "most of a group mark" category
    (docs/rules.md section 7.5), and empty for every other category.
    """

    code: str
    amount_cents: int | None = None
    percent: int | None = None
    label: str = ""
    mark: str = ""

    @property
    def key(self) -> str:
        """What tells a group's prizes apart: the code, with the mark's code for
        ``most_mark`` ("most_mark:wipeout"). The same as ``code`` for every other prize."""
        return f"{self.code}:{self.mark}" if self.mark else self.code

    @property
    def title(self) -> str:
        """The label shown to people."""
        if self.label:
            return self.label
        if self.code == MOST_MARK:
            return f"Most {self.mark}"
        return ALL_PRIZE_LABELS.get(self.code, self.code)


@dataclass(frozen=True)
class PrizeResult:
    """Who takes a prize: one winner, or the tied candidates until a tie-break is recorded.

    ``payouts`` say who is paid how much: the winner (or, under section 7.7, the regular
    a substitute came for), or each tied player when the prize is ``split``
    (section 7.6); empty while the prize has no winner. ``remainder_cents`` is what a
    split left over, paid where section 7.8 says. ``seed`` is the number a door prize
    was drawn with.
    """

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


@dataclass(frozen=True)
class PotShares:
    """The pot shared out among a group's prizes (docs/rules.md sections 7.4 and 7.8).

    ``shares`` are the cents of each prize by key, rounded down to the group's unit,
    with the leftover already added to the first prize when the group says so.
    ``leftover_cents`` is what rounding left over, and it went to the first prize
    (``first_prize_cents``), to next month's pot (``carried_cents``) or to the host
    (``host_cents``). ``unassigned_cents`` is the part of the pot no prize asked for
    (percents adding up to less than 100). The parts add up to the pot.
    """

    pot_cents: int
    shares: dict[str, int]
    rounding: str
    leftover_cents: int
    first_prize_cents: int
    carried_cents: int
    host_cents: int
    unassigned_cents: int


def _check_categories(
    categories: Sequence[PrizeCategory], labels: Mapping[str, str] = ALL_PRIZE_LABELS
) -> None:
    """Refuse categories not among ``labels`` (a night's by default), or badly shared."""
    keys = set()
    for c in categories:
        if c.code not in labels:
            raise RuleError(f"Unknown prize {c.code!r}.", "unknown_prize")
        if (c.code == MOST_MARK) != bool(c.mark):
            raise RuleError(f"{c.title}: only that prize names a group mark.", "bad_prize_mark")
        if (c.amount_cents is None) == (c.percent is None):
            raise RuleError(f"{c.title}: give an amount or a percent.", "bad_share")
        if c.amount_cents is not None and c.amount_cents < 0:
            raise RuleError(f"{c.title}: the amount cannot be negative.", "bad_share")
        if c.percent is not None and not 0 <= c.percent <= 100:
            raise RuleError(f"{c.title}: a percent is 0 to 100.", "bad_share")
        if c.key in keys:
            raise RuleError("A prize is listed twice.", "duplicate_prize")
        keys.add(c.key)


def pot_shares(
    pot_cents: int,
    categories: Sequence[PrizeCategory],
    policy: PrizePolicy | None = None,
    *,
    labels: Mapping[str, str] = ALL_PRIZE_LABELS,
) -> PotShares:
    """Each prize's money: its fixed amount as the group set it, or its percent of the
    pot rounded down to the group's unit (docs/rules.md sections 7.4 and 7.8).

    What rounding leaves over goes where ``policy.leftover`` says. With the default
    policy shares are rounded down to the cent and the leftover is the host's, as
    section 7.4 describes.
    """
    policy = policy or PrizePolicy()
    if pot_cents < 0:
        raise RuleError("The pot cannot be negative.", "negative_pot")
    _check_categories(categories, labels)
    shares = {}
    for c in categories:
        if c.amount_cents is not None:
            shares[c.key] = c.amount_cents
        else:
            shares[c.key] = round_down(pot_cents * c.percent // 100, policy.rounding)
    if sum(shares.values()) > pot_cents:
        raise RuleError("The prizes add up to more than the pot.", "payout_exceeds_pot")
    fixed = sum(c.amount_cents for c in categories if c.amount_cents is not None)
    percent = sum(c.percent for c in categories if c.percent is not None)
    rounded = sum(shares[c.key] for c in categories if c.percent is not None)
    # The money the percents ask for, in whole cents, and never more than the pot holds.
    for_percents = min(pot_cents * percent // 100, pot_cents - fixed)
    leftover = max(0, for_percents - rounded)
    first = carried = host = 0
    if leftover and policy.leftover == LEFTOVER_FIRST_PRIZE and categories:
        first = leftover
        shares[categories[0].key] += leftover
    elif policy.leftover == LEFTOVER_NEXT_POT:
        carried = leftover
    else:
        host = leftover
    unassigned = pot_cents - fixed - rounded - leftover
    return PotShares(pot_cents, shares, policy.rounding, leftover, first, carried, host, unassigned)


def split_pot(
    pot_cents: int,
    categories: Sequence[PrizeCategory],
    *,
    policy: PrizePolicy | None = None,
    labels: Mapping[str, str] = ALL_PRIZE_LABELS,
) -> dict[str, int]:
    """Cents each category gets, by key: its fixed amount, or its percent of the pot
    rounded down (to the cent by default; ``pot_shares`` says what was left over).
    ``labels`` names the categories allowed: a night's by default, a season's for a season."""
    return pot_shares(pot_cents, categories, policy, labels=labels).shares


def _best(standings: Sequence[Standing], value, *, highest: bool) -> tuple[int | None, tuple]:
    if not standings:
        return None, ()
    values = [value(s) for s in standings]
    top = max(values) if highest else min(values)
    return top, tuple(s.player for s, v in zip(standings, values, strict=True) if v == top)


# Prizes for the most of something: what is counted, and whether a count of 0 wins
# nothing ("Nobody wins a bunco prize on a night without a bunco", section 7.2; the same
# for every count of section 7.5).
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

    ``leftover_cents`` is everything rounding and splitting left over; of it,
    ``first_prize_cents`` went to the first prize (it is in that prize's amount), and
    ``carried_cents`` goes to next month's pot and ``host_cents`` to the host.
    ``unassigned_cents`` is the pot no prize asked for. The pot is the sum of what
    every prize pays (or will pay, once its winner is known), what is carried, the
    host's and the unassigned. ``door`` is the door prize's draw, made among those who
    may win it (section 7.5), None until it is drawn.
    """

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

    ``tiebreaks`` maps a prize's key to the tied player the host recorded as its winner.
    ``policy`` holds the group's prize settings (``Rules.prize_policy``; by default the
    behaviour of section 7.4 before those settings existed). ``present`` are the people
    at the night, in the order the door prize is drawn from: name order, as section 7.5
    says (by default everyone in ``standings``, in their order); ``substitutes`` maps each
    player who came in a regular's place to that regular (section 7.7); ``door_seed`` is
    the number the door prize is drawn with, None until it is drawn.
    """
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
    """Each prize's winner or tied candidates, and its money (docs/rules.md section 7).

    Nobody wins "most buncos" or "last bunco" on a night without a bunco. A tie
    stays a tie until ``tiebreaks`` names one of the candidates for that prize.
    ``settings`` are ``award_prizes``' further keywords (the group's policy, who is
    present, substitutes, the door prize's seed); ``award_prizes`` also says where the
    money left over went.
    """
    return award_prizes(
        standings, categories, pot_cents=pot_cents, buncos=buncos, tiebreaks=tiebreaks, **settings
    ).results

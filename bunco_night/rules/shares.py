"""The prize categories (docs/rules.md sections 7.2 and 7.5) and each one's share of the
pot (sections 7.4 and 7.8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleError
from .prizes import (
    LEFTOVER_FIRST_PRIZE,
    LEFTOVER_NEXT_POT,
    MORE_PRIZE_LABELS,
    MOST_MARK,
    PrizePolicy,
    round_down,
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

# Every prize category the engine knows: the six of section 7.2 and those of section 7.5.
ALL_PRIZE_LABELS = {**PRIZE_LABELS, **MORE_PRIZE_LABELS}


@dataclass(frozen=True)
class PrizeCategory:
    """A prize and its share of the pot: fixed cents or a whole percent; ``mark``: the
    mark's code for ``most_mark`` (docs/rules.md section 7.5), else empty."""

    code: str
    amount_cents: int | None = None
    percent: int | None = None
    label: str = ""
    mark: str = ""

    @property
    def key(self) -> str:
        """``code``, or "most_mark:<mark>" for ``most_mark``."""
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
class PotShares:
    """The pot shared out among a group's prizes (docs/rules.md sections 7.4 and 7.8). ``shares``
    by key include any leftover to the first prize; the parts add up to the pot."""

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
    """Each prize's money: fixed, or a percent rounded down to the group's unit; the
    leftover goes where ``policy.leftover`` says (docs/rules.md sections 7.4 and 7.8)."""
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
    """``pot_shares(...).shares``: cents by key; ``labels``: the categories allowed."""
    return pot_shares(pot_cents, categories, policy, labels=labels).shares

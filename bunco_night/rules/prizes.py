"""The further prize categories, a group's ``PrizePolicy``, rounding and splitting money,
and the door prize's seeded draw (docs/rules.md sections 7.5 to 7.8)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .errors import RuleError

# Further prize categories (docs/rules.md section 7.5); ``MOST_MARK`` carries a mark's code.
MOST_MINIS = "most_minis"
MOST_LOW = "most_low"
MOST_HIGH = "most_high"
MOST_MARK = "most_mark"
FIRST_BUNCO = "first_bunco"
MOST_HEAD_ROUNDS = "most_head_rounds"
BEST_ROUND = "best_round"
DOOR_PRIZE = "door_prize"
MORE_PRIZE_LABELS = {
    MOST_MINIS: "Most mini buncos",
    MOST_LOW: "Most low buncos",
    MOST_HIGH: "Most high buncos",
    MOST_MARK: "Most of a group mark",
    FIRST_BUNCO: "First bunco of the night",
    MOST_HEAD_ROUNDS: "Most rounds at the head table",
    BEST_ROUND: "Highest score in one round",
    DOOR_PRIZE: "Door prize",
}

# A tied prize (section 7.6): the host records who won it, or the tied split it.
TIE_ROLL_OFF = "roll_off"
TIE_SPLIT = "split"
PRIZE_TIES = (TIE_ROLL_OFF, TIE_SPLIT)

# Substitutes (section 7.7).
SUBSTITUTE_WINS = "win"
SUBSTITUTE_FOR_REGULAR = "regular"
SUBSTITUTE_CANNOT_WIN = "none"
SUBSTITUTE_PRIZES = (SUBSTITUTE_WINS, SUBSTITUTE_FOR_REGULAR, SUBSTITUTE_CANNOT_WIN)

# Rounding (section 7.8): shares are rounded down to what a host pays in cash.
ROUND_DOLLARS = "dollars"
ROUND_QUARTERS = "quarters"
ROUND_CENTS = "cents"
ROUNDING_UNITS = {ROUND_DOLLARS: 100, ROUND_QUARTERS: 25, ROUND_CENTS: 1}

# Where the money left over by rounding and splitting goes (section 7.8).
LEFTOVER_FIRST_PRIZE = "first_prize"
LEFTOVER_NEXT_POT = "next_pot"
LEFTOVER_HOST = "host"
LEFTOVERS = (LEFTOVER_FIRST_PRIZE, LEFTOVER_NEXT_POT, LEFTOVER_HOST)

MAX_MIN_ROUNDS = 1000


@dataclass(frozen=True)
class PrizePolicy:
    """A group's prize settings (docs/rules.md sections 7.6 to 7.8); the defaults here are
    section 7.4's, a group's (``Rules.prize_policy``) section 7.8's."""

    rounding: str = ROUND_CENTS
    leftover: str = LEFTOVER_HOST
    ties: str = TIE_ROLL_OFF
    substitutes: str = SUBSTITUTE_WINS
    fewest_wins_min_rounds: int = 0

    def __post_init__(self):
        check_policy(
            rounding=self.rounding,
            leftover=self.leftover,
            ties=self.ties,
            substitutes=self.substitutes,
            fewest_wins_min_rounds=self.fewest_wins_min_rounds,
        )

    @property
    def unit_cents(self) -> int:
        """The smallest amount a share is paid in: 100, 25 or 1 cents."""
        return ROUNDING_UNITS[self.rounding]


def check_policy(
    *, rounding: str, leftover: str, ties: str, substitutes: str, fewest_wins_min_rounds: int
) -> None:
    """Raise ``RuleError`` for a prize setting the app does not know."""
    if rounding not in ROUNDING_UNITS:
        raise RuleError("Prizes round to dollars, quarters or cents.", "bad_prize_rounding")
    if leftover not in LEFTOVERS:
        raise RuleError(
            "Money left over goes to the first prize, next month's pot, or the host.",
            "bad_prize_leftover",
        )
    if ties not in PRIZE_TIES:
        raise RuleError("A tied prize is rolled off or split.", "bad_prize_ties")
    if substitutes not in SUBSTITUTE_PRIZES:
        raise RuleError(
            "Substitutes win, win for their regular, or cannot win.", "bad_substitute_prizes"
        )
    if (
        isinstance(fewest_wins_min_rounds, bool)
        or not isinstance(fewest_wins_min_rounds, int)
        or not 0 <= fewest_wins_min_rounds <= MAX_MIN_ROUNDS
    ):
        raise RuleError(
            f"The rounds needed for fewest wins must be 0 to {MAX_MIN_ROUNDS}.", "bad_min_rounds"
        )


def round_down(cents: int, rounding: str) -> int:
    """``cents`` rounded down to a whole number of the rounding unit (section 7.8)."""
    unit = ROUNDING_UNITS[rounding]
    return cents // unit * unit


def split_evenly(cents: int, ways: int, rounding: str) -> tuple[int, int]:
    """(each share, left over) of ``cents`` split ``ways``, rounded down (docs/rules.md 7.6)."""
    if ways < 1:
        raise RuleError("A prize is split between one or more players.", "bad_split")
    each = round_down(cents // ways, rounding)
    return each, cents - each * ways


@dataclass(frozen=True)
class DoorDraw:
    """A door prize drawn among those present (docs/rules.md section 7.5); anyone can
    check that ``order[number - 1]`` is the ``winner``."""

    seed: int
    order: tuple[Hashable, ...]
    number: int
    winner: Hashable


def draw_door_prize(present: Iterable[Hashable], seed: int) -> DoorDraw:
    """Draw one of ``present`` (duplicates once) with ``random.Random(seed)``: repeatable."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RuleError("The draw's number is a whole number.", "bad_seed")
    order = tuple(dict.fromkeys(present))
    if not order:
        raise RuleError("Nobody is present to draw the door prize from.", "nobody_present")
    number = random.Random(seed).randrange(len(order)) + 1
    return DoorDraw(seed, order, number, order[number - 1])

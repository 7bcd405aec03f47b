"""Scoring one roll of three dice (docs/rules.md section 2).

A phone may send the three dice (``score_roll``) or just what the roll scored
(``score_tap``); both give the same ``ScoredRoll``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RuleError
from .presets import Rules

POINTS = "points"
MISS = "miss"
BUNCO = "bunco"
MINI = "mini"
LOW = "low"
HIGH = "high"
KINDS = (POINTS, MISS, BUNCO, MINI, LOW, HIGH)
# Three of a kind that is not the mark: all are "mini buncos" in the standings.
MINI_KINDS = (MINI, LOW, HIGH)


@dataclass(frozen=True)
class ScoredRoll:
    """What one roll scored and whether the roller keeps the dice."""

    points: int
    kind: str
    roll_again: bool

    @property
    def is_bunco(self) -> bool:
        """A true bunco: three of the mark."""
        return self.kind == BUNCO

    @property
    def is_mini(self) -> bool:
        """Three of a kind of another number (mini, low or high bunco)."""
        return self.kind in MINI_KINDS


def check_mark(mark: int) -> int:
    """The mark must be a die face."""
    if isinstance(mark, bool) or not isinstance(mark, int) or not 1 <= mark <= 6:
        raise RuleError("The mark is a number from 1 to 6.", "bad_mark")
    return mark


def check_dice(dice: Sequence[int]) -> tuple[int, int, int]:
    """Three values from 1 to 6, or a ``RuleError`` coded ``bad_dice``."""
    values = tuple(dice)
    if len(values) != 3 or not all(
        isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in values
    ):
        raise RuleError("A roll is three dice, each showing 1 to 6.", "bad_dice")
    return values  # type: ignore[return-value]


def triple_kind(face: int, mark: int, rules: Rules) -> str:
    """The kind of three of a kind showing ``face`` when the mark is ``mark``."""
    if face == mark:
        return BUNCO
    if not rules.split_low_high:
        return MINI
    return LOW if face < mark else HIGH


def kind_points(kind: str, rules: Rules, count: int = 0) -> int:
    """Points a roll of ``kind`` scores; ``count`` is the number of dice showing the mark."""
    return {
        BUNCO: rules.bunco_points,
        MINI: rules.mini_points,
        LOW: rules.low_points,
        HIGH: rules.high_points,
        POINTS: count,
        MISS: 0,
    }[kind]


def score_roll(dice: Sequence[int], mark: int, rules: Rules) -> ScoredRoll:
    """Score three dice for the round's mark.

    docs/rules.md section 2: a point for each die showing the mark; three of the mark is
    a bunco; three of another number is a mini (house) or low/high (Deluxe) bunco;
    a roll that scores lets the roller go again, a miss passes the dice left.
    """
    a, b, c = check_dice(dice)
    check_mark(mark)
    if a == b == c:
        kind = triple_kind(a, mark, rules)
        return ScoredRoll(kind_points(kind, rules), kind, True)
    count = (a, b, c).count(mark)
    if count == 0:
        return ScoredRoll(0, MISS, False)
    return ScoredRoll(count, POINTS, True)


def score_tap(kind: str, rules: Rules, count: int = 0) -> ScoredRoll:
    """Score a roll entered as one tap: ``count`` of the mark, or a kind of bunco.

    ``count`` 3 is a bunco (three of the mark), whatever the tap said.
    """
    if kind not in KINDS:
        raise RuleError(f"Unknown kind of roll {kind!r}.", "bad_kind")
    if kind == POINTS:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 3:
            raise RuleError("A roll shows 1, 2 or 3 of the mark.", "bad_count")
        if count == 3:
            kind = BUNCO
    if kind in (LOW, HIGH) and not rules.split_low_high:
        raise RuleError("These rules have mini buncos, not low and high.", "bad_kind")
    if kind == MINI and rules.split_low_high:
        raise RuleError("These rules split mini buncos into low and high.", "bad_kind")
    points = kind_points(kind, rules, count)
    return ScoredRoll(points, kind, kind != MISS)

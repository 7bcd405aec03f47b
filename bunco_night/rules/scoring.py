"""Scoring one roll: three dice (docs/rules.md section 2), or two (section 9.2). ``score_roll``
(the dice) and ``score_tap`` (what it scored) give the same ``ScoredRoll``; ``score_entry``
scores any tap, a group mark included, as an entry keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RuleError
from .presets import MARK_CODE_MAX_LENGTH, RESET_ROUND_SCORE, Rules

POINTS = "points"
MISS = "miss"
BUNCO = "bunco"
MINI = "mini"
LOW = "low"
HIGH = "high"
KINDS = (POINTS, MISS, BUNCO, MINI, LOW, HIGH)
# Three of a kind that is not the mark: all are "mini buncos" in the standings.
MINI_KINDS = (MINI, LOW, HIGH)

# Two-dice bunko (docs/rules.md section 9.2): the third double in a row is a bunco.
PAIR = "pair"
DOUBLES = "doubles"
TWO_DICE_KINDS = (POINTS, MISS, BUNCO, PAIR, DOUBLES)
DOUBLE_KINDS = (PAIR, DOUBLES)
DOUBLES_FOR_BUNCO = 3
# Every kind of roll a table can enter, in either game.
ROLL_KINDS = (*KINDS, PAIR, DOUBLES)
# What else a tap may be (``score_entry``): the dice themselves, or a group mark (section 2.4).
DICE = "dice"
MARK = "mark"


@dataclass(frozen=True)
class ScoredRoll:
    """What one roll scored and whether the roller keeps the dice; ``mark_dice``: how many
    dice showed the mark in a roll of points (two for a pair)."""

    points: int
    kind: str
    roll_again: bool
    doubles: bool = False
    mark_dice: int = 0

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


def check_dice(dice: Sequence[int], count: int = 3) -> tuple[int, ...]:
    """``count`` values from 1 to 6, or a ``RuleError`` coded ``bad_dice``."""
    values = tuple(dice)
    if len(values) != count or not all(
        isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in values
    ):
        words = {2: "two", 3: "three"}.get(count, str(count))
        raise RuleError(f"A roll is {words} dice, each showing 1 to 6.", "bad_dice")
    return values


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


def _check_streak(doubles_before: int) -> int:
    if isinstance(doubles_before, bool) or not isinstance(doubles_before, int):
        raise RuleError("Doubles in a row is a whole number.", "bad_streak")
    if not 0 <= doubles_before < DOUBLES_FOR_BUNCO:
        raise RuleError("Three doubles in a row already made a bunco.", "bad_streak")
    return doubles_before


def _two_dice(kind: str, rules: Rules, doubles_before: int) -> ScoredRoll:
    """A two-dice roll of ``kind`` (docs/rules.md section 9.2)."""
    doubles = kind in DOUBLE_KINDS or kind == BUNCO
    if kind in DOUBLE_KINDS and doubles_before + 1 >= DOUBLES_FOR_BUNCO:
        kind = BUNCO
    points = {POINTS: rules.mark_die_points, PAIR: rules.mark_pair_points}.get(kind, 0)
    mark_dice = {POINTS: 1, PAIR: 2}.get(kind, 0)
    return ScoredRoll(points, kind, kind not in (MISS, BUNCO), doubles, mark_dice)


def score_roll(
    dice: Sequence[int], mark: int, rules: Rules, *, doubles_before: int = 0
) -> ScoredRoll:
    """Score the dice for the round's mark (docs/rules.md sections 2 and 9.2)."""
    if rules.is_two_dice:
        a, b = check_dice(dice, 2)
        check_mark(mark)
        _check_streak(doubles_before)
        if a == b:
            kind = PAIR if a == mark else DOUBLES
        else:
            kind = POINTS if mark in (a, b) else MISS
        return _two_dice(kind, rules, doubles_before)
    a, b, c = check_dice(dice)
    check_mark(mark)
    if a == b == c:
        kind = triple_kind(a, mark, rules)
        return ScoredRoll(kind_points(kind, rules), kind, True)
    count = (a, b, c).count(mark)
    if count == 0:
        return ScoredRoll(0, MISS, False)
    return ScoredRoll(count, POINTS, True, mark_dice=count)


def score_tap(kind: str, rules: Rules, count: int = 0, *, doubles_before: int = 0) -> ScoredRoll:
    """Score a roll entered as one tap: ``count`` of the mark (3 is a bunco), or a kind. Two dice
    (docs/rules.md section 9.2): ``count`` 1 or 2 (a pair), doubles, miss, bunco."""
    if rules.is_two_dice:
        return _two_dice_tap(kind, rules, count, doubles_before)
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
    return ScoredRoll(points, kind, kind != MISS, mark_dice=count if kind == POINTS else 0)


def _two_dice_tap(kind: str, rules: Rules, count: int, doubles_before: int) -> ScoredRoll:
    if kind not in TWO_DICE_KINDS:
        raise RuleError("Two-dice bunko has points, pairs, doubles, misses and buncos.", "bad_kind")
    _check_streak(doubles_before)
    if kind == POINTS:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 2:
            raise RuleError("Two dice show 1 or 2 of the mark.", "bad_count")
        if count == 2:
            kind = PAIR
    return _two_dice(kind, rules, doubles_before)


@dataclass(frozen=True)
class ScoredEntry:
    """A tap as an entry keeps it (docs/rules.md section 6.1): its points and kind, how many
    dice showed the round's mark, and a group mark's code and whether it resets the round
    score of the roller's side (section 2.4)."""

    points: int
    kind: str
    mark_dice: int = 0
    mark_code: str = ""
    reset: bool = False


def score_entry(
    kind: str,
    rules: Rules,
    *,
    count: int = 0,
    dice: Sequence[int] = (),
    mark: int | None = None,
    mark_code: str = "",
    doubles_before: int = 0,
) -> ScoredEntry:
    """Score one tap: ``DICE`` scores ``dice`` for the round's ``mark``, ``MARK`` is the group
    mark ``mark_code``, any other kind is ``score_tap``'s (``count`` for points). Raises
    ``RuleError``."""
    streak = doubles_before
    if kind == DICE:
        scored = score_roll(dice, mark, rules, doubles_before=streak)
    elif kind != MARK:
        scored = score_tap(kind, rules, count if kind == POINTS else 0, doubles_before=streak)
    else:
        group_mark = rules.group_mark(mark_code)
        if len(mark_code) > MARK_CODE_MAX_LENGTH:  # rules saved before such codes were refused
            raise RuleError("This mark's code is too long to record.", "mark_code_too_long")
        return ScoredEntry(
            group_mark.points, MARK, 0, mark_code, group_mark.effect == RESET_ROUND_SCORE
        )
    return ScoredEntry(scored.points, scored.kind, scored.mark_dice)
